/**
 * The checks both delivery engines make alike (the in-process dispatcher and a Redis replica's shared deliveries), each
 * with the message that names the fix: the options (`checkedTargets`), a payload's bytes (`serialise`), a redelivery
 * (`redeliverProblem`) and a wait that timed out (`DEFAULT_WAIT_MS`, `noDeliveryMatched`).
 *
 * @module
 */
import { clause, errorLine, kitMessage } from '../../../internal/messages.ts';
import { type DeliveryRecord, type DeliveryState, TERMINAL, type WebhookEvent } from './delivery-record.ts';
import type { RedeliverResult, WebhookDispatcherOptions } from './dispatcher-types.ts';

/** Real milliseconds a `waitFor` waits when its options name none. */
export const DEFAULT_WAIT_MS = 5_000;

/**
 * Why delivery `id` (`d`, undefined when unknown) cannot be redelivered now, with the message naming the fix, or
 * undefined when it can. The pending cap is asked apart (pending-cap.ts).
 *
 * @example
 * const problem = redeliverProblem(store.get(id), id, closed);
 */
export function redeliverProblem(
  d:
    | { readonly state: DeliveryState; readonly reason?: string | undefined; readonly error?: string | undefined }
    | undefined,
  id: string,
  closed: boolean,
): RedeliverResult | undefined {
  if (!d)
    return {
      ok: false,
      problem: 'unknown',
      message: kitMessage(
        `No webhook delivery with id "${id}": list them with deliveries() or GET /__pck/deliveries (a finished delivery past the history cap is evicted; see GET /__pck/health).`,
      ),
    };
  if (!TERMINAL.has(d.state))
    return {
      ok: false,
      problem: 'in-progress',
      message: kitMessage(
        `Webhook delivery "${id}" is ${d.state}: only a failed, gone or delivered delivery can be redelivered. Wait for it to finish (waitForDelivery, POST /__pck/deliveries/wait with { "state": "failed" }), advancing the mock clock to run its retries.`,
      ),
    };
  if (d.reason === 'payload-error')
    return {
      ok: false,
      problem: 'unsendable',
      message: kitMessage(
        `Webhook delivery "${id}" has no body to send: its payload could not be serialised (${d.error}). Fix the payment's metadata and create a new payment.`,
      ),
    };
  if (closed)
    return {
      ok: false,
      problem: 'closed',
      message: kitMessage('The mock is closed, so it sends no more webhooks: start a new mock server.'),
    };
  return undefined;
}

/**
 * The retry policy checked and the URLs parsed, or a `TypeError`/`RangeError` naming the bad option.
 *
 * @example
 * const targets = checkedTargets({ urls: ['http://127.0.0.1:3000/webhooks'], retry: a.webhook.retry });
 */
export function checkedTargets(opts: Pick<WebhookDispatcherOptions, 'urls' | 'retry'>): URL[] {
  const policy = opts.retry;
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1)
    throw new RangeError(
      kitMessage(
        `webhook retry.maxAttempts must be a whole number of at least 1 (the first attempt counts), got ${policy.maxAttempts}.`,
      ),
    );
  return opts.urls.map((url) => {
    try {
      return new URL(url);
    } catch {
      throw new TypeError(
        kitMessage(`webhook URL "${url}" is not an absolute URL; give e.g. http://127.0.0.1:3000/webhooks.`),
      );
    }
  });
}

/**
 * Serialises an event's payload once (every attempt sends and signs the same bytes), or says why it cannot be and
 * reports that for the log.
 *
 * @example
 * const { body, problem } = serialise(event, report);
 */
export function serialise(
  event: WebhookEvent,
  report: (line: string) => void,
): { body: string; problem: string | undefined } {
  let problem = event.problem;
  if (problem === undefined)
    try {
      return { body: JSON.stringify(event.payload), problem: undefined };
    } catch (error) {
      problem = `the payload could not be serialised to JSON (${errorLine(error)})`;
    }
  report(
    kitMessage(
      `webhook of payment ${event.paymentUuid} not sent: ${clause(problem)}. Recorded as a failed delivery (payload-error); the payment keeps its final status. A bug in the mock if its input was accepted; please report it.`,
    ),
  );
  return { body: '', problem };
}

/** Deliveries a timed-out wait names; the rest are counted (the message must stay a readable size). */
const MESSAGE_DELIVERIES = 20;

/**
 * What a wait that timed out says, from the kept deliveries newest first (only the first few are read) and how many
 * are kept: the latest deliveries and their states, and the likely fix.
 *
 * @example
 * reject(new Error(noDeliveryMatched(page.items, counts.kept, 5_000)));
 */
export function noDeliveryMatched(
  newest: Iterable<Pick<DeliveryRecord, 'id' | 'paymentUuid' | 'url' | 'state'>>,
  kept: number,
  timeoutMs: number,
): string {
  const latest: string[] = [];
  for (const d of newest) {
    if (latest.length === MESSAGE_DELIVERIES) break;
    latest.push(`${d.id} ${d.paymentUuid} → ${d.url}: ${d.state}`);
  }
  const more = kept - latest.length;
  const states = latest.join('; ') + (more > 0 ? `; and ${more} older (GET /__pck/deliveries pages them)` : '');
  return kitMessage(
    `no webhook delivery matched within ${timeoutMs} ms. Deliveries: ${states || 'none'}. If retries are scheduled, advance the mock clock (control.advanceClock).`,
  );
}
