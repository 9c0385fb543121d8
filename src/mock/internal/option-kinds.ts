/**
 * The value kinds only the mock's options take (clients, latency, a Standard Webhooks secret, a log sink, a clock): each checks a value from code or a config file and, where it has a flag, reads the flag's text.
 * The shared kinds (whole numbers, lists of URLs, ...) are in `src/internal/option-table.ts`, the assumptions' in
 * `src/internal/assumption-overrides.ts`.
 *
 * @module
 */
import { parseHttpUrl } from '../../internal/http-url.ts';
import { type Checked, codeOnly, codeOrJson, httpUrls, Problem, type ValueKind } from '../../internal/option-table.ts';
import { isPlainObject } from '../../internal/plain-object.ts';

/** The client shape the `clients` kind accepts (the options module's `MockClientConfig`). */
export interface ClientShape {
  readonly clientId: string;
  readonly apiKey: string;
  readonly webhookUrls?: readonly string[];
  readonly signingKey?: string;
}

const webhookUrls = httpUrls((raw) => parseHttpUrl(raw) !== undefined);

/** `clients`: at least one `{ clientId, apiKey, webhookUrls?, signingKey? }`, each client id once. */
export const clientsKind: ValueKind<readonly ClientShape[]> = codeOrJson((value) => {
  if (!Array.isArray(value) || value.length === 0)
    return new Problem('must list at least one { clientId, apiKey }; leave it out for test-client / test-api-key.');
  const seen = new Set<string>();
  for (const [i, c] of (value as unknown[]).entries()) {
    const o = c as Record<string, unknown> | null;
    if (!isPlainObject(o) || !nonEmpty(o.clientId) || !nonEmpty(o.apiKey))
      return new Problem(`clients[${i}] needs a non-empty string clientId and apiKey.`, true);
    if (seen.has(o.clientId))
      return new Problem(`clients[${i}] repeats clientId "${o.clientId}"; give each once.`, true);
    seen.add(o.clientId);
    if (o.webhookUrls !== undefined) {
      const urls = webhookUrls.check(o.webhookUrls);
      if (urls instanceof Problem) return new Problem(`clients[${i}].webhookUrls ${urls.text}`, true);
    }
    if (o.signingKey !== undefined && typeof o.signingKey !== 'string')
      return new Problem(`clients[${i}].signingKey must be a string.`, true);
  }
  return value as readonly ClientShape[];
});

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/** `latency`: `{ minMs, maxMs }` in code and JSON; `50-300` or `2000` (milliseconds) as text. */
export const latencyKind: ValueKind<{ readonly minMs: number; readonly maxMs: number }> = {
  placeholder: 'min-max',
  read: (raw) => {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(raw);
    const min = m ? Number(m[1]) : Number.NaN;
    const max = m?.[2] !== undefined ? Number(m[2]) : min;
    if (!m || max < min)
      return new Problem(`must be <min-max> or <ms> in milliseconds with min <= max, e.g. 50-300, got "${raw}".`);
    return { minMs: min, maxMs: max };
  },
  check: (value) => {
    const { minMs, maxMs } = (isPlainObject(value) ? value : {}) as Record<string, unknown>;
    if (typeof minMs !== 'number' || typeof maxMs !== 'number' || !Number.isFinite(minMs) || !Number.isFinite(maxMs))
      return new Problem('needs { minMs, maxMs } in milliseconds, such as { "minMs": 50, "maxMs": 300 }.');
    if (minMs < 0 || maxMs < minMs) return new Problem(`needs 0 <= minMs <= maxMs; got ${minMs}-${maxMs}.`);
    return { minMs, maxMs };
  },
};

/** A Standard Webhooks secret: `whsec_` and base64. */
export const standardSecretKind: ValueKind<string> = (() => {
  const check = (value: unknown): Checked<string> =>
    typeof value === 'string' && /^whsec_[A-Za-z0-9+/]+={0,2}$/.test(value)
      ? value
      : new Problem('must be a Standard Webhooks secret: "whsec_" followed by base64.');
  return { placeholder: 'whsec_...', read: check, check };
})();

/** The control token: a header value of visible characters, long enough not to be guessed by hand. */
export const controlTokenKind: ValueKind<string> = (() => {
  const check = (value: unknown): Checked<string> =>
    typeof value === 'string' && /^[\x21-\x7e]{8,}$/.test(value)
      ? value
      : new Problem('must be at least 8 visible ASCII characters without spaces (it travels as a Bearer token).');
  return { placeholder: 'secret', read: check, check };
})();

/** The request log: a function receiving lines, or `false` for none. */
export const logSinkKind = codeOnly<((chunk: string) => void) | false>((value) =>
  typeof value === 'function' || value === false
    ? (value as ((chunk: string) => void) | false)
    : new Problem('must be a function receiving log lines, or false for no log.'),
);

/** A source of real time: a function answering milliseconds. */
export const realNowKind = codeOnly<() => number>((value) =>
  typeof value === 'function'
    ? (value as () => number)
    : new Problem('must be a function answering Date.now()-style milliseconds.'),
);
