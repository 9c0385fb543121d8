/**
 * `payment-contract-kit mock`: maps flags (and their `PCK_*` environment equivalents) to the options of
 * `startMockServer`, starts it, prints one line with the base URL, and stops cleanly on SIGINT / SIGTERM.
 * Nothing else lives here: behaviour belongs to the mock, so the CLI and the programmatic API cannot drift.
 *
 * @module
 */

import type { AssumptionOverrides } from '../../assumptions.ts';
import { kitMessage, kitPrefix } from '../../internal/messages.ts';
import { text, yesNo } from '../../internal/option-table.ts';
import {
  defaultMockOptions,
  type MockClientConfig,
  type MockOptions,
  mockAssumptionFlags,
  mockOptionTable,
} from '../../mock/options.ts';
import { type CommandIo, type CommandProcess, parseCommandLine, stopSignal } from '../command-line.ts';
import { inConfigFile, readConfigFile } from '../config-file.ts';
import { limitHeapGrowth } from '../heap-growth.ts';
import { type CommandFlag, flagOfRow, flagsOfTable, helpRows, parseFlags } from '../option-flags.ts';

/** The flags of the command alone: the config file, the one client they build, and help. */
const commandFlags: readonly CommandFlag[] = [
  flagOfRow('config', {
    kind: text('file.json'),
    flag: {
      name: 'config',
      help: 'JSON file of mock options (docs/options.md): "clients", "assumptions", "guide", ...; flags and variables win over it, value by value. Its clients are added to --client-id\'s.',
    },
  }),
  flagOfRow('client-id', {
    kind: text('id', { nonEmpty: true }),
    default: defaultMockOptions.clients[0].clientId,
    flag: { name: 'client-id', help: 'Accepted x-client-id.' },
  }),
  flagOfRow('api-key', {
    kind: text('key', { nonEmpty: true }),
    default: defaultMockOptions.clients[0].apiKey,
    flag: { name: 'api-key', help: 'Accepted x-api-key for --client-id.' },
  }),
];

const helpFlag = flagOfRow('help', {
  kind: yesNo,
  flag: { name: 'help', env: false, sets: true, help: 'Show this help.' },
});

/** Every flag, in help order: the command's own, the option table's, the assumption flags, help. */
export const mockFlags: readonly CommandFlag[] = [
  ...commandFlags,
  ...flagsOfTable(mockOptionTable, inConfigFile),
  ...mockAssumptionFlags.map(({ group, key, row }) => {
    const target = `assumptions.${group}.${key}`;
    return flagOfRow(target, row, { configKey: target });
  }),
  helpFlag,
];

/** The `--help` text of the mock command. */
export function mockHelp(): string {
  return `Usage: payment-contract-kit mock [options]

Starts the stateful mock of the payment service (REST token endpoints, GraphQL at /graphql, payment status
webhooks, control API under /__pck/) and prints one line with its base URL. Ctrl-C or SIGTERM stops it.

Options:
${helpRows(mockFlags)}

Flags win over environment variables, which win over a --config file, which wins over the defaults.

Examples:
  payment-contract-kit mock
  payment-contract-kit mock --port 0 --quiet
  payment-contract-kit mock --log json 2> requests.jsonl
  payment-contract-kit mock --guide both --webhook-url http://127.0.0.1:3000/webhooks
  payment-contract-kit mock --client-id acme --api-key s3cret --token-ttl 60 --strict-generate
  payment-contract-kit mock --config mock.config.json --latency 200-1500 --settle-delay 0
  payment-contract-kit mock --max-body-bytes 4194304 --max-query-depth 64 --max-aliases 200
  PCK_PORT=4020 PCK_GUIDE=legacy payment-contract-kit mock

  curl -s -X POST http://127.0.0.1:4010/api/v2/accounting/token/generate-token \\
    -H 'x-client-id: test-client' -H 'x-api-key: test-api-key'
`;
}

/** The result of parsing: either help was asked for, or the options to start the mock with. */
export type ParsedMockArgs = { readonly help: true } | { readonly help: false; readonly options: MockOptions };

/**
 * Maps the command line and environment to mock options. Throws {@link UsageError} naming the flag on bad input.
 *
 * @example
 * parseMockArgs(['--port', '0', '--guide', 'both'], {}) // { help: false, options: { port: 0, guide: 'both', ... } }
 */
export function parseMockArgs(argv: readonly string[], env: NodeJS.ProcessEnv): ParsedMockArgs {
  const parsed = parseFlags('mock', mockFlags, argv, env);
  if (parsed.help) return { help: true };
  const configPath = parsed.values.get('config') as string | undefined;
  const fromFile = configPath === undefined ? {} : readConfigFile(configPath);
  // The file first, so flags and variables win over it, value by value.
  const options: Record<string, unknown> = { ...fromFile };
  for (const [target, value] of parsed.values) if (target in mockOptionTable) options[target] = value;
  const cliClient: MockClientConfig = {
    clientId: (parsed.values.get('client-id') as string | undefined) ?? defaultMockOptions.clients[0].clientId,
    apiKey: (parsed.values.get('api-key') as string | undefined) ?? defaultMockOptions.clients[0].apiKey,
  };
  const fileClients = fromFile.clients ?? [];
  // A client in the file carries more (webhooks, signing key) than the flags, so it wins over the same id.
  options.clients = [
    ...(fileClients.some((c) => c.clientId === cliClient.clientId) ? [] : [cliClient]),
    ...fileClients,
  ];
  const assumptions = withAssumptionFlags(fromFile.assumptions, parsed.values);
  if (assumptions !== undefined) options.assumptions = assumptions;
  return { help: false, options: options as MockOptions };
}

/** The file's assumptions with the assumption flags set over them, value by value; `undefined` when neither is. */
function withAssumptionFlags(
  fromFile: AssumptionOverrides | undefined,
  values: ReadonlyMap<string, unknown>,
): AssumptionOverrides | undefined {
  const groups: Record<string, Record<string, unknown>> = {};
  for (const { group, key } of mockAssumptionFlags) {
    const value = values.get(`assumptions.${group}.${key}`);
    if (value !== undefined) groups[group] = { ...groups[group], [key]: value };
  }
  if (fromFile === undefined && Object.keys(groups).length === 0) return undefined;
  const base = (fromFile ?? {}) as Record<string, Record<string, unknown> | undefined>;
  return {
    ...fromFile,
    ...Object.fromEntries(Object.entries(groups).map(([group, set]) => [group, { ...base[group], ...set }])),
  };
}

/** Why the listener could not be opened, by its system error code: the fix differs for each. */
const listenFailures: Readonly<Record<string, (where: string) => string>> = {
  EADDRINUSE: (where) =>
    `${where} is already in use: stop what listens there, or pick another port (--port, 0 picks a free one).`,
  EACCES: (where) => `${where} needs privileges this process lacks: pick a port above 1023 (--port).`,
  EADDRNOTAVAIL: (where) => `${where} is not an address of this machine: pick another --host, such as 127.0.0.1.`,
  ENOTFOUND: (where) => `${where} cannot be opened: the host name does not resolve; pick another --host.`,
};

/**
 * One line for a mock that did not start. Listen errors are worded here from their code, whatever the server's own
 * message says; anything else (an invalid option from --config, say) keeps its first line, with the kit's prefix.
 */
export function startFailure(error: unknown, options: MockOptions): string {
  const code =
    (error as NodeJS.ErrnoException | undefined)?.code ?? (error as { cause?: NodeJS.ErrnoException })?.cause?.code;
  const host = options.host ?? defaultMockOptions.host;
  const port = options.port ?? defaultMockOptions.port;
  const listen = code === undefined ? undefined : listenFailures[code];
  if (listen) return kitMessage(`mock: ${listen(`port ${port} on ${host}`)}`);
  const first = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
  return first.startsWith(kitPrefix) ? first : kitMessage(`mock: ${first}`);
}

/** What the caller of {@link run} may add (code-cache.ts, tests). Each part left out keeps the process's own. */
export interface MockRunHooks {
  /** Called once after a mock that served stopped cleanly (not after --help or a failed start). */
  readonly afterCleanStop?: () => void;
  /** Where the URL line, the messages and the request log go. Default standard output and standard error. */
  readonly io?: CommandIo;
  /** The `PCK_*` variables, the stop signals and the forced exit. Default `process`. */
  readonly process?: CommandProcess;
}

/**
 * Runs the mock command. Resolves with 0 after a clean stop (SIGINT / SIGTERM), 2 on a usage mistake, 1 when the
 * mock cannot start (port in use, ...).
 *
 * @example
 * await run(['--port', '0', '--quiet']); // prints "payment-contract-kit mock listening on http://127.0.0.1:<port>"
 */
export async function run(argv: readonly string[], hooks: MockRunHooks = {}): Promise<number | undefined> {
  const io = hooks.io ?? { stdout: process.stdout, stderr: process.stderr };
  const host: CommandProcess = hooks.process ?? process;
  const parsed = parseCommandLine(() => parseMockArgs(argv, host.env), mockHelp, io);
  if (typeof parsed === 'number') return parsed;
  // A sandbox runs for days with bounded histories: keep RSS near its live data (heap-growth.ts).
  limitHeapGrowth();
  const { startMockServer } = await import('../../mock/server.ts');
  let mock: Awaited<ReturnType<typeof startMockServer>>;
  try {
    mock = await startMockServer({ log: (chunk) => io.stderr.write(chunk), ...parsed.options });
  } catch (error) {
    io.stderr.write(`${startFailure(error, parsed.options)}\n`);
    return error instanceof TypeError ? 2 : 1;
  }
  io.stdout.write(`payment-contract-kit mock listening on ${mock.url}\n`);
  // Load the GraphQL engine while the client is still busy with its first token call, so the first /graphql
  // answer waits less; the query compiler loads after that answer (engine.ts). A failure here is reported by that
  // first /graphql request, not here.
  setImmediate(() => mock.control.warmUp({ scope: 'first-request' }).catch(() => {}));
  await stopSignal(host);
  try {
    await mock.close();
  } catch (error) {
    io.stderr.write(kitMessage(`error while stopping the mock: ${String(error)}\n`));
    return 1;
  }
  // Everything is closed; should a stray handle keep the loop alive, exit anyway rather than hang.
  setTimeout(() => host.exit(0), 1000).unref();
  hooks.afterCleanStop?.();
  return 0;
}
