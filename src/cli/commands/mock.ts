/**
 * `payment-contract-kit mock`: maps flags (and their `PCK_*` environment equivalents) to the options of
 * `startMockServer`, starts it, prints one line with the base URL, and stops cleanly on SIGINT / SIGTERM.
 * Nothing else lives here: behaviour belongs to the mock, so the CLI and the programmatic API cannot drift.
 *
 * @module
 */

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { AssumptionOverrides, Assumptions, CardTypePattern } from '../../assumptions.ts';
import { defaultAssumptions } from '../../assumptions.ts';
import { parseHttpUrl } from '../../internal/http-url.ts';
import { clause, kitMessage, kitPrefix } from '../../internal/messages.ts';
import {
  defaultMockOptions,
  type MockClientConfig,
  type MockGuide,
  type MockOptions,
  parseAllowedHosts,
  parseCorsOrigins,
  parseStoreUrl,
} from '../../mock/options.ts';
import { parseCommandLine } from '../command-line.ts';
import { booleanEnv, integer, UsageError } from '../flag-values.ts';

/** A flag of the mock command, its environment variable and its help text. */
interface FlagSpec {
  readonly name: string;
  readonly type: 'string' | 'boolean';
  readonly env: string;
  readonly value?: string;
  readonly multiple?: boolean;
  readonly help: string;
}

/** A limit flag: where its value goes in the assumptions (ASSUMPTIONS.md, "Limits"). */
interface LimitFlag {
  readonly name: string;
  readonly env: string;
  readonly group: 'limits' | 'bounds' | 'history';
  readonly key: string;
  readonly help: string;
  readonly default: () => number;
}

function limitFlag<G extends LimitFlag['group']>(
  name: string,
  group: G,
  key: keyof Assumptions[G] & string,
  help: string,
): LimitFlag {
  const env = `PCK_${name.toUpperCase().replaceAll('-', '_')}`;
  return { name, env, group, key, help, default: () => defaultAssumptions[group][key] as number };
}

/** The limit flags; each sets one value of `assumptions.limits` or `assumptions.bounds`. */
const limitFlags: readonly LimitFlag[] = [
  limitFlag('max-body-bytes', 'limits', 'maxBodyBytes', 'Largest request body in bytes (413 above).'),
  limitFlag('max-tokens', 'limits', 'maxTokens', 'Most tokens in a GraphQL document.'),
  limitFlag('max-query-depth', 'limits', 'maxDepth', 'Deepest field nesting of a GraphQL operation.'),
  limitFlag('max-aliases', 'limits', 'maxAliases', 'Most aliases in a GraphQL operation.'),
  limitFlag('max-directives', 'limits', 'maxDirectives', 'Most directives in a GraphQL operation.'),
  limitFlag('max-cost', 'limits', 'maxCost', 'Highest estimated cost of a GraphQL operation.'),
  limitFlag('max-text-length', 'bounds', 'maxTextLength', 'Longest string in a text input field.'),
  limitFlag('max-metadata-bytes', 'bounds', 'maxMetadataBytes', 'Largest payment metadata, in bytes of JSON.'),
  limitFlag('max-metadata-depth', 'bounds', 'maxMetadataDepth', 'Deepest nesting of payment metadata.'),
  limitFlag('max-payments', 'history', 'maxPaymentsPerClient', 'Payments kept per client (oldest settled evicted).'),
  limitFlag('max-deliveries', 'history', 'maxDeliveries', 'Finished webhook deliveries kept (oldest evicted).'),
  limitFlag(
    'max-pending-deliveries',
    'history',
    'maxPendingDeliveries',
    'Pending webhook deliveries; past it new ones are refused (failed, pending-cap) and logged.',
  ),
  limitFlag('max-attempts-kept', 'history', 'maxAttemptsPerDelivery', 'Attempts kept per webhook delivery (latest).'),
];

/** The browser flags (README "In the browser"; defaults in ASSUMPTIONS.md). */
const browserFlags: readonly FlagSpec[] = [
  {
    name: 'cors',
    type: 'string',
    env: 'PCK_CORS',
    value: 'origins|*|off',
    help: 'Origins allowed to call the token endpoints and /graphql from a browser (comma list). Default *.',
  },
  {
    name: 'control-cors',
    type: 'string',
    env: 'PCK_CONTROL_CORS',
    value: 'origins|*|off',
    help: 'Origins allowed to call /__pck/* and the pages cross-origin. Default off.',
  },
  {
    name: 'allowed-hosts',
    type: 'string',
    env: 'PCK_ALLOWED_HOSTS',
    value: 'names|all',
    help: 'Host header names accepted besides localhost, IP addresses and --host (.domain for subdomains). Default none.',
  },
  { name: 'no-ui', type: 'boolean', env: 'PCK_NO_UI', help: 'Serve no pages (landing page, GraphiQL, dashboard).' },
];

/** Every flag, in help order. The help text and the parser are both generated from this table. */
export const mockFlags: readonly FlagSpec[] = [
  {
    name: 'port',
    type: 'string',
    env: 'PCK_PORT',
    value: 'n',
    help: `Port to listen on; 0 picks a free port. Default ${defaultMockOptions.port}.`,
  },
  {
    name: 'host',
    type: 'string',
    env: 'PCK_HOST',
    value: 'host',
    help: `Host to listen on. Default ${defaultMockOptions.host}.`,
  },
  {
    name: 'client-id',
    type: 'string',
    env: 'PCK_CLIENT_ID',
    value: 'id',
    help: `Accepted x-client-id. Default ${defaultMockOptions.clients[0].clientId}.`,
  },
  {
    name: 'api-key',
    type: 'string',
    env: 'PCK_API_KEY',
    value: 'key',
    help: `Accepted x-api-key for --client-id. Default ${defaultMockOptions.clients[0].apiKey}.`,
  },
  {
    name: 'config',
    type: 'string',
    env: 'PCK_CONFIG',
    value: 'file.json',
    help: 'JSON file: { "clients": [{ clientId, apiKey, webhookUrls?, signingKey? }], "assumptions": { ... } }. Its clients are added to --client-id\'s.',
  },
  {
    name: 'guide',
    type: 'string',
    env: 'PCK_GUIDE',
    value: 'current|legacy|both',
    help: 'Guide answered on /graphql; "both" detects it per request. Default current.',
  },
  {
    name: 'token-ttl',
    type: 'string',
    env: 'PCK_TOKEN_TTL',
    value: 'seconds',
    help: `Access token lifetime. Default ${defaultAssumptions.tokenTtlSeconds}.`,
  },
  {
    name: 'webhook-url',
    type: 'string',
    env: 'PCK_WEBHOOK_URL',
    value: 'url',
    multiple: true,
    help: 'Where payment status webhooks go; repeat for several (env: comma-separated).',
  },
  {
    name: 'webhook-signing-key',
    type: 'string',
    env: 'PCK_WEBHOOK_SIGNING_KEY',
    value: 'key',
    help: `Signing key sent with webhooks. Default ${defaultMockOptions.webhookSigningKey}.`,
  },
  {
    name: 'standard-webhooks-secret',
    type: 'string',
    env: 'PCK_STANDARD_WEBHOOKS_SECRET',
    value: 'whsec_...',
    help: 'Opt-in: also sign webhooks with Standard Webhooks headers using this secret. Default off.',
  },
  {
    name: 'strict-generate',
    type: 'boolean',
    env: 'PCK_STRICT_GENERATE',
    help: 'A second generate-token for a client answers 401 (use refresh-token), as the spec\'s "call once" rule.',
  },
  {
    name: 'settle-delay',
    type: 'string',
    env: 'PCK_SETTLE_DELAY',
    value: 'ms',
    help: `Time from payment acceptance to settlement and webhook. Default ${defaultAssumptions.settleDelayMs}.`,
  },
  {
    name: 'latency',
    type: 'string',
    env: 'PCK_LATENCY',
    value: 'min-max',
    help: 'Simulated latency per answer in ms, e.g. 50-300 or 2000 (for timeout testing). Default none.',
  },
  {
    name: 'seed',
    type: 'string',
    env: 'PCK_SEED',
    value: 'text',
    help: `Seed of ids and tokens; the same requests give the same answers. Default ${defaultMockOptions.seed}.`,
  },
  ...limitFlags.map(
    (l): FlagSpec => ({
      name: l.name,
      type: 'string',
      env: l.env,
      value: 'n',
      help: `${l.help} Default ${l.default()}.`,
    }),
  ),
  {
    name: 'log',
    type: 'string',
    env: 'PCK_LOG',
    value: 'text|json',
    help: 'Request log format on standard error: text lines, or one JSON object per line. Default text.',
  },
  ...browserFlags,
  {
    name: 'store',
    type: 'string',
    env: 'PCK_STORE',
    value: 'url',
    help: 'Where the sandbox state lives: memory: (default), file:<path> (survives restarts and crashes; one process) or redis://host:port (replicas). See docs/shared-sandbox.md.',
  },
  {
    name: 'journal-size',
    type: 'string',
    env: 'PCK_JOURNAL_SIZE',
    value: 'n',
    help: `Requests kept in the journal (a ring). Default ${defaultMockOptions.journalSize}.`,
  },
  { name: 'quiet', type: 'boolean', env: 'PCK_QUIET', help: 'No request log (standard error).' },
  { name: 'help', type: 'boolean', env: '', help: 'Show this help.' },
];

/** The `--help` text of the mock command. */
export function mockHelp(): string {
  const rows = mockFlags.map((f) => {
    const left = `  --${f.name}${f.value ? ` <${f.value}>` : ''}`;
    const env = f.env ? ` [env ${f.env}]` : '';
    return `${left.padEnd(40)}${f.help}${env}`;
  });
  return `Usage: payment-contract-kit mock [options]

Starts the stateful mock of the payment service (REST token endpoints, GraphQL at /graphql, payment status
webhooks, control API under /__pck/) and prints one line with its base URL. Ctrl-C or SIGTERM stops it.

Options:
${rows.join('\n')}

Flags win over environment variables, which win over the defaults.

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

function parseLatency(raw: string): { minMs: number; maxMs: number } {
  const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(raw);
  const min = m ? Number(m[1]) : Number.NaN;
  const max = m?.[2] !== undefined ? Number(m[2]) : min;
  if (!m || max < min)
    throw new UsageError(
      `--latency must be <min-max> or <ms> in milliseconds with min <= max, e.g. 50-300; got "${raw}".`,
    );
  return { minMs: min, maxMs: max };
}

function checkUrl(raw: string): string {
  if (!parseHttpUrl(raw))
    throw new UsageError(`--webhook-url must be an http(s) URL such as http://127.0.0.1:3000/webhooks; got "${raw}".`);
  return raw;
}

interface ConfigFile {
  clients?: MockClientConfig[];
  assumptions?: AssumptionOverrides;
}

/**
 * `assumptions.cardTypes` of a JSON file: each pattern is the source of a regular expression (`"^4"`), as the
 * validating proxy's `suggestedConfig` writes it.
 */
function cardTypesFromJson(value: unknown): CardTypePattern[] {
  const shape = '[{ "card_type": "visa", "pattern": "^4" }, ...] (each pattern a regular expression source)';
  if (!Array.isArray(value)) throw new UsageError(`--config: "cardTypes" must be an array ${shape}.`);
  return value.map((row: unknown, i) => {
    const o = row as Record<string, unknown> | null;
    if (!o || typeof o.card_type !== 'string' || typeof o.pattern !== 'string')
      throw new UsageError(`--config: cardTypes[${i}] needs string "card_type" and "pattern": ${shape}.`);
    try {
      return { card_type: o.card_type, pattern: new RegExp(o.pattern) };
    } catch (error) {
      throw new UsageError(
        `--config: cardTypes[${i}].pattern is not a regular expression (${(error as Error).message}).`,
      );
    }
  });
}

function readConfig(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(
      `--config: cannot read "${path}" (${(error as NodeJS.ErrnoException).code ?? 'error'}); give the path of a JSON file.`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--config: "${path}" is not valid JSON (${(error as Error).message}).`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError(`--config: "${path}" must hold a JSON object { "clients": [...], "assumptions": {...} }.`);
  const config = value as Record<string, unknown>;
  for (const key of Object.keys(config))
    if (key !== 'clients' && key !== 'assumptions' && key !== '$schema')
      throw new UsageError(`--config: unknown key "${key}" in "${path}"; the file takes "clients" and "assumptions".`);
  const clients = config.clients;
  if (clients !== undefined) {
    if (!Array.isArray(clients))
      throw new UsageError(`--config: "clients" must be an array of { clientId, apiKey, webhookUrls?, signingKey? }.`);
    clients.forEach((c: unknown, i) => {
      const o = c as Record<string, unknown> | null;
      if (!o || typeof o.clientId !== 'string' || typeof o.apiKey !== 'string')
        throw new UsageError(`--config: clients[${i}] needs string "clientId" and "apiKey".`);
      if (
        o.webhookUrls !== undefined &&
        (!Array.isArray(o.webhookUrls) || !o.webhookUrls.every((u) => typeof u === 'string'))
      )
        throw new UsageError(`--config: clients[${i}].webhookUrls must be an array of URLs.`);
      if (o.signingKey !== undefined && typeof o.signingKey !== 'string')
        throw new UsageError(`--config: clients[${i}].signingKey must be a string.`);
    });
  }
  const assumptions = config.assumptions;
  if (assumptions !== undefined) {
    if (typeof assumptions !== 'object' || assumptions === null || Array.isArray(assumptions))
      throw new UsageError('--config: "assumptions" must be an object of overrides (see ASSUMPTIONS.md).');
    for (const key of Object.keys(assumptions))
      if (!(key in defaultAssumptions))
        throw new UsageError(`--config: unknown assumption "${key}"; see ASSUMPTIONS.md for the names.`);
    if ('cardTypes' in assumptions)
      (assumptions as Record<string, unknown>).cardTypes = cardTypesFromJson(
        (assumptions as Record<string, unknown>).cardTypes,
      );
  }
  return config as ConfigFile;
}

/** The browser options from their flags; a bad value is a usage error naming the flag. */
function browserOptions(
  pick: (name: string) => string | undefined,
  pickBoolean: (name: string) => boolean,
): Pick<MockOptions, 'cors' | 'controlCors' | 'allowedHosts' | 'ui'> {
  const out: { -readonly [K in 'cors' | 'controlCors' | 'allowedHosts' | 'ui']?: MockOptions[K] } = {};
  const checked = <T>(flag: string, parse: () => T): T => {
    try {
      return parse();
    } catch (error) {
      throw new UsageError(`--${flag}: ${(error as Error).message.replace(/^\[payment-contract-kit\] /, '')}`);
    }
  };
  const cors = pick('cors');
  if (cors !== undefined) out.cors = checked('cors', () => parseCorsOrigins('cors', cors));
  const controlCors = pick('control-cors');
  if (controlCors !== undefined)
    out.controlCors = checked('control-cors', () => parseCorsOrigins('controlCors', controlCors));
  const hosts = pick('allowed-hosts');
  if (hosts !== undefined) out.allowedHosts = checked('allowed-hosts', () => parseAllowedHosts('allowedHosts', hosts));
  if (pickBoolean('no-ui')) out.ui = false;
  return out;
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
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: Object.fromEntries(
        mockFlags.map((f) => [f.name, { type: f.type, ...(f.multiple ? { multiple: true } : {}) }]),
      ),
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    throw new UsageError(`${clause(message)}. Run "payment-contract-kit mock --help" for the options.`);
  }
  if (values.help) return { help: true };

  // Flag first, then the environment variable; undefined when neither is set.
  const pick = (name: string): string | undefined => {
    const flag = values[name];
    if (typeof flag === 'string') return flag;
    const spec = mockFlags.find((f) => f.name === name)!;
    const fromEnv = env[spec.env];
    return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
  };
  const pickBoolean = (name: string): boolean => {
    if (values[name] === true) return true;
    const spec = mockFlags.find((f) => f.name === name)!;
    const fromEnv = env[spec.env];
    return fromEnv === undefined ? false : booleanEnv(spec.env, fromEnv);
  };

  const options: { -readonly [K in keyof MockOptions]: MockOptions[K] } = {};
  const port = pick('port');
  if (port !== undefined) options.port = integer('port', port, 0, 65_535);
  const host = pick('host');
  if (host !== undefined) options.host = host;
  const guide = pick('guide');
  if (guide !== undefined) {
    if (guide !== 'current' && guide !== 'legacy' && guide !== 'both')
      throw new UsageError(`--guide must be current, legacy or both; got "${guide}".`);
    options.guide = guide as MockGuide;
  }
  const ttl = pick('token-ttl');
  if (ttl !== undefined) options.tokenTtlSeconds = integer('token-ttl', ttl, 1);
  const settle = pick('settle-delay');
  if (settle !== undefined) options.settleDelayMs = integer('settle-delay', settle, 0);
  const latency = pick('latency');
  if (latency !== undefined) options.latency = parseLatency(latency);
  const journalSize = pick('journal-size');
  if (journalSize !== undefined) options.journalSize = integer('journal-size', journalSize, 1);
  const store = pick('store');
  if (store !== undefined) {
    try {
      options.store = parseStoreUrl(store).kind === 'memory' ? 'memory:' : store.trim();
    } catch (error) {
      throw new UsageError(`--store: ${(error as Error).message.replace(`${kitPrefix} `, '')}`);
    }
  }
  const seed = pick('seed');
  if (seed !== undefined) options.seed = seed;
  const signingKey = pick('webhook-signing-key');
  if (signingKey !== undefined) options.webhookSigningKey = signingKey;
  const standardSecret = pick('standard-webhooks-secret');
  if (standardSecret !== undefined) options.standardWebhooksSecret = standardSecret;
  const urls =
    (values['webhook-url'] as string[] | undefined) ??
    env.PCK_WEBHOOK_URL?.split(',')
      .map((u) => u.trim())
      .filter(Boolean);
  if (urls !== undefined) options.webhookUrls = urls.map(checkUrl);
  if (pickBoolean('strict-generate')) options.strictGenerate = true;
  if (pickBoolean('quiet')) options.log = false;
  const logFormat = pick('log');
  if (logFormat !== undefined) {
    if (logFormat !== 'text' && logFormat !== 'json')
      throw new UsageError(`--log must be text or json; got "${logFormat}".`);
    options.logFormat = logFormat;
  }
  Object.assign(options, browserOptions(pick, pickBoolean));

  const cliClient: MockClientConfig = {
    clientId: pick('client-id') ?? defaultMockOptions.clients[0].clientId,
    apiKey: pick('api-key') ?? defaultMockOptions.clients[0].apiKey,
  };
  const configPath = pick('config');
  const config = configPath === undefined ? {} : readConfig(configPath);
  const fromFile = config.clients ?? [];
  // A client in the file carries more (webhooks, signing key) than the flags, so it wins over the same id.
  options.clients = [...(fromFile.some((c) => c.clientId === cliClient.clientId) ? [] : [cliClient]), ...fromFile];
  // Limit flags win over the config file's assumptions, value by value.
  const groups: Record<LimitFlag['group'], Record<string, number>> = { limits: {}, bounds: {}, history: {} };
  for (const l of limitFlags) {
    const raw = pick(l.name);
    if (raw !== undefined) groups[l.group][l.key] = integer(l.name, raw, 1);
  }
  const fromConfig = config.assumptions ?? {};
  const flagged = (Object.keys(groups) as LimitFlag['group'][]).filter((g) => Object.keys(groups[g]).length > 0);
  if (config.assumptions || flagged.length > 0)
    options.assumptions = {
      ...fromConfig,
      ...Object.fromEntries(flagged.map((g) => [g, { ...fromConfig[g], ...groups[g] }])),
    };
  return { help: false, options };
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

/**
 * Runs the mock command. Resolves with 0 after a clean stop (SIGINT / SIGTERM), 2 on a usage mistake, 1 when the
 * mock cannot start (port in use, ...).
 */
export async function run(argv: readonly string[]): Promise<number | undefined> {
  const parsed = parseCommandLine(() => parseMockArgs(argv, process.env), mockHelp, process);
  if (typeof parsed === 'number') return parsed;
  const { startMockServer } = await import('../../mock/server.ts');
  let mock: Awaited<ReturnType<typeof startMockServer>>;
  try {
    mock = await startMockServer(parsed.options);
  } catch (error) {
    process.stderr.write(`${startFailure(error, parsed.options)}\n`);
    return error instanceof TypeError ? 2 : 1;
  }
  process.stdout.write(`payment-contract-kit mock listening on ${mock.url}\n`);
  // Load the GraphQL engine while the client is still busy with its first token call, so the first /graphql
  // answer waits less; the query compiler loads after that answer (engine.ts). A failure here is reported by that
  // first /graphql request, not here.
  setImmediate(() => mock.control.warmUp({ scope: 'first-request' }).catch(() => {}));
  return new Promise<number>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      mock.close().then(
        () => {
          // Everything is closed; should a stray handle keep the loop alive, exit anyway rather than hang.
          setTimeout(() => process.exit(0), 1000).unref();
          resolve(0);
        },
        (error: unknown) => {
          process.stderr.write(kitMessage(`error while stopping the mock: ${String(error)}\n`));
          resolve(1);
        },
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
