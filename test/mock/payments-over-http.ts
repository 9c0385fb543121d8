/**
 * Creating many payments against a running mock over real HTTP, with a bounded number in flight: what the fault,
 * concurrency and control-API tests share. Requests go through `test/support/http-json.ts` (node:http, one
 * keep-alive agent), which matters at thousands of payments.
 *
 * @module
 */
import { print } from 'graphql';
import { ProcessPaymentRequestDocument } from '../../src/index.ts';
import type { MockControl } from '../../src/mock/control-types.ts';
import { postJsonText } from '../support/http-json.ts';
import { payInput } from './helpers.ts';

const query = print(ProcessPaymentRequestDocument);

/** Runs `task(i)` for i in [0, count) with at most `limit` running at once; resolves with the results in order. */
export async function pool<T>(count: number, limit: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  let inFlight = 0;
  let most = 0;
  async function worker(): Promise<void> {
    while (next < count) {
      const i = next++;
      inFlight++;
      most = Math.max(most, inFlight);
      try {
        results[i] = await task(i);
      } finally {
        inFlight--;
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  pool.mostInFlight = most;
  return results;
}
/** The largest number of tasks the last {@link pool} had running at once. */
pool.mostInFlight = 0;

/** Creates one payment over HTTP and returns its uuid; throws with the answer when it was not a success. */
export async function createPayment(
  baseUrl: string,
  token: string,
  metadata: Record<string, unknown>,
  cardNumber?: string,
): Promise<string> {
  const { status, text } = await postJsonText(
    new URL('/graphql', baseUrl),
    { 'x-jwt-token': token },
    JSON.stringify({ query, variables: { input: { ...payInput(cardNumber), metadata } } }),
  );
  const uuid = status === 200 ? JSON.parse(text).data?.processPaymentRequest?.uuid : undefined;
  if (typeof uuid !== 'string') throw new Error(`payment not created: ${status} ${text.slice(0, 300)}`);
  return uuid;
}

/**
 * Resolves once `condition()` holds (it may answer a promise, as the handle's reads do): checked now and after each
 * change of a webhook delivery of `control` (its `waitForDelivery` is offered every one), so a wait on the
 * deliveries ends at the change that makes it true, with no polling. Rejects as `waitForDelivery` does after
 * `timeoutMs` real ms in all: a bound for a test that fails, which one that passes never meets.
 */
export async function untilDeliveries(
  control: Pick<MockControl, 'waitForDelivery'>,
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    // Listen before looking, so a change while the condition is read is not missed. `waitForDelivery` runs its
    // predicate over the deliveries kept before it returns, while `armed` is false: only a later change matches.
    let armed = false;
    const changed = control.waitForDelivery(() => armed, { timeoutMs: Math.max(1, end - Date.now()) });
    armed = true;
    // When the condition holds first, the wait is left to end at the next change or at the mock's close.
    changed.catch(() => {});
    if (await condition()) return;
    await changed;
  }
}
