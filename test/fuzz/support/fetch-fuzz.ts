/**
 * The hostile-input property of an entry that answers Fetch requests in process (the mock's `app.fetch`, the msw
 * handlers through msw's `getResponse`): the HTTP fuzz's random, mutated and schema-derived cases and the hostile
 * ones, half and half, each sent twice so the second meets the caches the first filled. Every answer must be below
 * 500, JSON and in the spec's shape for its route; the entry must never reject.
 *
 * @module
 */
import fc from 'fast-check';
import type { EntryTally } from './entry-outcomes.ts';
import { shortInput, statusClass } from './entry-outcomes.ts';
import type { FuzzSettings } from './fuzz-settings.ts';
import { feeListQuery } from './hostile-bodies.ts';
import { isPageRequest, pageProblem, replyProblem } from './reply-shape.ts';
import { CURRENT_TOKEN, type FuzzCase, fuzzCase, hostileCase } from './request-arbitraries.ts';

/** An entry under fuzz: answers a request, or `undefined` when it leaves the request to someone else. */
export type FetchEntry = (request: Request) => Promise<Response | undefined>;

/** The case as a Fetch request, or `undefined` when Fetch itself refuses it (CONNECT, TRACE, a bad header). */
function requestOf(origin: string, c: FuzzCase, token: string): Request | undefined {
  const headers = Object.fromEntries(Object.entries(c.headers).map(([k, v]) => [k, v.replace(CURRENT_TOKEN, token)]));
  try {
    return new Request(`${origin}${c.path}`, {
      method: c.method,
      headers,
      ...(c.body === undefined ? {} : { body: Buffer.from(c.body, c.encoding ?? 'utf8') }),
    });
  } catch {
    return undefined;
  }
}

/** A valid fee list request: the compiled plan keeps its answer, the route its outcome by body text. */
export function feeListRequest(origin: string, token: string): Request {
  return new Request(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-jwt-token': token },
    body: JSON.stringify({ query: feeListQuery, variables: { amount: 100 } }),
  });
}

/**
 * Runs the property against `entry` on `origin`, counting into `tally`. `issueToken` gives a valid access token
 * (renewed every 32 cases: a fuzzed reset, clock advance or revoke may have cost the last one).
 */
export async function fuzzFetchEntry(
  entry: FetchEntry,
  origin: string,
  issueToken: () => string,
  tally: EntryTally,
  settings: FuzzSettings,
): Promise<void> {
  // Messages fail-next was asked to answer with (the mock echoes a tester's message as it is).
  const injected = new Set<string>();
  const noteInjected = (c: FuzzCase) => {
    if (!c.path.startsWith('/__pck/fail-next') || c.body === undefined) return;
    try {
      const message = (JSON.parse(c.body) as { message?: unknown } | null)?.message;
      if (typeof message === 'string') injected.add(message);
    } catch {
      // Not JSON: refused, so nothing is injected.
    }
  };
  const answerOf = async (c: FuzzCase, token: string): Promise<void> => {
    const request = requestOf(origin, c, token);
    if (request === undefined) return;
    const input = `${c.method} ${c.path.slice(0, 200)} body=${shortInput(c.body ?? '')}`;
    let response: Response | undefined;
    let text: string;
    try {
      response = await entry(request);
      if (response === undefined) {
        tally.status('passed-on');
        return;
      }
      text = await response.text();
    } catch (error) {
      tally.crash(error, input);
      return;
    }
    tally.status(statusClass(response.status));
    const contentType = response.headers.get('content-type') ?? '';
    const problem = isPageRequest(c.method, c.path, c.headers)
      ? pageProblem(response.status, contentType)
      : replyProblem(c.kind, c.method, response.status, contentType, text, injected);
    if (problem) tally.problem(`${c.label}: ${problem}`, `${input}\n    -> ${response.status} ${shortInput(text)}`);
  };
  let token = issueToken();
  await fc.assert(
    // Half the cases hostile: the few hundred of `npm test` must reach the deep and odd bodies on every path.
    fc.asyncProperty(fc.oneof(fuzzCase, hostileCase), async (c) => {
      tally.cases++;
      noteInjected(c);
      await answerOf(c, token);
      await answerOf(c, token);
      if (tally.cases % 32 === 0) token = issueToken();
    }),
    { seed: settings.seed, numRuns: settings.runs, endOnFailure: true },
  );
}
