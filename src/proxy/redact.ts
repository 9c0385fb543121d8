/**
 * What the proxy writes (report, HAR, log lines, summary) never holds a secret: card numbers keep at most their first
 * 6 and last 4 digits, CVVs are replaced whole, and API keys, access and refresh tokens and webhook signing keys are
 * replaced by `[redacted]`. The forwarded traffic itself is never touched; only copies meant for writing pass here.
 *
 * Three layers, because a secret can sit anywhere a checker or a service put it: known fields and headers are
 * replaced by name; every secret value seen in a header or a known field is remembered and replaced wherever it
 * shows up again (a token quoted in a drift's `actual`, say); and any Luhn-valid run of 12 or more digits is masked
 * like a card number (Luhn, so that a millisecond timestamp in a drift stays readable), by the checker's own rule.
 *
 * @module
 */
import { maskCardNumbers } from '../contract/card-masking.ts';
import { cardNumberFields } from '../contract/guides.ts';
import { createKnownSecrets } from './known-secrets.ts';

/** What a redacted secret reads. */
export const redactedText = '[redacted]';
/** What a CVV reads. */
export const redactedCvv = '***';

/** JSON fields holding a card number: the current and the legacy guide's names. */
const cardFields = cardNumberFields;
/** JSON fields holding a credential. */
const secretFields: ReadonlySet<string> = new Set([
  'token',
  'refresh_token',
  'access_token',
  'api_key',
  'apikey',
  'client_secret',
  'password',
  'signing_key',
  'secret',
]);
/** Header names that carry credentials: the spec's, the ledger's and the usual ones, by pattern. */
const secretHeader =
  /(^authorization$|^proxy-authorization$|^cookie$|^set-cookie$|key|token|secret|signature|password)/i;

/** An HTTP authentication scheme in front of a credential: `Bearer <token>`, `Basic <base64>`. */
const authScheme = /^(?:bearer|basic|token)\s+(\S+)$/i;

// A CVV written inline in GraphQL text or loose JSON: `cvv: "123"`, `"cvv":"123"`, `cvv: 123`.
const inlineCvv = /("?cvv"?\s*:\s*)("(?:[^"\\]|\\.)*"|\d+)/gi;

/** Masks one card number to its first 6 and last 4 digits (shorter numbers lose all but the last 4). */
export function maskCardNumber(digits: string): string {
  const d = digits.replace(/[ -]/g, '');
  if (d.length >= 13) return `${d.slice(0, 6)}${'*'.repeat(d.length - 10)}${d.slice(-4)}`;
  return d.length > 4 ? `${'*'.repeat(d.length - 4)}${d.slice(-4)}` : '*'.repeat(d.length);
}

/** Remembers secret values and takes them out of any text or value meant for writing. */
export interface Redactor {
  /** Remembers a secret value (at least 6 characters; shorter ones would match ordinary text). */
  remember(value: string): void;
  /** Remembers the credentials among headers (flat raw list or record) and returns a copy with them redacted. */
  headers(raw: readonly string[]): string[];
  /** Only remembers the credentials among headers (nothing is written now: no redacted copy is built). */
  rememberHeaders(raw: readonly string[]): void;
  /** A body for writing: JSON gets its secret fields replaced; any text gets remembered secrets and digits masked. */
  body(text: string | undefined): string | undefined;
  /** Any string for writing (a drift's `actual`, a log line). */
  text(text: string): string;
  /**
   * Only the remembered secrets taken out: for a whole serialised document whose strings were redacted already
   * (masking digits there could hit a JSON number).
   */
  known(text: string): string;
  /** Any JSON-like value for writing, strings inside it redacted, secret fields replaced. */
  value<T>(value: T): T;
}

/** Most secret values remembered; the oldest is forgotten first (tokens are short-lived). */
const maxRemembered = 5_000;

/**
 * Creates a redactor; one per proxy, so a secret seen in one exchange is also taken out of the next.
 *
 * @example
 * const r = createRedactor();
 * r.headers(['x-api-key', 'k3y-value']); // ['x-api-key', '[redacted]'], and 'k3y-value' is remembered
 * r.text('key was k3y-value'); // 'key was [redacted]'
 */
export function createRedactor(): Redactor {
  const secrets = createKnownSecrets(maxRemembered);
  const remember = (value: string) => {
    const v = value.trim();
    if (v === redactedText) return;
    secrets.add(v);
    // An Authorization value's credential also shows up alone (a drift quoting the token), without its scheme.
    const credential = authScheme.exec(v)?.[1];
    if (credential !== undefined) secrets.add(credential);
  };
  const known = (input: string): string => secrets.replaceIn(input, redactedText);
  // The checker's rule for digit runs (maskCardNumbers), so the log, the report and `check` mask the same numbers.
  const text = (input: string): string =>
    maskCardNumbers(known(input).replace(inlineCvv, (_m, head: string) => `${head}"${redactedCvv}"`));
  const value = (input: unknown, field?: string, depth = 0): unknown => {
    if (field !== undefined) {
      const key = field.toLowerCase();
      if (key === 'cvv') return input === null || input === undefined ? input : redactedCvv;
      if (cardFields.has(key) && (typeof input === 'string' || typeof input === 'number'))
        return maskCardNumber(String(input));
      if (secretFields.has(key) && typeof input === 'string') {
        remember(input);
        return redactedText;
      }
    }
    if (typeof input === 'string') return text(input);
    if (typeof input !== 'object' || input === null || depth > 64) return input;
    if (Array.isArray(input)) return input.map((v) => value(v, undefined, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(input)) out[k] = value(v, k, depth + 1);
    return out;
  };
  return {
    remember,
    rememberHeaders(raw) {
      for (let i = 0; i < raw.length; i += 2) if (secretHeader.test(raw[i]!)) remember(raw[i + 1]!);
    },
    headers(raw) {
      const out: string[] = [];
      for (let i = 0; i < raw.length; i += 2) {
        const name = raw[i]!;
        const v = raw[i + 1]!;
        if (secretHeader.test(name)) {
          remember(v);
          out.push(name, redactedText);
        } else out.push(name, v);
      }
      // Second pass: a header value may repeat a secret remembered from an earlier header.
      for (let i = 1; i < out.length; i += 2) if (out[i] !== redactedText) out[i] = text(out[i]!);
      return out;
    },
    body(input) {
      if (input === undefined || input === '') return input;
      try {
        const parsed: unknown = JSON.parse(input);
        if (parsed !== null && typeof parsed === 'object') return JSON.stringify(value(parsed));
      } catch {
        // Not JSON: the text layers below still apply.
      }
      return text(input);
    },
    text,
    known,
    value: <T>(input: T) => value(input) as T,
  };
}
