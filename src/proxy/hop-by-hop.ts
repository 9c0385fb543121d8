/**
 * Hop-by-hop headers (RFC 9110 section 7.6.1): they describe one connection, not the message, so a proxy drops them
 * and forwards every other header as it came, in its order, with its own spelling and repeats.
 *
 * @module
 */

/** Headers that belong to one connection, whatever the Connection header says. */
const alwaysHopByHop: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
]);

function isHopByHop(lowerName: string, named: ReadonlySet<string> | undefined): boolean {
  return alwaysHopByHop.has(lowerName) || lowerName.startsWith('proxy-') || named?.has(lowerName) === true;
}

/**
 * The end-to-end headers of a message as a flat `[name, value, name, value, ...]` list (node's `rawHeaders`), in
 * their original order and spelling, without the hop-by-hop ones and those the Connection header names, nor any
 * named in `also` (lower case).
 *
 * @example
 * endToEndHeaders(['Connection', 'x-a', 'X-A', '1', 'Content-Type', 'application/json'])
 * // ['Content-Type', 'application/json']
 */
export function endToEndHeaders(raw: readonly string[], also?: ReadonlySet<string>): string[] {
  let named: Set<string> | undefined;
  // The length first: most names are not "connection", and this pass then lower-cases none of them.
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.length === 10 && raw[i]!.toLowerCase() === 'connection') {
      named ??= new Set();
      for (const token of raw[i + 1]!.split(',')) named.add(token.trim().toLowerCase());
    }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const lower = raw[i]!.toLowerCase();
    if (!isHopByHop(lower, named) && !also?.has(lower)) out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

/**
 * A header map for the checker (lower-case names, repeats joined with `, `) from a flat raw list.
 *
 * @example
 * headerRecord(['Content-Type', 'application/json']) // { 'content-type': 'application/json' }
 */
export function headerRecord(raw: readonly string[]): Record<string, string> {
  // No prototype: a header named __proto__ is a header like any other.
  const out: Record<string, string> = Object.create(null);
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    out[name] = name in out ? `${out[name]}, ${raw[i + 1]}` : raw[i + 1]!;
  }
  return out;
}
