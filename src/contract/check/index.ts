/**
 * The one checker: the proxy, `check` and `verify` call {@link checkExchange}; teams call it, or wrap their `fetch`
 * with it, through `payment-contract-kit/check`.
 *
 * @module
 */
export { checkExchange } from './check-exchange.ts';
export {
  type CheckedExchange,
  type CheckedFetch,
  type CheckedFetchOptions,
  ContractDriftError,
  createCheckedFetch,
} from './checked-fetch.ts';
export type {
  CheckGuide,
  CheckOptions,
  Drift,
  DriftKind,
  Exchange,
  ExchangeCheck,
  ExchangeMessage,
  ExchangeRequest,
  ExchangeResponse,
} from './exchange.ts';
