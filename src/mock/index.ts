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
import { defaultAssumptions } from '../assumptions.ts';

export type { AssumptionOverrides, Assumptions, FeeRule, HistoryCaps } from '../assumptions.ts';
export { controlPrefix, servicePaths } from '../contract/service-names.ts';
export { createMockApp } from './app.ts';
export type {
  FailNextOptions,
  MockApp,
  MockCardInput,
  MockControl,
  MockDelivery,
  MockHistory,
  MockPage,
  MockPagedPayment,
  MockPageQuery,
  MockPayment,
  MockRequestMatcher,
  MockRequestRecord,
} from './control-types.ts';
export type { JournalFilter as MockRequestFilter } from './internal/control/journal.ts';
export { type CardOutcome, type TestCard, type TestCardName, testCards } from './internal/domain/test-cards.ts';
export type { PaymentFilter as MockPaymentFilter, SettlementOutcome } from './internal/payments/state.ts';
export type { DeliveryFilter as MockDeliveryFilter } from './internal/webhooks/delivery-store.ts';
export type {
  MockClientConfig,
  MockGuide,
  MockLatency,
  MockLogFormat,
  MockLogSink,
  MockOptions,
  ResolvedMockOptions,
} from './options.ts';
export { defaultMockOptions, resolveMockOptions } from './options.ts';
export { type MockServer, startMockServer } from './server.ts';

/**
 * The fee table the mock prices with by default (`Assumptions.feeTable`): one row per card type, percent plus fixed
 * part, GST inclusive. Override it with the `assumptions.feeTable` option.
 */
export const feeTable = defaultAssumptions.feeTable;

export { feeList, roundCents } from './internal/domain/fees.ts';
