/**
 * `payment-contract-kit coverage merge <a.json> <b.json>…`: several coverage reports (one per process, per test
 * file, per replica) as one, counts added by behaviour, written to stdout or `--output`.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type CommandIo, parseCommandLine, parseFlags } from '../command-line.ts';
import { coverageUsage, mergedSources } from '../coverage-sources.ts';

/** Help text, with examples. */
export const help = `Usage: payment-contract-kit coverage merge <a.json|url> <b.json|url>... [--output <file>]

Merges coverage reports (files the mock wrote with --coverage-file or the vitest helper, or running mocks'
URLs) into one: each behaviour's counts added. Ten processes each covering a part merge to what one process
doing all of it reports.

Options:
  --output <file>              Write the merged report here (folders created) instead of stdout.
  --control-token <secret>     The mock's control token, for a URL (default: PCK_CONTROL_TOKEN).
  -h, --help                   Show this help.

Exit status: 0 when merged, 2 for bad flags or a source that cannot be read or is not a coverage report.

Examples:
  payment-contract-kit coverage merge pck-coverage/*.json --output coverage.json
  payment-contract-kit coverage merge worker-1.json worker-2.json | payment-contract-kit coverage /dev/stdin
`;

const usage = (message: string): never => coverageUsage('coverage merge', message);

function parse(argv: readonly string[], env: NodeJS.ProcessEnv) {
  const { values, positionals } = parseFlags(
    argv,
    {
      output: { type: 'string' },
      'control-token': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    usage,
  );
  if (values.help) return { help: true as const };
  if (positionals.length === 0) usage('give the reports to merge, e.g. coverage merge a.json b.json.');
  return {
    help: false as const,
    sources: positionals,
    output: values.output as string | undefined,
    controlToken: (values['control-token'] as string | undefined) ?? env.PCK_CONTROL_TOKEN,
  };
}

/**
 * Runs `coverage merge` with the arguments after the command name; resolves with the exit code.
 *
 * @example
 * await run(['a.json', 'b.json', '--output', 'coverage.json']);
 */
export async function run(
  argv: readonly string[],
  io: CommandIo = { stdout: process.stdout, stderr: process.stderr },
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const merged = parseCommandLine(() => parse(argv, env), help, io);
  if (typeof merged === 'number') return merged;
  const report = await mergedSources('coverage merge', merged.sources, merged.controlToken, io);
  if (typeof report === 'number') return report;
  const json = `${JSON.stringify(report, null, 2)}\n`;
  if (merged.output === undefined) io.stdout.write(json);
  else
    try {
      mkdirSync(dirname(merged.output), { recursive: true });
      writeFileSync(merged.output, json);
    } catch (error) {
      io.stderr.write(`[payment-contract-kit] coverage merge: cannot write ${merged.output} (${String(error)}).\n`);
      return 2;
    }
  return 0;
}

export type { CommandIo } from '../command-line.ts';
