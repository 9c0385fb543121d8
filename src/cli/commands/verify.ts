/**
 * `payment-contract-kit verify <pact files or folders>`: checks consumers' pacts against the service as the kit
 * documents it. Static: every interaction against schema.graphql (its guide) and openapi.yaml. Dynamic: every
 * interaction replayed against an in-process mock through the Pact Verifier, by the runner behind the dynamic seam.
 * The handler maps flags to those two; one line per interaction and mode, or JSON, or JUnit XML.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { defaultAssumptions } from '../../assumptions.ts';
import { kitMessage } from '../../internal/messages.ts';
import { oneOf, text, yesNo } from '../../internal/option-table.ts';
import {
  type DynamicInteractionResult,
  type DynamicVerifier,
  dynamicUnavailableReason,
  loadDynamicVerifier,
  pactPackageInstalled,
} from '../../pact/verify/dynamic-seam.ts';
import type { GuideOption } from '../../pact/verify/guide-choice.ts';
import { guideCounts, guideWarnings } from '../../pact/verify/guide-summary.ts';
import { loadOpenApi, type OpenApiDocument } from '../../pact/verify/openapi-document.ts';
import { pactCoverage } from '../../pact/verify/pact-coverage.ts';
import { findPactFiles, readPactFiles } from '../../pact/verify/pact-files.ts';
import type { PactDocument } from '../../pact/verify/pact-model.ts';
import { junitReport } from '../../pact/verify/report-junit.ts';
import { summaryLine, textLine } from '../../pact/verify/report-text.ts';
import { verifyStatic } from '../../pact/verify/static-verify.ts';
import { allPassed, type InteractionResult } from '../../pact/verify/verify-result.ts';
import { type CommandIo, parseCommandLine, UsageError } from '../command-line.ts';
import { type CommandFlag, flagOfRow, helpRows, parseFlags } from '../option-flags.ts';

const formats = ['text', 'json', 'junit'] as const;
type Format = (typeof formats)[number];

/** Every flag of the command, once: the parser, `--help` and docs/options.md are produced from this table. */
export const verifyFlags: readonly CommandFlag[] = [
  flagOfRow('guide', {
    kind: oneOf<GuideOption>(['current', 'legacy', 'both']),
    default: 'both',
    flag: {
      name: 'guide',
      env: false,
      help: 'Guide GraphQL interactions are checked against; "both" picks it per pact or interaction (below).',
    },
  }),
  flagOfRow('format', {
    kind: oneOf<Format>(formats),
    default: 'text',
    flag: {
      name: 'format',
      env: false,
      help: 'Report on stdout: one line per interaction and mode, one JSON document, or JUnit XML.',
    },
  }),
  flagOfRow('static-only', {
    kind: yesNo,
    flag: { name: 'static-only', env: false, sets: true, help: 'Only the static checks.' },
  }),
  flagOfRow('dynamic-only', {
    kind: yesNo,
    flag: { name: 'dynamic-only', env: false, sets: true, help: 'Only the dynamic verification.' },
  }),
  flagOfRow('coverage', {
    kind: text('file', { nonEmpty: true }),
    flag: {
      name: 'coverage',
      env: false,
      help: "Also write which of the service's behaviours the interactions exercise (a coverage report, JSON) to this file.",
    },
  }),
  flagOfRow('help', {
    kind: yesNo,
    flag: { name: 'help', short: 'h', env: false, sets: true, help: 'Show this help.' },
  }),
];

/** Help text, with examples. */
export const help = `Usage: payment-contract-kit verify <pact files or folders> [options]

Checks consumer pacts (Pact specification V2, V3 or V4, from any language's Pact library) against the payment
service as the kit documents it, in two ways:
  static   each GraphQL interaction against its guide's schema (query, variables, expected data or 7.2/7.3
           error), each REST interaction against openapi.yaml (path, method, headers, status, body), each
           message against the payment status webhook (contents, metadata);
  dynamic  each interaction replayed against an in-process mock through the Pact Verifier, with its provider
           states (needs @pact-foundation/pact).
Folders are searched for *.json files.

Options:
${helpRows(verifyFlags)}

With --guide both, a pact whose consumer or provider name holds "legacy" or "current" is checked against that
guide, any other interaction against the guide its names agree with; a pact that names no guide and uses the
legacy guide's names gets a warning on standard error. The summary counts the interactions per guide.

Exit status: 0 when every interaction passes every way that ran (pending ones aside), 1 otherwise (including
when dynamic verification cannot run), 2 for bad flags or paths that do not exist.

Examples:
  payment-contract-kit verify ./pacts --static-only
  payment-contract-kit verify pacts/web-payment-service.json --guide current --format junit > verify.xml
  payment-contract-kit verify ./pacts --format json
`;

/** What the command reaches outside itself; tests replace them. */
export interface VerifyDependencies {
  /** The dynamic runner; resolves with undefined when this build has none. */
  readonly loadDynamic: () => Promise<DynamicVerifier | undefined>;
  /** Whether the Pact Verifier's package can be loaded. */
  readonly pactInstalled: () => boolean;
  /** openapi.yaml, read. */
  readonly openapi: () => OpenApiDocument;
  /** Why dynamic verification cannot run here (the single executable), or undefined; absent means it may. */
  readonly dynamicUnavailable?: () => string | undefined;
}

const defaultDependencies: VerifyDependencies = {
  // The child script sits in dist/cli/, next to the chunk this module is bundled into.
  loadDynamic: () => loadDynamicVerifier(new URL('./verify-dynamic-child.js', import.meta.url)),
  pactInstalled: pactPackageInstalled,
  openapi: () => loadOpenApi(),
  dynamicUnavailable: dynamicUnavailableReason,
};

function usage(message: string): never {
  throw new UsageError(kitMessage(`verify: ${message} Run "payment-contract-kit verify --help" for the options.`));
}

function parse(argv: readonly string[]) {
  const {
    help: wantsHelp,
    values,
    positionals,
  } = parseFlags(
    'verify',
    verifyFlags,
    argv,
    {},
    {
      positionals: true,
      prefix: 'verify: ',
    },
  );
  if (wantsHelp) return { help: true as const };
  const guide = (values.get('guide') as GuideOption | undefined) ?? 'both';
  const format = (values.get('format') as Format | undefined) ?? 'text';
  if (values.has('static-only') && values.has('dynamic-only'))
    usage('--static-only and --dynamic-only exclude each other; leave both out to verify both ways.');
  if (positionals.length === 0)
    usage('give at least one pact file or folder, e.g. payment-contract-kit verify ./pacts.');
  const found = findPactFiles(positionals);
  if (found.missing.length > 0) usage(`no such file or folder: ${found.missing.join(', ')}.`);
  if (found.files.length === 0) usage(`no *.json pact files in ${positionals.join(', ')}.`);
  return {
    help: false as const,
    files: found.files,
    guide,
    format,
    runStatic: !values.has('dynamic-only'),
    runDynamic: !values.has('static-only'),
    coverage: values.get('coverage') as string | undefined,
  };
}

/** Turns the runner's answers into results, one per interaction of the pacts, in pact order. */
function dynamicResults(
  pacts: readonly PactDocument[],
  staticKinds: ReadonlyMap<string, Pick<InteractionResult, 'kind' | 'guide'>>,
  answers: readonly DynamicInteractionResult[],
): InteractionResult[] {
  const queue = new Map<string, DynamicInteractionResult[]>();
  for (const answer of answers) {
    const key = `${answer.file}\u0000${answer.interaction}`;
    queue.set(key, [...(queue.get(key) ?? []), answer]);
  }
  return pacts.flatMap((pact) =>
    pact.interactions.map((interaction) => {
      const key = `${pact.file}\u0000${interaction.description}`;
      const answer = queue.get(key)?.shift();
      return {
        file: pact.file,
        consumer: pact.consumer,
        provider: pact.provider,
        interaction: interaction.description,
        mode: 'dynamic' as const,
        kind: staticKinds.get(key)?.kind ?? (interaction.kind === 'message' ? 'message' : 'other'),
        // The mock serves the guide the request's names speak (--guide both) or the one given: the static check's.
        guide: staticKinds.get(key)?.guide,
        ok: answer?.ok ?? false,
        pending: interaction.pending,
        reasons: answer ? answer.reasons : ['the dynamic runner reported nothing for this interaction'],
      };
    }),
  );
}

/** Runs the dynamic half; answers its results, or a note saying why it did not run. */
async function runDynamic(
  pacts: readonly PactDocument[],
  guide: GuideOption,
  staticKinds: ReadonlyMap<string, Pick<InteractionResult, 'kind' | 'guide'>>,
  deps: VerifyDependencies,
): Promise<{ results: InteractionResult[]; note: string | undefined; problem: string | undefined }> {
  const unavailable = deps.dynamicUnavailable?.();
  if (unavailable !== undefined) return { results: [], note: 'not available', problem: unavailable };
  if (!deps.pactInstalled())
    return {
      results: [],
      note: 'not run',
      problem: kitMessage(
        'verify: dynamic verification needs @pact-foundation/pact, an optional peer that is not installed: run "npm install --save-dev @pact-foundation/pact", or pass --static-only.',
      ),
    };
  const dynamic = await deps.loadDynamic();
  if (!dynamic)
    return {
      results: [],
      note: 'not available',
      problem: kitMessage(
        'verify: dynamic verification not available in this build of the kit; pass --static-only to check the pacts against the schemas alone.',
      ),
    };
  if (pacts.length === 0) return { results: [], note: undefined, problem: undefined };
  try {
    const answers = await dynamic({ pactFiles: pacts.map((p) => p.file), guide });
    return { results: dynamicResults(pacts, staticKinds, answers), note: undefined, problem: undefined };
  } catch (error) {
    return {
      results: [],
      note: 'failed to run',
      problem: kitMessage(
        `verify: dynamic verification failed to run: ${(error as Error).message.replace(/\s+/g, ' ')}`,
      ),
    };
  }
}

/** Static and dynamic results of the same interaction next to each other, in pact order. */
function ordered(results: readonly InteractionResult[]): InteractionResult[] {
  const rank = new Map<string, number>();
  for (const r of results) {
    const key = `${r.file}\u0000${r.interaction}`;
    if (!rank.has(key)) rank.set(key, rank.size);
  }
  return [...results].sort(
    (a, b) =>
      rank.get(`${a.file}\u0000${a.interaction}`)! - rank.get(`${b.file}\u0000${b.interaction}`)! ||
      (a.mode === b.mode ? 0 : a.mode === 'static' ? -1 : 1),
  );
}

/** Writes the pacts' coverage report to `file` and says so on standard error; false when it cannot be written. */
function writePactCoverage(
  file: string,
  pacts: readonly PactDocument[],
  staticKinds: ReadonlyMap<string, Pick<InteractionResult, 'guide'>>,
  io: CommandIo,
): boolean {
  const report = pactCoverage(pacts, (f, d) => staticKinds.get(`${f}\u0000${d}`)?.guide, defaultAssumptions);
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  } catch (error) {
    io.stderr.write(`${kitMessage(`verify: cannot write the coverage report to ${file} (${String(error)}).`)}\n`);
    return false;
  }
  io.stderr.write(
    `${kitMessage(`verify: the interactions exercise ${report.covered} of ${report.total} behaviours of the service; report in ${file} (read it with payment-contract-kit coverage ${file}).`)}\n`,
  );
  return true;
}

/**
 * Runs `verify` with the arguments after the command name; resolves with the exit code.
 *
 * @example
 * await run(['./pacts', '--static-only', '--format', 'junit']);
 */
export async function run(
  argv: readonly string[],
  io: CommandIo = { stdout: process.stdout, stderr: process.stderr },
  deps: VerifyDependencies = defaultDependencies,
): Promise<number> {
  const flags = parseCommandLine(() => parse(argv), help, io);
  if (typeof flags === 'number') return flags;
  const { pacts, failures } = readPactFiles(flags.files);
  const staticResults = verifyStatic(pacts, { guide: flags.guide, openapi: deps.openapi() });
  const staticKinds = new Map(
    staticResults.map((r) => [`${r.file}\u0000${r.interaction}`, { kind: r.kind, guide: r.guide }] as const),
  );
  const dynamic = flags.runDynamic
    ? await runDynamic(pacts, flags.guide, staticKinds, deps)
    : { results: [], note: 'not run (--static-only)', problem: undefined };
  const results = ordered([...failures, ...(flags.runStatic ? staticResults : []), ...dynamic.results]);
  const ok = allPassed(results) && dynamic.problem === undefined;
  const interactions = pacts.reduce((n, p) => n + p.interactions.length, 0);
  const guides = guideCounts(staticResults);
  const warnings = guideWarnings(staticResults, flags.guide);

  if (flags.format === 'json') {
    const summary = { ok, interactions, dynamic: dynamic.note ?? 'ran', problem: dynamic.problem, guides, warnings };
    io.stdout.write(`${JSON.stringify({ summary, results }, null, 2)}\n`);
  } else if (flags.format === 'junit') {
    io.stdout.write(junitReport(results));
  } else {
    for (const result of results) io.stdout.write(`${textLine(result)}\n`);
    io.stdout.write(`${summaryLine(results, interactions, dynamic.note, guides)}\n`);
  }
  for (const warning of warnings) io.stderr.write(`${warning}\n`);
  if (dynamic.problem) io.stderr.write(`${dynamic.problem}\n`);
  if (flags.coverage !== undefined && !writePactCoverage(flags.coverage, pacts, staticKinds, io)) return 2;
  return ok ? 0 : 1;
}

export type { CommandIo } from '../command-line.ts';
