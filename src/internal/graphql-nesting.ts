/**
 * How deep a GraphQL document nests, found with graphql-js's lexer (no recursion). graphql-js's parser recurses once
 * per level of `{`, `[` and `(`, so whether a document thousands of levels deep runs out of stack depends on how much
 * stack is in use and on how the parser was compiled at that moment: the same document was refused as too deep on
 * one run and parsed on the next. Bounding the nesting before the parse makes the verdict the same on every run; the
 * mock and the checker share the bound (ASSUMPTIONS.md, "Limits").
 *
 * @module
 */
import { Lexer, Source, TokenKind } from 'graphql/index.js';

/**
 * Deepest nesting of `{`, `[` and `(` together that the kit parses. The service's operations nest about ten levels,
 * the introspection query 23; the mock's field-depth limit (32) refuses any selection deeper long before this.
 */
export const MAX_DOCUMENT_NESTING = 1_000;

/**
 * Whether `text` nests past {@link MAX_DOCUMENT_NESTING}. Text the lexer cannot read is not judged here: the parser
 * reports its syntax error in its own words. Stops at the first level past the bound.
 *
 * @example
 * documentNestsTooDeep('{ a { b } }'); // false
 * documentNestsTooDeep('{ a(x: ' + '['.repeat(2_000) + ') }'); // true
 */
export function documentNestsTooDeep(text: string): boolean {
  // Fewer characters than levels allowed: it cannot nest deeper (each level takes one character at least).
  if (text.length <= MAX_DOCUMENT_NESTING) return false;
  let depth = 0;
  try {
    const lexer = new Lexer(new Source(text));
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      const kind = token.kind;
      if (kind === TokenKind.BRACE_L || kind === TokenKind.BRACKET_L || kind === TokenKind.PAREN_L) {
        depth += 1;
        if (depth > MAX_DOCUMENT_NESTING) return true;
      } else if (kind === TokenKind.BRACE_R || kind === TokenKind.BRACKET_R || kind === TokenKind.PAREN_R) depth -= 1;
    }
  } catch {
    // A lexing error is a syntax error, reported by the parser.
  }
  return false;
}
