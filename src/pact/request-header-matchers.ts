/**
 * Matchers for the two headers the spec tells clients to send (section 4: `Content-Type: application/json`,
 * `Accept: application/json`) but that the service reads no meaning from beyond "JSON": each ordinary client spells
 * them its own way (graphql-request and Apollo Client ask for `application/graphql-response+json` first, urql adds
 * more, `fetch` sends `*` + `/*`), so a consumer contract that pinned the literal would fail for a client that works
 * against the service. The examples stay the spec's literal, which is what a provider verification replays.
 *
 * @module
 */
import { MatchersV3 } from '@pact-foundation/pact';
import type { AnyMatcher } from './template.ts';

/**
 * One entry of an `Accept` list: any media range (`application/json`, `application/graphql-response+json`,
 * `text/event-stream`, `*` + `/*`), with or without parameters such as `q=0.9`. Pact splits a header on commas and
 * matches every entry on its own, so this pattern describes one entry, and any list of media ranges matches: the
 * service answers JSON whatever the client lists. Written for both regex engines that read it (pact-js in
 * JavaScript, the Pact core in Rust): no look-around, no inline flags.
 */
export const acceptHeaderPattern = '^\\s*(?:[A-Za-z0-9!#$&^_.+-]+|\\*)/(?:[A-Za-z0-9!#$&^_.+-]+|\\*)\\s*(?:;.*)?$';

/** A `Content-Type` value of a JSON body: `application/json`, with or without parameters (`charset=utf-8`). */
export const contentTypeJsonPattern = '^application/json\\s*(?:;.*)?$';

/**
 * Matches any `Accept` header an HTTP client sends (a list of media ranges); the example (what a provider
 * verification replays) is the spec's `application/json`.
 *
 * @example
 * b.headers({ Accept: acceptHeader() }); // matches 'application/graphql-response+json, application/json' and '*' + '/*'
 */
export function acceptHeader(): AnyMatcher {
  return MatchersV3.regex(acceptHeaderPattern, 'application/json');
}

/**
 * Matches the `Content-Type` of a JSON body with or without parameters; the example is the spec's `application/json`.
 *
 * @example
 * b.headers({ 'Content-Type': contentTypeJson() }); // matches 'application/json; charset=utf-8' too
 */
export function contentTypeJson(): AnyMatcher {
  return MatchersV3.regex(contentTypeJsonPattern, 'application/json');
}
