/**
 * What both builds of `payment-contract-kit/mock` export besides `createMockApp` and `startMockServer`: the types,
 * the fixtures and the option helpers, none of which needs Node. The Node entry (index.ts) and the browser and worker
 * entry (browser.ts) each add their own `createMockApp` and `startMockServer` to this one list.
 *
 * @module
 */
import { defaultAssumptions } from '../assumptions.ts';

export type { AssumptionOverrides, Assumptions, FeeRule, HistoryCaps } from '../assumptions.ts';
export { controlPrefix, servicePaths } from '../contract/service-names.ts';
export type {
  FailNextOptions,
  MockApp,
  MockCardInput,
  MockControl,
  MockCoverageReport,
  MockDelivery,
  MockHistory,
  MockPage,
  MockPagedPayment,
  MockPageQuery,
  MockPayment,
  MockRequestMatcher,
  MockRequestRecord,
  MockServer,
  MockStoreStatus,
} from './control-types.ts';
export { type TestCard, type TestCardName, testCards } from './internal/domain/cards.ts';
export type { JournalFilter as MockRequestFilter } from './internal/domain/journal.ts';
export type { PaymentFilter as MockPaymentFilter, SettlementOutcome } from './internal/domain/payments.ts';
export type { CardOutcome } from './internal/store/stored.ts';
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

/**
 * The fee table the mock prices with by default (`Assumptions.feeTable`): one row per card type, percent plus fixed
 * part, GST inclusive. Override it with the `assumptions.feeTable` option.
 */
export const feeTable = defaultAssumptions.feeTable;

export { feeList, roundCents } from './internal/domain/fees.ts';
