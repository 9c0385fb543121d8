/**
 * How deep a JSON text nests, found without parsing it and without recursion. Every entry that reads JSON from
 * outside (the mock's request bodies, the proxy's requests and answers, the checker's HAR and pact files, the webhook
 * sender's metadata) checks the text with this before it parses it: `JSON.parse` itself copes with any depth, but
 * what walks the value afterwards (`JSON.stringify`, graphql-js's variable coercion, the kit's own walks) recurses,
 * and a body nested a few thousand levels deep ran it out of stack (a 500 from the mock). A bound at the door keeps
 * every later walk bounded. The limit is `Assumptions.limits.maxJsonDepth` (ASSUMPTIONS.md, "Limits").
 *
 * @module
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether `text` nests objects and arrays at most `maxDepth` levels deep (a top-level object or array is level 1).
 * Brackets inside strings do not count. Malformed text is not judged here: the parser refuses it afterwards.
 * Stops at the first level past the limit, so a hostile body costs no more than its first `maxDepth` openings.
 *
 * @example
 * jsonDepthWithin('{"a":[1,{"b":"[["}]}', 3); // true
 * jsonDepthWithin('[[[[1]]]]', 3); // false
 */
export function jsonDepthWithin(text: string, maxDepth: number): boolean {
  // Each level opens with a brace or bracket, so a text with no more of them than levels allowed cannot nest deeper.
  // Counting them with indexOf is several times cheaper than the scan below, and a request's body almost always has
  // few (a payment's has six); only a text with many falls through to the scan.
  if (text.length <= maxDepth || openingsWithin(text, maxDepth)) return true;
  let depth = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = endOfString(text, i + 1);
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      if (depth > maxDepth) return false;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
    i++;
  }
  return true;
}

/** Whether `text` holds at most `max` opening braces and brackets, inside strings or not. */
function openingsWithin(text: string, max: number): boolean {
  let count = 0;
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1)) if (++count > max) return false;
  for (let i = text.indexOf('['); i !== -1; i = text.indexOf('[', i + 1)) if (++count > max) return false;
  return true;
}

/** The index just past the string that starts before `from` (its closing quote), or the text's end. */
function endOfString(text: string, from: number): number {
  let i = from;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote === -1) return text.length;
    // An odd run of backslashes before the quote escapes it.
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    i = quote + 1;
  }
}

/**
 * The message for JSON nested deeper than the limit, naming what was read, the limit and how to raise it (`raise`,
 * such as "the flag --max-json-depth or the mock option assumptions.limits.maxJsonDepth").
 */
export function tooDeepJsonMessage(what: string, maxDepth: number, raise?: string): string {
  return `${what} nests objects or arrays more than ${maxDepth} levels deep (maxJsonDepth): send flatter JSON${raise ? `, or raise the limit with ${raise}` : ''}.`;
}
