/**
 * The options a team passes to the mock (`createMockApp`, `startMockServer`, `createMockHandlers`), one documented
 * field each. What checks them is option-table.ts; what applies their defaults is options.ts.
 *
 * @module
 */

import type { AssumptionOverrides } from '../assumptions.ts';
import type { CorsInput } from './internal/http/browser-options.ts';
import type { MockClientConfig, MockGuide, MockLatency, MockLogFormat, MockLogSink } from './internal/option-types.ts';
import type { SandboxStore } from './internal/store/sandbox-store.ts';

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
