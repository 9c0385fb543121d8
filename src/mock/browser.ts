/**
 * `payment-contract-kit/mock` in browsers, web workers and edge runtimes (package.json's `browser` and `worker`
 * conditions pick this build; it holds no Node built-in). The same exports as the Node build: `createMockApp(options)`
 * builds the stateful mock on the Web APIs, and `app.fetch(request)` answers the token paths, `/graphql` and the
 * control API with the same state, validation, outcomes, clock and control handle. `startMockServer` and
 * `app.handle` need sockets and throw here, saying what to use instead. For a page with msw's `setupWorker`, use
 * `payment-contract-kit/msw`.
 *
 * @example
 * import { createMockApp } from 'payment-contract-kit/mock';
 * const app = createMockApp({ log: false });
 * const answer = await app.fetch(new Request('http://mock/__pck/health'));
 *
 * @module
 */
// One export list for both builds (shared-exports.ts); only createMockApp and startMockServer differ between them.
export * from './shared-exports.ts';
export { createMockApp, startMockServer } from './web-app.ts';
