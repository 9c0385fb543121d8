/**
 * The sandbox state a Redis store holds itself (decision 0040), one port per part, as the store hands them out:
 * the token state, the clock and epoch, the armed failures, the payments, the webhook deliveries, the request
 * journal. Their scripts are defined on the store's client, and each port runs them through the store's `run`,
 * which turns a Redis failure into `StoreUnavailableError`.
 *
 * @module
 */
import { type ClockScriptClient, clockScripts, redisClockState } from './redis-clock-state.ts';
import { type DeliveryScriptClient, deliveryScripts } from './redis-delivery-scripts.ts';
import { redisDeliveryState } from './redis-delivery-state.ts';
import { type FailureScriptClient, failureScripts, redisFailureState } from './redis-failure-state.ts';
import { type JournalScriptClient, journalScripts, redisJournalState } from './redis-journal-state.ts';
import { type PaymentScriptClient, paymentScripts } from './redis-payment-scripts.ts';
import { redisPaymentState } from './redis-payment-state.ts';
import { redisTokenState, type TokenScriptClient, tokenScripts } from './redis-token-state.ts';
import type { SharedStateStore } from './sandbox-store.ts';

/** Every part's scripts as ioredis `defineCommand`s. */
export const sandboxStateScripts = {
  ...tokenScripts,
  ...clockScripts,
  ...failureScripts,
  ...paymentScripts,
  ...deliveryScripts,
  ...journalScripts,
} as const;

/** The client methods {@link sandboxStateScripts} define. */
export interface SandboxStateClient
  extends TokenScriptClient,
    ClockScriptClient,
    FailureScriptClient,
    PaymentScriptClient,
    DeliveryScriptClient,
    JournalScriptClient {}

/**
 * The ports of the sandbox under `prefix`, as the store's methods.
 *
 * @example
 * const store = { ...sandboxStatePorts(run, 'pck:'), kind: 'redis', ... };
 */
export function sandboxStatePorts(
  run: <T>(work: (redis: SandboxStateClient) => Promise<T>, write?: boolean) => Promise<T>,
  prefix: string,
): Omit<SharedStateStore, 'kind' | 'open' | 'increment' | 'close'> {
  return {
    tokenState: () => redisTokenState(run, prefix),
    clockState: () => redisClockState(run, prefix),
    failureState: () => redisFailureState(run, prefix),
    paymentState: () => redisPaymentState(run, prefix),
    deliveryState: () => redisDeliveryState(run, prefix),
    journalState: () => redisJournalState(run, prefix),
  };
}
