/**
 * The secret values a proxy has seen, and the replacement of every one of them wherever it shows up in a text.
 *
 * A proxy that runs for hours sees thousands of tokens, and learns a new one on almost every exchange. One regular
 * expression of all of them would have to be compiled again after each new token (hundreds of milliseconds once
 * there are a few thousand). Instead the secrets are filed by a hash of their first characters, so adding one costs
 * nothing and a scan costs one lookup per position of the text, however many secrets are known.
 *
 * @module
 */

/** The shortest secret kept: shorter values would match ordinary text. Also the width of the hashed prefix. */
export const shortestSecret = 6;

/** Secrets seen so far, oldest first forgotten past a bound. */
export interface KnownSecrets {
  /** How many secrets are kept. */
  readonly size: number;
  /** Keeps a value (ignored when shorter than {@link shortestSecret} or kept already); forgets the oldest past the bound. */
  add(value: string): void;
  /**
   * The text with every kept secret replaced: at each position the longest secret starting there, scanning left to
   * right, so a secret that contains another is replaced whole.
   */
  replaceIn(text: string, replacement: string): string;
}

function prefixHash(text: string, at: number): number {
  let h = 0;
  for (let i = at; i < at + shortestSecret; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h;
}

/**
 * Creates an empty set of known secrets that keeps at most `max` of them.
 *
 * @example
 * const secrets = createKnownSecrets(100);
 * secrets.add('tok-123456');
 * secrets.replaceIn('Bearer tok-123456', '[redacted]'); // 'Bearer [redacted]'
 */
export function createKnownSecrets(max: number): KnownSecrets {
  // Insertion order is the order of forgetting.
  const kept = new Set<string>();
  // Secrets by the hash of their first characters, longest first within a bucket.
  const buckets = new Map<number, string[]>();
  const forget = (value: string) => {
    kept.delete(value);
    const key = prefixHash(value, 0);
    const bucket = buckets.get(key)!;
    if (bucket.length === 1) buckets.delete(key);
    else bucket.splice(bucket.indexOf(value), 1);
  };
  return {
    get size() {
      return kept.size;
    },
    add(value) {
      if (value.length < shortestSecret || kept.has(value)) return;
      if (kept.size >= max) forget(kept.values().next().value as string);
      kept.add(value);
      const key = prefixHash(value, 0);
      const bucket = buckets.get(key);
      if (!bucket) buckets.set(key, [value]);
      else {
        const at = bucket.findIndex((other) => other.length < value.length);
        bucket.splice(at === -1 ? bucket.length : at, 0, value);
      }
    },
    replaceIn(text, replacement) {
      if (kept.size === 0) return text;
      let out = '';
      let copiedTo = 0;
      let i = 0;
      while (i <= text.length - shortestSecret) {
        const hit = buckets.get(prefixHash(text, i))?.find((secret) => text.startsWith(secret, i));
        if (hit === undefined) i++;
        else {
          out += text.slice(copiedTo, i) + replacement;
          i += hit.length;
          copiedTo = i;
        }
      }
      return copiedTo === 0 ? text : out + text.slice(copiedTo);
    },
  };
}
