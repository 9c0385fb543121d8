/**
 * Retry timing of webhook deliveries: exponential backoff with jitter from `Assumptions.webhook.retry`, and the
 * receiver's `Retry-After` when it asks for one.
 *
 * @module
 */
import type { WebhookRetryPolicy } from '../../../assumptions.ts';

/**
 * Delay before retry number `retry` (1 = the second attempt): `initialDelayMs × multiplier^(retry-1)`, capped at
 * `maxDelayMs`, then spread by ±`jitter` using `random()` and capped again, so no two receivers retried together
 * stay in lock step and no delay exceeds the cap.
 *
 * @example
 * retryDelayMs(defaultAssumptions.webhook.retry, 1, () => 0.5); // 5000: the middle of 4000..6000
 */
export function retryDelayMs(policy: WebhookRetryPolicy, retry: number, random: () => number): number {
  const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.multiplier ** (retry - 1));
  const spread = 1 + policy.jitter * (2 * random() - 1);
  return Math.max(0, Math.min(policy.maxDelayMs, Math.round(base * spread)));
}

/** One row of the documented retry schedule. */
export interface RetryScheduleRow {
  /** Attempt number, 2 for the first retry. */
  readonly attempt: number;
  /** Delay after the previous attempt without jitter, in ms. */
  readonly delayMs: number;
  /** Shortest and longest delay once jitter is applied, in ms. */
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  /** Time since the first attempt without jitter, in ms (attempt durations left out). */
  readonly sinceFirstMs: number;
}

/** The retry schedule a policy gives, for documentation and tests. */
export function retrySchedule(policy: WebhookRetryPolicy): readonly RetryScheduleRow[] {
  const rows: RetryScheduleRow[] = [];
  let since = 0;
  for (let retry = 1; retry < policy.maxAttempts; retry++) {
    const delayMs = retryDelayMs(policy, retry, () => 0.5);
    since += delayMs;
    rows.push({
      attempt: retry + 1,
      delayMs,
      minDelayMs: retryDelayMs(policy, retry, () => 0),
      maxDelayMs: retryDelayMs(policy, retry, () => 1),
      sinceFirstMs: since,
    });
  }
  return rows;
}

/**
 * Milliseconds a `Retry-After` header asks to wait, or undefined when absent or unreadable. An HTTP date is read
 * against the receiver's own `Date` header when it sent one (its clock, not ours, set the date), else `realNow()`.
 */
export function retryAfterMs(
  retryAfter: string | undefined,
  responseDate: string | undefined,
  realNow: () => number,
): number | undefined {
  if (retryAfter === undefined) return undefined;
  const value = retryAfter.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // Date.parse reads bare numbers such as "-5" as years; an HTTP date always names a weekday and a month.
  const at = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) return undefined;
  const reference = responseDate === undefined ? Number.NaN : Date.parse(responseDate);
  return Math.max(0, at - (Number.isNaN(reference) ? realNow() : reference));
}
