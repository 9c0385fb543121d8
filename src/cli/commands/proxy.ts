/**
 * `payment-contract-kit proxy`: maps flags (and their `PCK_*` environment equivalents) to the options of
 * `startProxy`, starts it, prints one line with the base URL, and on SIGINT / SIGTERM writes the report and the
 * recording, prints the summary and exits (1 with `--fail-on-drift` when a contract drift was seen).
 * Behaviour belongs to `src/proxy`, so the CLI and the programmatic API cannot drift.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { kitMessage } from '../../internal/messages.ts';
import { text, yesNo } from '../../internal/option-table.ts';
import { defaultProxyOptions, proxyOptionTable } from '../../proxy/options.ts';
import type { StartProxyOptions } from '../../proxy/server.ts';
import { type CommandIo, type CommandProcess, parseCommandLine, stopSignal } from '../command-line.ts';
import { readConfigFile } from '../config-file.ts';
import { UsageError } from '../flag-values.ts';
import { type CommandFlag, flagOfRow, flagsOfTable, helpRows, parseFlags } from '../option-flags.ts';

/** The flags of the command alone: the ledger file, the files written at stop, the CI switch, help. */
const commandFlags: readonly CommandFlag[] = [
  flagOfRow('config', {
    kind: text('file.json'),
    flag: {
      name: 'config',
      help: 'A mock --config file whose "assumptions" are the ledger to compare with (a suggestedConfig, say).',
    },
  }),
  flagOfRow('reportFile', {
    kind: text('file.json'),
    flag: {
      name: 'report',
      help: 'Write the drift report here when the proxy stops. Live at GET /__pck/drift either way.',
    },
  }),
  flagOfRow('recordFile', {
    kind: text('file.har'),
    flag: {
      name: 'record',
      help: 'Write a HAR 1.2 file of every exchange (webhooks included, secrets redacted) when the proxy stops.',
    },
  }),
  flagOfRow('failOnDrift', {
    kind: yesNo,
    flag: { name: 'fail-on-drift', sets: true, help: 'Exit 1 at stop when a contract drift was seen (for CI).' },
  }),
];

/** Every flag, in help order: the option table's, then the command's own, then help. */
export const proxyFlags: readonly CommandFlag[] = [
  ...flagsOfTable(proxyOptionTable, () => false),
  ...commandFlags,
  flagOfRow('help', { kind: yesNo, flag: { name: 'help', env: false, sets: true, help: 'Show this help.' } }),
];

/** The `--help` text of the proxy command. */
export function proxyHelp(): string {
  return `Usage: payment-contract-kit proxy --upstream <url> [options]

A validating reverse proxy in front of the real service: forwards every request and answer unchanged and checks
each exchange (and each webhook the service posts to <proxy><webhook-path>) against the contract and the
assumptions ledger. Prints one line with its base URL; Ctrl-C or SIGTERM stops it and writes --report / --record.

Options:
${helpRows(proxyFlags)}

Flags win over environment variables, which win over the defaults.

Examples:
  payment-contract-kit proxy --upstream https://sandbox.example.com --port 4020 --report drift.json
  payment-contract-kit proxy --upstream http://127.0.0.1:4010 --record traffic.har --fail-on-drift
  payment-contract-kit proxy --upstream https://sandbox.example.com --forward-webhooks http://127.0.0.1:3000/webhooks
  curl -s http://127.0.0.1:4020/__pck/drift
`;
}

/** What the command runs with: the proxy's options and the command's own switches. */
export interface ProxyCommandOptions {
  readonly proxy: StartProxyOptions;
  readonly failOnDrift: boolean;
}

/** The result of parsing: help was asked for, or the options. */
export type ParsedProxyArgs = { readonly help: true } | ({ readonly help: false } & ProxyCommandOptions);

/**
 * Maps the command line and environment to proxy options. Throws {@link UsageError} naming the flag on bad input.
 *
 * @example
 * parseProxyArgs(['--upstream', 'http://127.0.0.1:4010'], {}).proxy.upstream // 'http://127.0.0.1:4010'
 */
export function parseProxyArgs(argv: readonly string[], env: NodeJS.ProcessEnv): ParsedProxyArgs {
  const parsed = parseFlags('proxy', proxyFlags, argv, env);
  if (parsed.help) return { help: true };
  const { values } = parsed;
  if (!values.has('upstream'))
    throw new UsageError(
      '--upstream is required: the base URL of the service, e.g. --upstream https://sandbox.example.com.',
    );
  const options: Record<string, unknown> = {};
  for (const [target, value] of values)
    if (target in proxyOptionTable || target === 'reportFile' || target === 'recordFile') options[target] = value;
  const config = values.get('config') as string | undefined;
  // The ledger of a mock config file: its assumptions, checked as the mock checks them.
  if (config !== undefined) options.assumptions = readConfigFile(config).assumptions ?? {};
  return {
    help: false,
    proxy: options as unknown as StartProxyOptions,
    failOnDrift: values.get('failOnDrift') === true,
  };
}

/** The kit's version: package.json sits two levels up from both src/cli/commands and dist/cli. */
function kitVersion(): string {
  for (const rel of ['../../package.json', '../../../package.json'])
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'payment-contract-kit' && pkg.version) return pkg.version;
    } catch {}
  return 'unknown';
}

/**
 * Runs the proxy command. Resolves after a stop (SIGINT / SIGTERM) with 0, or 1 when `--fail-on-drift` saw a
 * contract drift; 2 on a usage mistake; 1 when the proxy cannot start. `io` takes the URL line, the messages and the
 * exchange log; `host` gives the `PCK_*` variables, the stop signals and the forced exit (both default to the
 * process's own, and tests pass theirs to run the command in process).
 *
 * @example
 * await run(['--upstream', 'http://127.0.0.1:4010', '--report', 'drift.json']);
 */
export async function run(
  argv: readonly string[],
  io: CommandIo = { stdout: process.stdout, stderr: process.stderr },
  host: CommandProcess = process,
): Promise<number | undefined> {
  const parsed = parseCommandLine(() => parseProxyArgs(argv, host.env), proxyHelp, io);
  if (typeof parsed === 'number') return parsed;
  const { startProxy } = await import('../../proxy/server.ts');
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  try {
    proxy = await startProxy({
      log: (line) => io.stderr.write(`${line}\n`),
      ...parsed.proxy,
      creatorVersion: kitVersion(),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const where = `port ${parsed.proxy.port ?? 0} on ${parsed.proxy.host ?? defaultProxyOptions.host}`;
    const text =
      code === 'EADDRINUSE'
        ? `proxy: ${where} is already in use: pick another port (--port, 0 picks a free one).`
        : `proxy: ${(error instanceof Error ? error.message : String(error)).replace(/^\[payment-contract-kit\] /, '')}`;
    io.stderr.write(`${kitMessage(text)}\n`);
    return error instanceof TypeError ? 2 : 1;
  }
  io.stdout.write(`payment-contract-kit proxy listening on ${proxy.url}\n`);
  await stopSignal(host);
  try {
    await proxy.close();
  } catch (error) {
    io.stderr.write(`${kitMessage(`proxy: could not write the report or recording: ${String(error)}`)}\n`);
    return 1;
  }
  // Everything is closed; should a stray handle keep the loop alive, exit anyway (no code: the one main.ts has set).
  setTimeout(() => host.exit(), 1000).unref();
  return parsed.failOnDrift && proxy.hasContractDrift() ? 1 : 0;
}
