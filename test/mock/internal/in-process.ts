/**
 * The in-process fixture of the route tests: a mock app answered through `app.fetch` (no socket), with the same
 * `post`/`get` helpers as the socket tests and a graphql-request client whose `fetch` is the app's.
 *
 * @module
 */
import { GraphQLClient } from 'graphql-request';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createMockApp, type MockApp, type MockOptions } from '../../../src/mock/index.ts';
import { servicePaths } from '../../../src/spec-names.ts';
import { requestsVia } from '../helpers.ts';

/** The two clients the route tests configure: the default one and another, for cross-client checks. */
export const routeTestClients = [
  { clientId: 'test-client', apiKey: 'test-api-key' },
  { clientId: 'other-client', apiKey: 'other-key' },
] as const;

/** Base URL of in-process requests; only the path and query reach the mock. */
export const inProcessUrl = 'http://mock.test';

/**
 * Creates a mock app for in-process requests. Close it with `close()` in teardown.
 *
 * @example
 * const m = startInProcess({ guide: 'legacy' });
 * const r = await m.post(m.url + '/__pck/reset');
 */
export function startInProcess(options: MockOptions = {}) {
  const app = createMockApp({ log: false, ...options });
  // graphql-request calls fetch(url, init); the helpers pass a Request.
  const send = (input: Request | string | URL, init?: RequestInit) =>
    app.fetch(input instanceof Request ? input : new Request(input, init));
  return {
    app,
    url: inProcessUrl,
    control: app.control,
    ...requestsVia(send),
    /** A graphql-request client on `/graphql` with `x-jwt-token` (and `extra` headers), over `app.fetch`. */
    gql: (token: string, extra: Record<string, string> = {}) =>
      new GraphQLClient(`${inProcessUrl}${servicePaths.graphql}`, {
        headers: { 'x-jwt-token': token, ...extra },
        fetch: send as typeof fetch,
      }),
    close: () => app.close(),
  };
}

/**
 * One in-process mock for a test file or describe block (both guides, {@link routeTestClients} unless `options`
 * say otherwise): warmed up before the tests, reset after each, closed at the end.
 *
 * @example
 * const { mock, url } = inProcessSuite();
 * it('answers health', async () => expect((await mock.get(url('/__pck/health'))).status).toBe(200));
 */
export function inProcessSuite(options: MockOptions = {}) {
  const mock = startInProcess({ guide: 'both', clients: [...routeTestClients], ...options });
  beforeAll(() => mock.control.warmUp());
  afterAll(() => mock.close());
  afterEach(() => mock.control.reset());
  return { mock, url: (path: string) => `${mock.url}${path}` };
}

export { gqlError } from '../helpers.ts';

/**
 * A factory of mock apps for tests that each need their own options: every app it made is closed after each test.
 *
 * @example
 * const mockApp = appsClosedAfterEach();
 * it('serves the landing page', async () => { const app = mockApp({ ui: true }); ... });
 */
export function appsClosedAfterEach(): (options?: MockOptions) => MockApp {
  const apps: MockApp[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });
  return (options = {}) => {
    const app = createMockApp({ log: false, ...options });
    apps.push(app);
    return app;
  };
}
