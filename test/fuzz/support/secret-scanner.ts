/**
 * A scanner for card data in anything the mock produced: log text, response bodies, control-API bodies and webhook
 * bodies. It looks for two things.
 *
 * **Card numbers.** A run of 12 to 19 digits that passes the Luhn check. A run is either contiguous digits or
 * groups of digits joined by single spaces or dashes (`4111 1111 1111 1111`, `4111-1111-1111-1111`), and it must stand
 * alone: the characters right before and after it are not letters, digits or `_`, so digits inside a JWT, a base64
 * string or a hex id are not runs. What is exempt, to keep false positives out:
 * - UUIDs (`8-4-4-4-12` hex groups) are blanked before scanning: their last group can be 12 digits, Luhn-valid by chance;
 * - in JSON text, a bare number (not a string) that is the value of a time key: one of {@link timeKeys} (such as
 *   `now`, `at` or `expiration`) or any camelCase key ending in `At` (`enqueuedAt`, `nextAttemptAt`): epoch
 *   milliseconds have 13 digits and are Luhn-valid one time in ten;
 * - the parts of a decimal number (`0.123456789012345`, as a duration): digits right after `<digit>.` or right
 *   before `.<digit>` are a fraction or its integer part, not a card number.
 * Everything else is scanned: digits inside JSON string values (messages, masked cards, ids), bare JSON numbers under
 * any other key, and free log text.
 *
 * **CVVs.** Only the CVVs the caller says were sent (`cvvs`), and only where a CVV could leak, never as any 3-digit
 * substring:
 * - next to a CVV-like key (`cvv`, `cvc`, `cvv2`, `security_code`; any case), with `:` or `=` and optional quotes,
 *   escaped quotes or spaces between: JSON (`"cvv":"739"`, `"cvv": 739`), JSON inside a string (`\"cvv\":\"739\"`),
 *   and GraphQL's inspect-style messages (`cvv: "739"`);
 * - as a whole quoted string value, plain or escaped (`"739"`, `\"739\"`), as in `found "739"` of a coercion message.
 *
 * Findings carry the offset and an excerpt with every digit hidden, so a failing test's output leaks nothing.
 *
 * @module
 */

/** Keys whose bare numeric JSON values are timestamps or counters, exempt from the card number check. */
export const timeKeys: ReadonlySet<string> = new Set([
  'now',
  'at',
  'time',
  'timestamp',
  'expiration',
  'expiresAt',
  'createdAt',
  'updatedAt',
  'settledAt',
  'sentAt',
  'dueAt',
  'nextAttemptAt',
  'receivedAt',
  'startedAt',
  'finishedAt',
  'since',
  'cursor',
  'iat',
  'exp',
]);

/** One piece of card data found. */
export interface SecretFinding {
  readonly kind: 'card-number' | 'cvv';
  /** Offset of the value in the scanned text. */
  readonly offset: number;
  /** Up to 20 characters either side, with the value itself masked. */
  readonly excerpt: string;
}

/** What {@link scanForSecrets} looks at. */
export interface ScanOptions {
  /** The CVVs sent to the mock (3 or 4 digits each); other 3–4 digit values are never reported. */
  readonly cvvs?: Iterable<string>;
}

/** Whether `digits` passes the Luhn check. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

const uuid = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/g;
// A lone digit run, optionally in groups joined by one space or dash; not glued to a word character on either side.
const digitRun = /(?<![\w]|\d\.)\d+(?:[ -]\d+)*(?![\w]|\.\d)/g;
// A bare JSON number right after a key: "key": 1763900000000
const keyedNumber = /"([A-Za-z_]+)"\s*:\s*(-?\d+)(?=[\s,}\]])/g;
const cvvKey = /(?<![A-Za-z0-9])(?:cvv2?|cvc2?|security_code)\\?"?\s*[:=]\s*\\?"?(\d{3,4})(?!\d)/gi;
const quotedValue = /(\\?")(\d{3,4})\1/g;

function excerpt(text: string, start: number, length: number): string {
  const from = Math.max(0, start - 20);
  const to = Math.min(text.length, start + length + 20);
  // Digits around the value are hidden too: another secret may sit right next to it.
  const hide = (s: string) => s.replace(/\d/g, '#');
  return `${hide(text.slice(from, start))}<${'#'.repeat(length)}>${hide(text.slice(start + length, to))}`;
}

/**
 * Scans `text` for Luhn-valid 12–19 digit runs and for the CVVs in `options.cvvs` (see the module comment for what
 * is exempt). Returns every finding; an empty list means clean.
 *
 * @example
 * scanForSecrets('{"message":"card 4111111111111111"}'); // one card-number finding
 * scanForSecrets('cvv: "739"', { cvvs: ['739'] }); // one cvv finding
 */
export function scanForSecrets(text: string, options: ScanOptions = {}): SecretFinding[] {
  const findings: SecretFinding[] = [];
  // Blank exempt spans with a same-length filler so offsets stay true.
  let scanned = text.replace(uuid, (m) => 'u'.repeat(m.length));
  scanned = scanned.replace(keyedNumber, (m, key: string, value: string) =>
    timeKeys.has(key) || /[a-z]At$/.test(key) ? m.slice(0, m.length - value.length) + 't'.repeat(value.length) : m,
  );
  for (const m of scanned.matchAll(digitRun)) {
    const digits = m[0].replace(/[ -]/g, '');
    if (digits.length < 12) continue;
    // A longer run may hold a card number with other digits around it only when groups separate them.
    const groups = m[0].split(/[ -]/);
    const candidates = digits.length <= 19 ? [digits] : [];
    if (groups.length > 1) for (const g of groups) if (g.length >= 12 && g.length <= 19) candidates.push(g);
    if (candidates.some(luhnValid))
      findings.push({ kind: 'card-number', offset: m.index, excerpt: excerpt(text, m.index, m[0].length) });
  }
  const cvvs = new Set(options.cvvs ?? []);
  if (cvvs.size > 0) {
    const seen = new Set<number>();
    for (const m of text.matchAll(cvvKey)) {
      const value = m[1]!;
      const at = m.index + m[0].lastIndexOf(value);
      if (cvvs.has(value) && !seen.has(at)) {
        seen.add(at);
        findings.push({ kind: 'cvv', offset: at, excerpt: excerpt(text, at, value.length) });
      }
    }
    for (const m of text.matchAll(quotedValue)) {
      const value = m[2]!;
      const at = m.index + m[1]!.length;
      if (cvvs.has(value) && !seen.has(at)) {
        seen.add(at);
        findings.push({ kind: 'cvv', offset: at, excerpt: excerpt(text, at, value.length) });
      }
    }
  }
  return findings.sort((a, b) => a.offset - b.offset);
}
