/**
 * `createMockApp` and `startMockServer` in the browser and worker build of `payment-contract-kit/mock`: the same
 * isomorphic core as under Node (core-app.ts), on the web platform. `app.fetch(request)` answers as the Node build
 * does; what needs Node (a listening socket, the `node:http` listener, file and Redis stores) says so when called,
 * with what to use instead, rather than failing at import.
 *
 * @module
 */
import { kitMessage } from '../internal/messages.ts';
import type { MockApp, MockServer } from './control-types.ts';
import { buildMockApp } from './core-app.ts';
import type { MockOptions } from './options.ts';
import { webPlatform } from './web-platform.ts';

const noSockets =
  'this is the browser and worker build of payment-contract-kit/mock, which has no sockets: answer requests with createMockApp(options).fetch(request), or use payment-contract-kit/msw for a page.';

/**
 * Creates the mock without listening, on the Web APIs browsers, workers and edge runtimes share. `app.fetch` answers
 * Fetch API requests; `app.handle` (the `node:http` listener) throws here.
 *
 * @example
 * const app = createMockApp({ log: false });
 * export default { fetch: (request: Request) => app.fetch(request) }; // an edge worker answering as the service
 */
export function createMockApp(options: MockOptions = {}): MockApp {
  const { app } = buildMockApp(options, { platform: webPlatform });
  return {
    ...app,
    handle: () => {
      throw new TypeError(kitMessage(`app.handle is the node:http listener, and ${noSockets}`));
    },
  };
}

/**
 * Rejects in this build: a browser or worker cannot listen on a port. Kept so code shared with Node tests bundles,
 * and fails with what to use instead when it runs here.
 *
 * @example
 * await startMockServer({ port: 0 }); // rejects: use createMockApp(options).fetch(request) here
 */
export async function startMockServer(_options: MockOptions = {}): Promise<MockServer> {
  throw new TypeError(kitMessage(`startMockServer needs Node (node:http), and ${noSockets}`));
}
