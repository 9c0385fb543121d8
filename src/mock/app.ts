/**
 * `createMockApp` under Node: the isomorphic core (core-app.ts) on the Node platform, plus its `node:http` request
 * listener. The browser and worker build of `payment-contract-kit/mock` has its own entry on the web platform.
 *
 * @module
 */
import type { MockApp } from './control-types.ts';
import { buildMockApp } from './core-app.ts';
import { createNodeListener } from './internal/http/node-adapter.ts';
import { nodePlatform } from './node-platform.ts';
import type { MockOptions } from './options.ts';

/**
 * Creates the mock without listening: a request handler and the control handle. No sockets, no timers.
 *
 * @example
 * const app = createMockApp({ guide: 'both' });
 * const res = await app.fetch(new Request('http://mock/__pck/health'));
 */
export function createMockApp(options: MockOptions = {}): MockApp {
  const { app, core, onWriteError } = buildMockApp(options, { platform: nodePlatform });
  return { ...app, handle: createNodeListener(core, app.options.maxBodyBytes, onWriteError) as MockApp['handle'] };
}
