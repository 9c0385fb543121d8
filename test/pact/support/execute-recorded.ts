// Runs a consumer's requests against a Pact mock server and hands the verdict back to pact-js only once the server
// has recorded what it answered.
//
// Why: the mock server in pact-core's native library (pact_mock_server 2.2.1, in pact-core up to 20.0) answers a
// request first and records the match afterwards, in a separate task fed through a channel. pact-js's executeTest
// asks for the mismatches as soon as the test function returns, so on a loaded machine it can ask before that task
// has run: it then reports a request the client has just been answered as "expected but not received", and the
// interaction goes missing from the pact file. pact_mock_server 2.2.4 records the match before answering; when
// pact-core 20.1 or later is in, the wait below is satisfied at once and this module can go.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { setTimeout as sleep } from 'node:timers/promises';
import type { V3MockServer } from '@pact-foundation/pact';
// pact-js's own core, installed with it: the only way to read a mock server's record before pact-js does.
import { getFfiLib } from '@pact-foundation/pact-core';

/** What pact-js's `executeTest` needs: an HTTP interaction ready to run. */
export interface ExecutableInteraction<T> {
  executeTest(testFn: (server: V3MockServer) => Promise<T>): Promise<T | undefined>;
}

// Published by the fetch built into Node (undici) when a response's headers arrive.
const responseHeaders = 'undici:request:headers';

interface MockServerEntry {
  type: string;
}

/**
 * True once the mock server has recorded the requests it answered. pact-js gives each interaction its own server,
 * so either the interaction has matched (no `missing-request` left) or every answered request is on record as not
 * matching it. Both become true: the server queues its record of a request before it sends the answer.
 */
function hasRecorded(port: number, answered: number): boolean {
  const entries = JSON.parse(getFfiLib().pactffiMockServerMismatches(port)) as MockServerEntry[];
  const unmatched = entries.filter((e) => e.type !== 'missing-request');
  return unmatched.length === entries.length || unmatched.length >= answered;
}

/**
 * `exercise` as a test function for pact-js's `executeTest` that returns only once the mock server has recorded every
 * request it answered during `exercise` (counted from the responses `fetch` received from it). For builder chains that
 * end in `.executeTest(…)`: `.executeTest(recordingAnswers(async (server) => …))`.
 */
export function recordingAnswers<T>(
  exercise: (server: V3MockServer) => Promise<T>,
): (server: V3MockServer) => Promise<T> {
  return async (server) => {
    let answered = 0;
    const count = (message: unknown) => {
      if ((message as { request: { origin?: string } }).request.origin === server.url) answered++;
    };
    subscribe(responseHeaders, count);
    try {
      return await exercise(server);
    } finally {
      unsubscribe(responseHeaders, count);
      // Polled: the native library offers no way to wait for its record. A millisecond apart leaves the cores to
      // the server's task; the first check passes unless the task has not run yet.
      while (answered > 0 && !hasRecorded(server.port, answered)) await sleep(1);
    }
  };
}

/**
 * `interaction.executeTest(exercise)`, except that pact-js checks the mock server only after the server has
 * recorded every request it answered during `exercise` ({@link recordingAnswers}).
 *
 * @example
 * await executeRecorded(pact.addInteraction().uponReceiving('…').withRequest('POST', '/x').willRespondWith(200),
 *   (server) => fetch(`${server.url}/x`, { method: 'POST' }));
 */
export function executeRecorded<T>(
  interaction: ExecutableInteraction<T>,
  exercise: (server: V3MockServer) => Promise<T>,
): Promise<T | undefined> {
  return interaction.executeTest(recordingAnswers(exercise));
}
