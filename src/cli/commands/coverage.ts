/**
 * `payment-contract-kit coverage <file|url>…`: which behaviours of the service a suite exercised, from the reports
 * the mock writes (`--coverage-file`, the vitest helper, `coverage merge`) or answers (`GET /__pck/coverage`), and a
 * gate for CI: `--min <percent>` and `--require <ids>` exit 1 below the bar or when a required behaviour was never
 * exercised, saying which.
 *
 * @module
 */
import { defaultAssumptions } from '../../assumptions.ts';
import { behaviourCatalogue } from '../../contract/coverage/catalogue.ts';
import { type CoverageReport, coveragePercent } from '../../contract/coverage/report.ts';
import { coverageJunit, coverageText } from '../../contract/coverage/report-formats.ts';
import { kitMessage } from '../../internal/messages.ts';
import { type CommandIo, parseCommandLine, parseFlags } from '../command-line.ts';
import { coverageUsage, mergedSources } from '../coverage-sources.ts';

/** Help text, with examples. */
export const help = `Usage: payment-contract-kit coverage <file.json|url>... [options]
       payment-contract-kit coverage merge <a.json> <b.json>... [--output <file>]

Reports which behaviours of the payment service a suite exercised: tokens (generated, refreshed, revoked,
refused as missing, invalid, expired, revoked or another client's), each GraphQL operation in each guide, each
7.3 validation path and 7.2 reason, each test-card outcome, payments by card details and by card_account_uid,
webhooks delivered, retried and given up, and the older guide's names. Give the files the mock wrote
(--coverage-file, the vitest helper) or a running mock's URL; several are merged into one report.

Options:
  --min <percent>              Exit 1 when fewer than this share of the behaviours were exercised (0 to 100).
  --require <id,id,...>        Exit 1 when any of these behaviours was never exercised; repeat or comma-separate.
  --format <text|json|junit>   Report format on stdout. Default text: by section, each gap with the request or
                               test card that would cover it.
  --control-token <secret>     The mock's control token, for a URL (default: PCK_CONTROL_TOKEN).
  -h, --help                   Show this help.

Exit status: 0 when the gate holds (always without --min and --require), 1 when it does not (the reason is
printed on standard error), 2 for bad flags, an unknown behaviour id, or a source that cannot be read or is not
a coverage report.

Examples:
  payment-contract-kit coverage coverage.json
  payment-contract-kit coverage http://127.0.0.1:4010 --format junit > coverage.xml
  payment-contract-kit coverage pck-coverage/*.json --min 80 --require token.expired,webhook.failure
`;

const formats = ['text', 'json', 'junit'] as const;
type Format = (typeof formats)[number];
const usage = (message: string): never => coverageUsage('coverage', message);

function minimum(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100)
    usage(`--min must be a percentage from 0 to 100, got "${raw}".`);
  return n;
}

function required(raw: readonly string[]): string[] {
  const ids = raw
    .flatMap((r) => r.split(','))
    .map((id) => id.trim())
    .filter((id) => id !== '');
  const known = new Set(behaviourCatalogue(defaultAssumptions).map((b) => b.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0)
    usage(
      `--require names no behaviour ${unknown.map((id) => `"${id}"`).join(', ')}; the ids are listed by "payment-contract-kit coverage <file> --format json" (for example token.expired, webhook.failure).`,
    );
  return ids;
}

function parse(argv: readonly string[], env: NodeJS.ProcessEnv) {
  const { values, positionals } = parseFlags(
    argv,
    {
      min: { type: 'string' },
      require: { type: 'string', multiple: true },
      format: { type: 'string' },
      'control-token': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    usage,
  );
  if (values.help) return { help: true as const };
  const format = (values.format as string | undefined) ?? 'text';
  if (!formats.includes(format as Format)) usage(`--format must be text, json or junit, got "${format}".`);
  if (positionals.length === 0) usage('give a coverage file or a mock URL, e.g. coverage coverage.json.');
  return {
    help: false as const,
    sources: positionals,
    min: minimum(values.min as string | undefined),
    require: required((values.require as string[] | undefined) ?? []),
    format: format as Format,
    controlToken: (values['control-token'] as string | undefined) ?? env.PCK_CONTROL_TOKEN,
  };
}

/** What keeps the gate shut: the share below the bar, the required behaviours never exercised. */
function gateProblems(report: CoverageReport, min: number | undefined, require: readonly string[]): string[] {
  const problems: string[] = [];
  const percent = coveragePercent(report);
  if (min !== undefined && percent < min)
    problems.push(`${percent.toFixed(1)}% of the behaviours were exercised, below --min ${min}.`);
  const byId = new Map(report.behaviours.map((b) => [b.id, b]));
  const missing = require.filter((id) => !byId.get(id)?.covered);
  if (missing.length > 0)
    problems.push(
      `never exercised, but required: ${missing.map((id) => `${id} (${byId.get(id)?.title ?? 'not in the report'})`).join('; ')}.`,
    );
  return problems;
}

/**
 * Runs `coverage` with the arguments after the command name; resolves with the exit code.
 *
 * @example
 * await run(['coverage.json', '--min', '80', '--require', 'token.expired']);
 */
export async function run(
  argv: readonly string[],
  io: CommandIo = { stdout: process.stdout, stderr: process.stderr },
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const flags = parseCommandLine(() => parse(argv, env), help, io);
  if (typeof flags === 'number') return flags;
  const report = await mergedSources('coverage', flags.sources, flags.controlToken, io);
  if (typeof report === 'number') return report;
  if (flags.format === 'json') io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else io.stdout.write(flags.format === 'junit' ? coverageJunit(report) : coverageText(report));
  const problems = gateProblems(report, flags.min, flags.require);
  for (const problem of problems) io.stderr.write(`${kitMessage(`coverage: ${problem}`)}\n`);
  return problems.length === 0 ? 0 : 1;
}

export type { CommandIo } from '../command-line.ts';
