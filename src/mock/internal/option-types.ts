/**
 * The plain types of the mock's options that parts of the mock read (a client, the guide, the latency, the log's sink
 * and format): here, below every folder of src/mock/internal, so a part takes what it needs without importing the
 * option table and its checks (src/mock/options.ts, which exports them).
 *
 * @module
 */

/** Which guide of the service the mock answers in: one of them, or both with per-request detection. */
export type MockGuide = 'current' | 'legacy' | 'both';

/** One client the mock accepts on the token endpoints. */
export interface MockClientConfig {
  /** Value expected in `x-client-id`. */
  readonly clientId: string;
  /** Value expected in `x-api-key`. */
  readonly apiKey: string;
  /** Webhook URLs of this client; defaults to the mock's `webhookUrls` option. */
  readonly webhookUrls?: readonly string[];
  /** Webhook signing key sent to this client's URLs; defaults to the mock's `webhookSigningKey` option. */
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
