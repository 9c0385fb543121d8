/**
 * `payment-contract-kit/mock`: a stateful mock of the card-payment service (REST token endpoints, GraphQL at
 * `/graphql`, the payment status webhook), with a control handle for tests.
 *
 * - {@link startMockServer} listens and returns `{ url, close, control }`; port 0 picks a free port.
 * - {@link createMockApp} builds the same mock with no side effects: a `node:http` request listener (`handle`) and an
 *   in-process Fetch API entry (`fetch(request): Promise<Response>`).
 * - {@link testCards} and {@link feeTable} are the documented fixtures the mock answers with.
 *
 * @example
 * import { startMockServer, testCards } from 'payment-contract-kit/mock';
 * const mock = await startMockServer({ port: 0, guide: 'both' });
 * const { token } = mock.control.issueToken('test-client');
 * // ... call `${mock.url}/graphql` with header x-jwt-token: token
 * mock.control.advanceClock(10 * 60 * 1000); // the token is now expired
 * await mock.close();
 *
 * @module
 */
// One export list for both builds (shared-exports.ts); only createMockApp and startMockServer differ between them.
export { createMockApp } from './app.ts';
export { startMockServer } from './server.ts';
export * from './shared-exports.ts';
