/**
 * The one checker (placeholder signature, to be implemented on this branch): proxy, `check` and `verify` call
 * {@link checkExchange}.
 *
 * @module
 */
import type { CheckOptions, Exchange, ExchangeCheck } from './exchange.ts';

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

/** Checks one exchange against the contract and the ledger. Placeholder until the checker lands on this branch. */
export function checkExchange(_exchange: Exchange, _options: CheckOptions = {}): ExchangeCheck {
  throw new Error('checkExchange: not implemented yet');
}
