/**
 * Options of the mock (`createMockApp`, `startMockServer`): their types, the one table that declares each option's
 * kind, default and flag ({@link mockOptionTable}), and the one place that checks them and folds the convenience
 * options (`tokenTtlSeconds`, `strictGenerate`, `settleDelayMs`, `maxBodyBytes`) into the assumptions.
 *
 * @module
 */

import {
  type AssumptionOverrides,
  type Assumptions,
  defaultAssumptions,
  type RequestLimits,
  resolveAssumptions,
} from '../assumptions.ts';
import { assumptionsKind } from '../internal/assumption-overrides.ts';
import { parseHttpUrl } from '../internal/http-url.ts';
import { kitMessage } from '../internal/messages.ts';
import {
  checkOptions,
  httpUrls,
  type OptionRow,
  type OptionTable,
  oneOf,
  type Problem,
  parsedBy,
  problemLine,
  tableDefaults,
  text,
  wholeNumber,
  yesNo,
} from '../internal/option-table.ts';
import { defaultCredentials } from '../spec-names.ts';
import {
  type CorsInput,
  type CorsOrigins,
  parseAllowedHosts,
  parseCorsOrigins,
  resolveBrowserOptions,
} from './internal/http/browser-options.ts';
import {
  clientsKind,
  controlTokenKind,
  latencyKind,
  logSinkKind,
  realNowKind,
  standardSecretKind,
} from './internal/option-kinds.ts';
import type { MockClientConfig, MockGuide, MockLatency, MockLogFormat, MockLogSink } from './internal/option-types.ts';
import type { SandboxStore } from './internal/store/sandbox-store.ts';
import { storeKind } from './internal/store/store-kind.ts';

export type { MockClientConfig, MockGuide, MockLatency, MockLogFormat, MockLogSink } from './internal/option-types.ts';
export { parseStoreUrl } from './internal/store/store-url.ts';
export { parseAllowedHosts, parseCorsOrigins };

/** Options of {@link createMockApp} and {@link startMockServer}; every field is optional. */
export interface MockOptions {
  /** Port to listen on (`startMockServer` only); 0 picks a free port. Default 4010. */
  readonly port?: number;
  /** Host to listen on (`startMockServer` only). Default `127.0.0.1`. */
  readonly host?: string;
  /** Accepted clients. Default: one client, `test-client` / `test-api-key`. */
  readonly clients?: readonly MockClientConfig[];
  /** Guide answered. Default `current`. */
  readonly guide?: MockGuide;
  /** Overrides of the kit's assumptions (ASSUMPTIONS.md). The options below win over these. */
  readonly assumptions?: AssumptionOverrides;
  /** Access token lifetime in seconds; sets `Assumptions.tokenTtlSeconds`. Default 600. */
  readonly tokenTtlSeconds?: number;
  /** A second generate-token for a client answers 401 (`Assumptions.repeatGenerateToken = 'reject'`). */
  readonly strictGenerate?: boolean;
  /** Delay between a payment's acceptance and its settlement, in ms; sets `Assumptions.settleDelayMs`. */
  readonly settleDelayMs?: number;
  /** Webhook URLs for clients that do not list their own. Default none. */
  readonly webhookUrls?: readonly string[];
  /** Webhook signing key for clients that do not set their own. Default `test-signing-key`. */
  readonly webhookSigningKey?: string;
  /**
   * Opt-in: also sign every webhook with Standard Webhooks headers (webhook-id, webhook-timestamp,
   * webhook-signature), keyed with this `whsec_` secret. Off by default: the service is not known to do it.
   */
  readonly standardWebhooksSecret?: string;
  /** Simulated latency of every answer (control API excluded). Default none. */
  readonly latency?: MockLatency;
  /** Seed of everything the mock invents (ids, token ids, JWT secret). Default `payment-contract-kit`. */
  readonly seed?: string;
  /** Request log sink; `false` turns the log off, the mock's own warnings included. Default: standard error. */
  readonly log?: MockLogSink | false;
  /**
   * The line of every request and webhook attempt. `false` (`--quiet`) keeps only the mock's own lines: warnings
   * of refused or lost work (the pending-deliveries cap, a store that failed, a webhook that could not be built) and
   * bugs. Default `true`.
   */
  readonly requestLog?: boolean;
  /**
   * Format of the request log: `text` (one readable line per request) or `json` (one JSON object per line: time,
   * level, method, path, operation, status, ms, client_id, reason). Default `text`.
   */
  readonly logFormat?: MockLogFormat;
  /**
   * Largest accepted request body in bytes; larger bodies get 413. Sets `Assumptions.limits.maxBodyBytes` (the other
   * limits are set through `assumptions.limits`). Default 1 MiB.
   */
  readonly maxBodyBytes?: number;
  /** Requests kept in the journal (a ring; the oldest drop out). Default 1,000. */
  readonly journalSize?: number;
  /** Source of real time for the virtual clock; tests may inject one. Default `Date.now`. */
  readonly realNow?: () => number;
  /**
   * CORS on the service paths (token endpoints, `/graphql`): `'*'` (default), a list or comma list of origins such
   * as `http://localhost:5173`, or `false` / `'off'`.
   */
  readonly cors?: CorsInput;
  /**
   * CORS on the control API, the published sources and the pages (`/__pck/*`, `/`): same values as `cors`. Default
   * `false`: other websites cannot drive the mock from a developer's browser.
   */
  readonly controlCors?: CorsInput;
  /**
   * Host names accepted in the `Host` header besides `localhost`, IP literals and `host`; a leading dot accepts a
   * domain and its subdomains; `true` or `'all'` accepts any. Default none (DNS-rebinding guard).
   */
  readonly allowedHosts?: string | readonly string[] | boolean;
  /** Serve the pages (landing page at `/` and the browser pages). Default `true`; `false` is `--no-ui`. */
  readonly ui?: boolean;
  /**
   * Secret every request under `/__pck/` must send as `Authorization: Bearer <controlToken>` (401 otherwise); the
   * pages ask for it once. Required to listen on a host other machines can reach. Default none (open control API).
   */
  readonly controlToken?: string;
  /**
   * Where the sandbox's state lives (docs/shared-sandbox.md): `memory:` (default, this process only),
   * `file:<path>` (survives a restart and a crash; one process; Node only), `redis://…` / `rediss://…` (replicas
   * share it; Node only), or a {@link SandboxStore} object. Also `--store` / `PCK_STORE`.
   */
  readonly store?: string | SandboxStore;
  /**
   * `startMockServer` and the CLI only: when the mock stops (`close()`, SIGTERM, SIGINT), write its coverage report
   * (JSON, `control.coverage()`) to this file, creating its folder. Default none (docs/coverage.md).
   */
  readonly coverageFile?: string;
}

/**
 * Every option of the mock, once: its kind (which checks it in code and in a `--config` file, and reads its flag's
 * text), its default, and its flag (`--name`, `PCK_NAME`, help text). `resolveMockOptions`, `defaultMockOptions`,
 * the CLI's parser and `--help`, the `--config` file check and the option table of docs/options.md are produced
 * from it. The `satisfies` below makes the compiler hold it to {@link MockOptions}: one row per option, no more.
 *
 * To add an option (`controlToken`, say): write its field with TSDoc in {@link MockOptions}, and in
 * {@link ResolvedMockOptions} (`string`, or `string | undefined` without a default, then also one line
 * `controlToken: given.controlToken` in `resolveMockOptions`' answer, as `latency` has); add a row here: a kind from
 * `src/internal/option-table.ts` (`text('token', { nonEmpty: true })`) or `internal/option-kinds.ts`, a `default`
 * or a `shownDefault`, and a `flag` with a name and one line of help (its variable is `PCK_` + the name); then run
 * `npm run generate` to rewrite docs/options.md. The CLI, `--help`, the config file and the checks take it with no
 * other edit; the code that uses it reads it from the resolved options.
 */
export const mockOptionTable = {
  port: {
    kind: wholeNumber(0, 65_535),
    default: 4010,
    flag: { name: 'port', help: 'Port to listen on; 0 picks a free port.' },
  },
  host: {
    kind: text('host', { nonEmpty: true }),
    default: '127.0.0.1',
    flag: { name: 'host', help: 'Host to listen on.' },
  },
  clients: {
    kind: clientsKind,
    default: [{ clientId: defaultCredentials.clientId, apiKey: defaultCredentials.apiKey }],
    shownDefault: `${defaultCredentials.clientId} / ${defaultCredentials.apiKey}`,
    // Flags: --client-id and --api-key (one client), in the command: they build one entry of this list.
  },
  guide: {
    kind: oneOf<MockGuide>(['current', 'legacy', 'both']),
    default: 'current',
    flag: { name: 'guide', help: 'Guide answered on /graphql; "both" detects it per request.' },
  },
  assumptions: { kind: assumptionsKind, shownDefault: 'the ledger (ASSUMPTIONS.md)' },
  tokenTtlSeconds: {
    kind: wholeNumber(1),
    shownDefault: String(defaultAssumptions.tokenTtlSeconds),
    flag: { name: 'token-ttl', placeholder: 'seconds', help: 'Access token lifetime.' },
  },
  strictGenerate: {
    kind: yesNo,
    shownDefault: 'off',
    flag: {
      name: 'strict-generate',
      sets: true,
      help: 'A second generate-token for a client answers 401 (use refresh-token), as the spec\'s "call once" rule.',
    },
  },
  settleDelayMs: {
    kind: wholeNumber(0),
    shownDefault: String(defaultAssumptions.settleDelayMs),
    flag: { name: 'settle-delay', placeholder: 'ms', help: 'Time from payment acceptance to settlement and webhook.' },
  },
  webhookUrls: {
    kind: httpUrls((raw) => parseHttpUrl(raw) !== undefined),
    default: [],
    flag: {
      name: 'webhook-url',
      help: 'Where payment status webhooks go; repeat for several (env: comma-separated).',
    },
  },
  webhookSigningKey: {
    kind: text('key'),
    default: defaultCredentials.webhookSigningKey,
    flag: { name: 'webhook-signing-key', help: 'Signing key sent with webhooks.' },
  },
  standardWebhooksSecret: {
    kind: standardSecretKind,
    shownDefault: 'off',
    flag: {
      name: 'standard-webhooks-secret',
      help: 'Opt-in: also sign webhooks with Standard Webhooks headers using this secret.',
    },
  },
  latency: {
    kind: latencyKind,
    shownDefault: 'none',
    flag: { name: 'latency', help: 'Simulated latency per answer in ms, e.g. 50-300 or 2000 (for timeout testing).' },
  },
  seed: {
    kind: text('text'),
    default: 'payment-contract-kit',
    flag: { name: 'seed', help: 'Seed of ids and tokens; the same requests give the same answers.' },
  },
  logFormat: {
    kind: oneOf<MockLogFormat>(['text', 'json']),
    default: 'text',
    flag: {
      name: 'log',
      help: 'Request log format on standard error: text lines, or one JSON object per line.',
    },
  },
  log: { kind: logSinkKind, shownDefault: 'standard error' },
  requestLog: {
    kind: yesNo,
    default: true,
    flag: {
      name: 'quiet',
      sets: false,
      help: 'No line per request or webhook attempt; warnings of refused or lost work and errors still go to standard error.',
    },
  },
  // Its flag is --max-body-bytes among the limit flags below (it sets assumptions.limits.maxBodyBytes, as this does).
  maxBodyBytes: { kind: wholeNumber(0), default: defaultAssumptions.limits.maxBodyBytes },
  journalSize: {
    kind: wholeNumber(1),
    default: 1000,
    flag: { name: 'journal-size', help: 'Requests kept in the journal (a ring).' },
  },
  realNow: { kind: realNowKind, shownDefault: 'Date.now' },
  cors: {
    kind: corsKind('cors'),
    shownDefault: '*',
    flag: {
      name: 'cors',
      help: 'Origins allowed to call the token endpoints and /graphql from a browser (comma list).',
    },
  },
  controlCors: {
    kind: corsKind('controlCors'),
    shownDefault: 'off',
    flag: { name: 'control-cors', help: 'Origins allowed to call /__pck/* and the pages cross-origin.' },
  },
  allowedHosts: {
    kind: parsedBy('names|all', (value: string | readonly string[] | boolean) =>
      parseAllowedHosts('allowedHosts', listOrSwitch('allowedHosts', value, '"all", true, or host names')),
    ),
    shownDefault: 'none',
    flag: {
      name: 'allowed-hosts',
      help: 'Host header names accepted besides localhost, IP addresses and --host (.domain for subdomains).',
    },
  },
  ui: {
    kind: yesNo,
    default: true,
    flag: { name: 'no-ui', sets: false, help: 'Serve no pages (landing page, GraphiQL, dashboard).' },
  },
  store: {
    kind: storeKind,
    default: 'memory:',
    flag: {
      name: 'store',
      help: 'Where the sandbox state lives: memory: (this process), file:<path> (survives restarts and crashes; one process) or redis://host:6379 (replicas share it). See docs/shared-sandbox.md.',
    },
  },
  coverageFile: {
    kind: text('path', { nonEmpty: true }),
    shownDefault: 'none',
    flag: {
      name: 'coverage-file',
      help: 'When the mock stops (SIGTERM, SIGINT), write its coverage report (JSON) to this file. See docs/coverage.md.',
    },
  },
  controlToken: {
    kind: controlTokenKind,
    shownDefault: 'none (open control API)',
    flag: {
      name: 'control-token',
      help: 'Every /__pck/ request must send "Authorization: Bearer <secret>"; required with a --host other machines reach. Prefer the variable (a flag shows in ps).',
    },
  },
} as const satisfies OptionTable<MockOptions>;

function corsKind(option: 'cors' | 'controlCors') {
  return parsedBy('origins|*|off', (value: CorsInput) =>
    parseCorsOrigins(option, listOrSwitch(option, value, '"*", "off", false, or origins')),
  );
}

/** `value` when it is a string, an array or a boolean (what the browser options' parsers take); else a refusal. */
function listOrSwitch<T>(option: string, value: T, takes: string): T {
  if (typeof value === 'string' || typeof value === 'boolean' || Array.isArray(value)) return value;
  throw new TypeError(
    kitMessage(`mock option "${option}" takes ${takes} (a comma list or an array); got ${String(value)}.`),
  );
}

/**
 * The flags that set one value of the assumptions (ASSUMPTIONS.md, "Limits" and "History caps"); each wins over the
 * same value in a `--config` file's `assumptions`. `target` is the value's place in the assumptions.
 */
export const mockAssumptionFlags = [
  limit('max-body-bytes', 'limits', 'maxBodyBytes', 'Largest request body in bytes (413 above).'),
  limit('max-json-depth', 'limits', 'maxJsonDepth', 'Deepest nesting of a JSON request body (400 above).'),
  limit('max-tokens', 'limits', 'maxTokens', 'Most tokens in a GraphQL document.'),
  limit('max-query-depth', 'limits', 'maxDepth', 'Deepest field nesting of a GraphQL operation.'),
  limit('max-aliases', 'limits', 'maxAliases', 'Most aliases in a GraphQL operation.'),
  limit('max-directives', 'limits', 'maxDirectives', 'Most directives in a GraphQL operation.'),
  limit('max-cost', 'limits', 'maxCost', 'Highest estimated cost of a GraphQL operation.'),
  limit('max-text-length', 'bounds', 'maxTextLength', 'Longest string in a text input field.'),
  limit('max-metadata-bytes', 'bounds', 'maxMetadataBytes', 'Largest payment metadata, in bytes of JSON.'),
  limit('max-metadata-depth', 'bounds', 'maxMetadataDepth', 'Deepest nesting of payment metadata.'),
  limit('max-payments', 'history', 'maxPaymentsPerClient', 'Payments kept per client (oldest settled evicted).'),
  limit('max-deliveries', 'history', 'maxDeliveries', 'Finished webhook deliveries kept (oldest evicted).'),
  limit(
    'max-pending-deliveries',
    'history',
    'maxPendingDeliveries',
    'Pending webhook deliveries; past it new ones are refused (failed, pending-cap) and logged.',
  ),
  limit('max-attempts-kept', 'history', 'maxAttemptsPerDelivery', 'Attempts kept per webhook delivery (latest).'),
] as const;

/** One flag of {@link mockAssumptionFlags}: a whole number of at least 1 at `assumptions.<group>.<key>`. */
export interface AssumptionFlag {
  readonly group: 'limits' | 'bounds' | 'history';
  readonly key: string;
  readonly row: OptionRow<number>;
}

function limit<G extends AssumptionFlag['group']>(
  name: string,
  group: G,
  key: keyof Assumptions[G] & string,
  help: string,
): AssumptionFlag {
  const shown = String(defaultAssumptions[group][key]);
  return { group, key, row: { kind: wholeNumber(1), shownDefault: shown, flag: { name, help } } };
}

/** The defaults of {@link MockOptions}, as the CLI documents them (the rows of {@link mockOptionTable} with one). */
export const defaultMockOptions = tableDefaults(mockOptionTable) as DefaultsOf<typeof mockOptionTable>;

/** The `default` of each row that has one, typed as written. */
type DefaultsOf<T> = {
  readonly [K in keyof T as T[K] extends { readonly default: unknown } ? K : never]: T[K] extends {
    readonly default: infer D;
  }
    ? D
    : never;
};

/** Options with every default applied and the assumptions resolved. */
export interface ResolvedMockOptions {
  readonly port: number;
  readonly host: string;
  readonly clients: readonly MockClientConfig[];
  readonly guide: MockGuide;
  readonly assumptions: Assumptions;
  readonly webhookUrls: readonly string[];
  readonly webhookSigningKey: string;
  readonly standardWebhooksSecret: string | undefined;
  readonly latency: MockLatency | undefined;
  readonly seed: string;
  readonly log: MockLogSink | false;
  readonly requestLog: boolean;
  readonly logFormat: MockLogFormat;
  readonly maxBodyBytes: number;
  readonly journalSize: number;
  readonly realNow: () => number;
  readonly cors: CorsOrigins;
  readonly controlCors: CorsOrigins;
  readonly allowedHosts: readonly string[] | true;
  readonly ui: boolean;
  readonly controlToken: string | undefined;
  /** The store: a checked URL (`memory:` by default) or the store object given. */
  readonly store: string | SandboxStore;
  /** Where `startMockServer` writes the coverage report when it stops; undefined: nowhere. */
  readonly coverageFile: string | undefined;
}

function fail(option: string, problem: Problem | string): never {
  const line = typeof problem === 'string' ? `${option}" ${problem}` : problemLine(`${option}"`, problem);
  throw new TypeError(kitMessage(`mock option "${line}`));
}

function positiveInteger(option: string, value: unknown): void {
  if (value !== undefined && (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1))
    fail(option, `must be a whole number of at least 1; got ${String(value)}.`);
}

/** Where the default sink writes: standard error under Node, Bun and Deno; `undefined` in a browser or worker. */
const stderr = (globalThis as { process?: { stderr?: { write(chunk: string): unknown } } }).process?.stderr;

/**
 * Default sink: standard error, so standard output carries only the base URL line of the CLI; the console where
 * there is no standard error (a browser page: one console line per log line).
 */
const stderrSink: MockLogSink = stderr
  ? (chunk) => {
      stderr.write(chunk);
    }
  : (chunk) => {
      for (const line of chunk.split('\n')) if (line !== '') console.info(line);
    };

/**
 * Applies the defaults and checks every option (each with its row of {@link mockOptionTable}), throwing a
 * `TypeError` that names the option and the fix.
 *
 * @example
 * resolveMockOptions({ guide: 'both', tokenTtlSeconds: 60 }).assumptions.tokenTtlSeconds // 60
 */
export function resolveMockOptions(options: MockOptions = {}): ResolvedMockOptions {
  const given = checkOptions(mockOptionTable, options, fail);
  const { tokenTtlSeconds, strictGenerate, settleDelayMs, maxBodyBytes, ...plain } = given;
  const assumptions = resolvedAssumptions(given);
  return {
    ...defaultMockOptions,
    ...plain,
    assumptions,
    standardWebhooksSecret: given.standardWebhooksSecret,
    latency: given.latency,
    controlToken: given.controlToken,
    coverageFile: given.coverageFile,
    log: given.log === undefined ? stderrSink : given.log,
    maxBodyBytes: assumptions.limits.maxBodyBytes,
    realNow: given.realNow ?? Date.now,
    ...resolveBrowserOptions(given),
  };
}

/**
 * The assumptions with the convenience options folded in: they are documented as setting these assumptions, so they
 * win over `assumptions`. Every limit, cap and bound is checked after the merge, wherever it was set.
 */
function resolvedAssumptions(given: MockOptions): Assumptions {
  const overrides: Record<string, unknown> = { ...given.assumptions };
  if (given.tokenTtlSeconds !== undefined) overrides.tokenTtlSeconds = given.tokenTtlSeconds;
  if (given.strictGenerate) overrides.repeatGenerateToken = 'reject';
  if (given.settleDelayMs !== undefined) overrides.settleDelayMs = given.settleDelayMs;
  if (given.maxBodyBytes !== undefined)
    overrides.limits = { ...(overrides.limits as object | undefined), maxBodyBytes: given.maxBodyBytes };
  const assumptions = resolveAssumptions(overrides as AssumptionOverrides);
  for (const key of Object.keys(assumptions.limits) as (keyof RequestLimits)[])
    positiveInteger(`assumptions.limits.${key}`, assumptions.limits[key]);
  for (const key of Object.keys(assumptions.history) as (keyof Assumptions['history'])[])
    positiveInteger(`assumptions.history.${key}`, assumptions.history[key]);
  positiveInteger('assumptions.bounds.maxMetadataBytes', assumptions.bounds.maxMetadataBytes);
  positiveInteger('assumptions.bounds.maxMetadataDepth', assumptions.bounds.maxMetadataDepth);
  positiveInteger('assumptions.bounds.maxTextLength', assumptions.bounds.maxTextLength);
  return assumptions;
}
