/**
 * Options of the mock (`createMockApp`, `startMockServer`), their defaults, and the one place that checks them and
 * folds the convenience options (`tokenTtlSeconds`, `strictGenerate`, `settleDelayMs`) into the assumptions.
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
import { parseHttpUrl } from '../internal/http-url.ts';
import { kitMessage } from '../internal/messages.ts';
import { defaultCredentials } from '../spec-names.ts';
import { type CorsInput, type CorsOrigins, resolveBrowserOptions } from './internal/http/browser-options.ts';
import type { SandboxStore } from './internal/store/sandbox-store.ts';
import { defaultStoreUrl, parseStoreUrl } from './internal/store/store-url.ts';

export { parseAllowedHosts, parseCorsOrigins } from './internal/http/browser-options.ts';
export { parseStoreUrl } from './internal/store/store-url.ts';

/** Which guide of the service the mock answers in: one of them, or both with per-request detection. */
export type MockGuide = 'current' | 'legacy' | 'both';

/** One client the mock accepts on the token endpoints. */
export interface MockClientConfig {
  /** Value expected in `x-client-id`. */
  readonly clientId: string;
  /** Value expected in `x-api-key`. */
  readonly apiKey: string;
  /** Webhook URLs of this client; defaults to {@link MockOptions.webhookUrls}. */
  readonly webhookUrls?: readonly string[];
  /** Webhook signing key sent to this client's URLs; defaults to {@link MockOptions.webhookSigningKey}. */
  readonly signingKey?: string;
}

/** Simulated latency: every answer waits a seeded-random time in [minMs, maxMs] (real time, not virtual). */
export interface MockLatency {
  readonly minMs: number;
  readonly maxMs: number;
}

/** Where request log lines go: a function receiving a chunk of one or more `\n`-terminated lines. */
export type MockLogSink = (chunk: string) => void;

/** Format of the request log lines. */
export type MockLogFormat = 'text' | 'json';

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
  /** Request log sink; `false` turns the log off. Default: standard error. */
  readonly log?: MockLogSink | false;
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
   * Where the sandbox's state lives (issue 23; docs/shared-sandbox.md): `memory:` (default, this process only),
   * `file:<path>` (survives a restart and a crash; one process; Node only), `redis://…` / `rediss://…` (replicas
   * share it; Node only), or a {@link SandboxStore} object. Also `--store` / `PCK_STORE`.
   */
  readonly store?: string | SandboxStore;
}

/** The defaults of {@link MockOptions}, as the CLI documents them. */
export const defaultMockOptions = {
  port: 4010,
  host: '127.0.0.1',
  clients: [{ clientId: defaultCredentials.clientId, apiKey: defaultCredentials.apiKey }],
  guide: 'current',
  webhookUrls: [],
  webhookSigningKey: defaultCredentials.webhookSigningKey,
  seed: 'payment-contract-kit',
  maxBodyBytes: defaultAssumptions.limits.maxBodyBytes,
  journalSize: 1000,
} as const satisfies MockOptions;

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
  readonly logFormat: MockLogFormat;
  readonly maxBodyBytes: number;
  readonly journalSize: number;
  readonly realNow: () => number;
  readonly cors: CorsOrigins;
  readonly controlCors: CorsOrigins;
  readonly allowedHosts: readonly string[] | true;
  readonly ui: boolean;
  /** The store: a checked URL (`memory:` by default) or the store object given. */
  readonly store: string | SandboxStore;
}

const guides: readonly MockGuide[] = ['current', 'legacy', 'both'];

function fail(option: string, problem: string): never {
  throw new TypeError(kitMessage(`mock option "${option}" ${problem}`));
}

function nonNegativeInteger(option: string, value: number | undefined): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 0))
    fail(option, `must be a non-negative integer; got ${String(value)}.`);
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
 * Applies the defaults and checks every option, throwing a `TypeError` that names the option and the fix.
 *
 * @example
 * resolveMockOptions({ guide: 'both', tokenTtlSeconds: 60 }).assumptions.tokenTtlSeconds // 60
 */
export function resolveMockOptions(options: MockOptions = {}): ResolvedMockOptions {
  const port = options.port ?? defaultMockOptions.port;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    fail('port', `must be an integer from 0 to 65535 (0 picks a free port); got ${String(port)}.`);
  const guide = options.guide ?? defaultMockOptions.guide;
  if (!guides.includes(guide)) fail('guide', `must be one of ${guides.join(', ')}; got ${String(guide)}.`);
  if (options.logFormat !== undefined && options.logFormat !== 'text' && options.logFormat !== 'json')
    fail('logFormat', `must be "text" or "json"; got ${String(options.logFormat)}.`);
  nonNegativeInteger('tokenTtlSeconds', options.tokenTtlSeconds);
  if (options.tokenTtlSeconds === 0) fail('tokenTtlSeconds', 'must be at least 1 second.');
  nonNegativeInteger('settleDelayMs', options.settleDelayMs);
  nonNegativeInteger('maxBodyBytes', options.maxBodyBytes);
  nonNegativeInteger('journalSize', options.journalSize);
  if (options.latency) {
    const { minMs, maxMs } = options.latency;
    if (!Number.isFinite(minMs) || !Number.isFinite(maxMs) || minMs < 0 || maxMs < minMs)
      fail('latency', `needs 0 <= minMs <= maxMs; got ${String(minMs)}-${String(maxMs)}.`);
  }

  const clients = options.clients ?? defaultMockOptions.clients;
  if (!Array.isArray(clients) || clients.length === 0)
    fail('clients', 'must list at least one { clientId, apiKey }; leave it out for test-client / test-api-key.');
  const seen = new Set<string>();
  for (const [i, c] of clients.entries()) {
    if (!c || typeof c.clientId !== 'string' || c.clientId === '' || typeof c.apiKey !== 'string' || c.apiKey === '')
      fail(`clients[${i}]`, 'needs a non-empty string clientId and apiKey.');
    if (seen.has(c.clientId)) fail(`clients[${i}]`, `repeats clientId "${c.clientId}"; give each client once.`);
    seen.add(c.clientId);
    if (c.webhookUrls !== undefined) for (const url of c.webhookUrls) checkUrl(`clients[${i}].webhookUrls`, url);
  }
  const secret = options.standardWebhooksSecret;
  if (secret !== undefined && !/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret))
    fail('standardWebhooksSecret', 'must be a Standard Webhooks secret: "whsec_" followed by base64.');
  const webhookUrls = options.webhookUrls ?? defaultMockOptions.webhookUrls;
  for (const url of webhookUrls) checkUrl('webhookUrls', url);

  // The convenience options are documented as setting these assumptions, so they win over `assumptions`.
  const overrides: Record<string, unknown> = { ...options.assumptions };
  if (options.tokenTtlSeconds !== undefined) overrides.tokenTtlSeconds = options.tokenTtlSeconds;
  if (options.strictGenerate) overrides.repeatGenerateToken = 'reject';
  if (options.settleDelayMs !== undefined) overrides.settleDelayMs = options.settleDelayMs;
  if (options.maxBodyBytes !== undefined)
    overrides.limits = { ...(overrides.limits as object | undefined), maxBodyBytes: options.maxBodyBytes };
  const assumptions = resolveAssumptions(overrides as AssumptionOverrides);
  const browser = resolveBrowserOptions(options);
  for (const key of Object.keys(assumptions.limits) as (keyof RequestLimits)[])
    positiveInteger(`assumptions.limits.${key}`, assumptions.limits[key]);
  for (const key of Object.keys(assumptions.history) as (keyof Assumptions['history'])[])
    positiveInteger(`assumptions.history.${key}`, assumptions.history[key]);
  positiveInteger('assumptions.bounds.maxMetadataBytes', assumptions.bounds.maxMetadataBytes);
  positiveInteger('assumptions.bounds.maxMetadataDepth', assumptions.bounds.maxMetadataDepth);
  positiveInteger('assumptions.bounds.maxTextLength', assumptions.bounds.maxTextLength);
  if (assumptions.expirationUnit !== 'seconds' && assumptions.expirationUnit !== 'milliseconds')
    fail(
      'assumptions.expirationUnit',
      `must be "seconds" or "milliseconds"; got ${String(assumptions.expirationUnit)}.`,
    );

  return {
    port,
    host: options.host ?? defaultMockOptions.host,
    clients,
    guide,
    assumptions,
    webhookUrls,
    webhookSigningKey: options.webhookSigningKey ?? defaultMockOptions.webhookSigningKey,
    standardWebhooksSecret: secret,
    latency: options.latency,
    seed: options.seed ?? defaultMockOptions.seed,
    log: options.log === undefined ? stderrSink : options.log,
    logFormat: options.logFormat ?? 'text',
    maxBodyBytes: assumptions.limits.maxBodyBytes,
    journalSize: Math.max(1, options.journalSize ?? defaultMockOptions.journalSize),
    realNow: options.realNow ?? Date.now,
    store: resolveStore(options.store),
    ...browser,
  };
}

/** The store option checked: a URL of a known form (a `TypeError` names the forms) or a store object. */
function resolveStore(store: MockOptions['store']): string | SandboxStore {
  if (store === undefined) return defaultStoreUrl;
  if (typeof store === 'string') {
    parseStoreUrl(store);
    return store.trim();
  }
  if (typeof store !== 'object' || store === null || typeof store.append !== 'function')
    fail('store', 'must be a store URL (memory:, file:<path>, redis://…) or a SandboxStore object.');
  return store;
}

function checkUrl(option: string, url: string): void {
  if (!parseHttpUrl(url))
    fail(option, `holds "${url}", which is not an http(s) URL; give a full URL such as https://example.test/webhook.`);
}
