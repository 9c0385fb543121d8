/**
 * `payment-contract-kit check <file.har>…`: the proxy's checks, offline, on HAR files (saved from a browser's
 * developer tools, or written by `proxy --record`). Every entry to the service's paths is checked with the one
 * checker; other hosts (with `--origin`) and other paths are skipped and counted. The handler maps flags to
 * `readHar` and `checkExchange`, and the results to a report.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { resolveAssumptions } from '../../assumptions.ts';
import { checkExchange } from '../../contract/check/check-exchange.ts';
import type { CheckGuide } from '../../contract/check/exchange.ts';
import { notHarReason, readHar } from '../../contract/check/har.ts';
import { kitMessage } from '../../internal/messages.ts';
import { type CheckedEntry, junitReport, summarize, textReport } from '../check-report.ts';
import { type CommandIo, parseCommandLine, parseFlags, UsageError } from '../command-line.ts';
import { readConfigFile } from '../config-file.ts';

/** Help text, with examples. */
export const help = `Usage: payment-contract-kit check <file.har>... [options]

Checks the exchanges recorded in HAR files against the payment service's contract and the kit's assumptions
ledger, as the proxy does live: requests against openapi.yaml and the guide's schema (the consumer's own
mistakes), answers against the published shapes (2.1 to 2.7, 7.1 to 7.3, the fields the query selected),
webhooks against spec 6, and the ledger (status of GraphQL errors, reason codes, card types, fees, status
names, expiration unit, revoke body, webhook header names). HAR files saved by Chrome's or Firefox's developer
tools and by "payment-contract-kit proxy --record" are read; entries to other paths are skipped and counted.

Options:
  --guide <current|legacy|both>   Guide GraphQL entries are checked against. Default both: each entry's guide is
                                  detected from the names its request uses (none: current).
  --origin <url>                  Check only entries sent to this origin (https://sandbox.example.com); the others
                                  are skipped and counted. Default: every entry to a path of the service.
  --config <file.json>            The mock's --config file (a team's ledger, or a proxy's suggestedConfig): its
                                  "assumptions" are what assumption drifts are judged against. Default: the kit's
                                  ledger (ASSUMPTIONS.md).
  --format <text|json|junit>      Report format on stdout. Default text: each entry with drifts, then a summary.
  -h, --help                      Show this help.

Exit status: 0 when every checked entry is clean, 1 when any drift was found, 2 for bad flags, a missing file
or a file that is not a HAR document.

Examples:
  payment-contract-kit check traffic.har
  payment-contract-kit check recorded/*.har --origin https://sandbox.pay.example --format junit > check.xml
  payment-contract-kit check devtools.har --guide legacy --format json
  payment-contract-kit check traffic.har --config mock.config.json
`;

function usage(message: string): never {
  throw new UsageError(kitMessage(`check: ${message} Run "payment-contract-kit check --help" for the options.`));
}

const guides: readonly CheckGuide[] = ['current', 'legacy', 'both'];
const formats = ['text', 'json', 'junit'] as const;
type Format = (typeof formats)[number];

/** A HAR file, parsed; a usage error when it cannot be read or is not a HAR document. */
function readHarFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return usage(
      code === 'ENOENT'
        ? `no such file: ${file}.`
        : `cannot read ${file} (${code ?? 'error'}); give the path of a .har file.`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return usage(
      `${file} is not JSON, so not a HAR file; save it again from the browser's developer tools ("Save all as HAR").`,
    );
  }
  const reason = notHarReason(value);
  if (reason) usage(`${file} is not a HAR file: ${reason}. Give a file saved as HAR 1.2.`);
  return value;
}

/** The ledger drifts are judged against: the `assumptions` of a mock `--config` file over the kit's, or the kit's. */
function ledgerOf(config: string | undefined) {
  if (config === undefined) return resolveAssumptions();
  try {
    return resolveAssumptions(readConfigFile(config).assumptions);
  } catch (error) {
    // The file reader's words name the key and the fix; here they get the command's prefix and help pointer.
    return usage((error as Error).message.replace(/^\[payment-contract-kit\]\s*/, ''));
  }
}

function parse(argv: readonly string[]) {
  const { values, positionals } = parseFlags(
    argv,
    {
      guide: { type: 'string' },
      origin: { type: 'string' },
      format: { type: 'string' },
      config: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    usage,
  );
  if (values.help) return { help: true as const };
  const guide = (values.guide as string | undefined) ?? 'both';
  if (!guides.includes(guide as CheckGuide)) usage(`--guide must be current, legacy or both, got "${guide}".`);
  const format = (values.format as string | undefined) ?? 'text';
  if (!formats.includes(format as Format)) usage(`--format must be text, json or junit, got "${format}".`);
  const origin = values.origin as string | undefined;
  if (origin !== undefined && !/^https?:\/\/[^/]+/.test(origin))
    usage(`--origin must be an http(s) origin such as https://sandbox.example.com, got "${origin}".`);
  if (positionals.length === 0) usage('give at least one HAR file, e.g. payment-contract-kit check traffic.har.');
  const assumptions = ledgerOf(values.config as string | undefined);
  const hars = positionals.map((file) => ({ file, value: readHarFile(file) }));
  return { help: false as const, hars, guide: guide as CheckGuide, format: format as Format, origin, assumptions };
}

/**
 * Runs `check` with the arguments after the command name; resolves with the exit code.
 *
 * @example
 * await run(['traffic.har', '--format', 'junit']);
 */
export async function run(
  argv: readonly string[],
  io: CommandIo = { stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  const flags = parseCommandLine(() => parse(argv), help, io);
  if (typeof flags === 'number') return flags;
  const results: CheckedEntry[] = [];
  let otherHosts = 0;
  let unreadable = 0;
  for (const { file, value } of flags.hars) {
    const reading = readHar(value, { origin: flags.origin });
    otherHosts += reading.otherHosts;
    unreadable += reading.unreadable.length;
    for (const { index, number, exchange } of reading.exchanges)
      results.push({
        file,
        entry: index,
        number,
        kind: exchange.kind ?? 'http',
        method: exchange.request.method,
        url: exchange.request.url,
        status: exchange.response?.status,
        ...checkExchange(exchange, { guide: flags.guide, assumptions: flags.assumptions }),
      });
  }
  const summary = summarize(results, { otherHosts, unreadable, files: flags.hars.length });
  if (flags.format === 'json') io.stdout.write(`${JSON.stringify({ summary, results }, null, 2)}\n`);
  else if (flags.format === 'junit') io.stdout.write(junitReport(results));
  else io.stdout.write(textReport(results, summary));
  return summary.ok ? 0 : 1;
}

export type { CommandIo } from '../command-line.ts';
