/**
 * `createMockApp` under Node: the isomorphic core (core-app.ts) on the Node platform, plus its `node:http` request
 * listener. The browser and worker build of `payment-contract-kit/mock` has its own entry on the web platform.
 *
 * @module
 */
import type { MockApp } from './control-types.ts';
import { buildMockApp, type MockAppSeams } from './core-app.ts';
import { createNodeListener } from './internal/http/node-adapter.ts';
import { nodePlatform } from './node-platform.ts';
import { nodeStoreSeams } from './node-store.ts';
import type { MockOptions } from './options.ts';

/**
 * Creates the mock without listening: a request handler and the control handle. No sockets, no timers.
 *
 * @example
 * const app = createMockApp({ guide: 'both' });
 * const res = await app.fetch(new Request('http://mock/__pck/health'));
 */
export function createMockApp(options: MockOptions = {}): MockApp {
  return buildNodeMockApp(options, {});
}

/**
 * {@link createMockApp} with the kit-internal seams other than the platform (in-process webhook receivers), on the
 * Node platform: what the kit's own tests and tools build when they need a receiver without a socket.
 *
 * @example
 * const app = buildNodeMockApp({ log: false }, { webhookReceivers: [() => new Response(null, { status: 204 })] });
 */
export function buildNodeMockApp(options: MockOptions, seams: Omit<MockAppSeams, 'platform'>): MockApp {
  const { app, core, onWriteError } = buildMockApp(options, {
    ...nodeStoreSeams,
    ...seams,
    platform: nodePlatform,
  });
  return { ...app, handle: createNodeListener(core, app.options.maxBodyBytes, onWriteError) as MockApp['handle'] };
}
