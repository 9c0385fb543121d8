/**
 * Settlement of accepted payments on the virtual clock: `settleDelayMs` after acceptance a payment takes the outcome
 * its card asks for (the "stays processing" test card never settles on its own), its final status is recorded, and
 * the webhook payload is handed to the delivery side. The control API settles a payment at once with any outcome,
 * making its scheduled settlement a no-op.
 *
 * Scheduling is batched: the delay is the same for every payment, so payments come due in acceptance order. They wait
 * in one FIFO, and the clock gets one task per distinct due millisecond instead of one task (object, closure, heap
 * entry, map entry) per payment, which cost about 2.4 µs of a 15 µs payment in the engine (measured in process).
 * Tasks of other parts due in the same virtual millisecond may now run after the whole batch rather than between
 * two of its payments; across milliseconds the order is the clock's.
 *
 * Delivery goes through the webhook engineer's dispatcher, which takes one URL list and one signing key. Clients may
 * bring their own (`--config`), so {@link createWebhookFanout} gives each such client its own dispatcher and lets
 * every other client share the default one; the control handle sees them as one.
 *
 * Settlement runs inside clock tasks, so nothing here may throw: a payment reaches its final status first, and a
 * failure to hand over its webhook is reported (`onError`) and recorded as a failed delivery, never thrown.
 *
 * @module
 */
import type { Assumptions } from '../../assumptions.ts';
import { kitMessage } from '../../internal/messages.ts';
import type { PaymentStatusWebhookPayload } from '../../types/rest.ts';
import type { MockClientConfig } from '../options.ts';
import type { Clock } from './clock.ts';
import { KeyQueue } from './fifo.ts';
import type { MockState, SettlementOutcome, StoredPayment } from './state.ts';
import {
  createWebhookDispatcher,
  type DeliveryRecord,
  type RedeliverResult,
  type WebhookDispatcher,
} from './webhooks/dispatcher.ts';
import { paymentStatusPayload } from './webhooks/payload.ts';

/** Outcome of {@link Settlement.settleNow}. */
export type SettleResult =
  | { readonly ok: true; readonly payment: StoredPayment }
  | { readonly ok: false; readonly problem: 'unknown' | 'already-settled'; readonly payment?: StoredPayment };

/** Settlement of one mock instance. */
export interface Settlement {
  /** The engine's `onPaymentAccepted`: schedules settlement unless the card keeps the payment processing. */
  onPaymentAccepted(payment: StoredPayment): void;
  /** Settles a payment now (the card's outcome when `outcome` is left out) and hands it to `settled`. */
  settleNow(uuid: string, outcome?: SettlementOutcome, clientId?: string): SettleResult;
  /** Forgets scheduled settlements (call with the clock reset). */
  reset(): void;
}

/** Dependencies of {@link createSettlement}. */
export interface SettlementDeps {
  readonly assumptions: Pick<Assumptions, 'settleDelayMs'>;
  readonly clock: Clock;
  readonly state: MockState;
  /** Called once per payment when it reaches its final status: deliver the webhook here. */
  settled(payment: StoredPayment): void;
  /** Receives a log line when `settled` throws (a bug in the mock); the payment stays settled. */
  onError?(message: string): void;
}

/**
 * Creates the settlement scheduler.
 *
 * @example
 * const settlement = createSettlement({ assumptions, clock, state, settled: (p) => webhooks.deliver(p) });
 * createGraphqlEngine({ ..., onPaymentAccepted: settlement.onPaymentAccepted });
 */
export function createSettlement(deps: SettlementDeps): Settlement {
  const { clock, state } = deps;
  // Payments waiting to settle: their uuids in acceptance (= due) order, and one batch per due millisecond saying how
  // many of them fall due then. No object per payment: under load a second's worth of payments waits, and objects
  // that live that long are promoted and cost the old-generation GC.
  const waiting = new KeyQueue<string>();
  const batches = new KeyQueue<{ readonly dueAt: number; count: number }>();
  /** The latest batch, which payments due in the same millisecond join. */
  let lastBatch: { readonly dueAt: number; count: number } | undefined;
  /** Bumped by reset, so batch tasks scheduled before it do nothing. */
  let epoch = 0;

  function settleDue(dueAt: number, taskEpoch: number): void {
    if (taskEpoch !== epoch) return;
    for (let batch = batches.peek(); batch !== undefined && batch.dueAt <= dueAt; batch = batches.peek()) {
      batches.shift();
      if (batch === lastBatch) lastBatch = undefined;
      for (let i = 0; i < batch.count; i++) {
        const uuid = waiting.shift();
        // A payment settled meanwhile through the control API, or evicted, is skipped by finish.
        if (uuid !== undefined) finish(uuid, undefined, undefined);
      }
    }
  }

  function finish(uuid: string, outcome: SettlementOutcome | undefined, clientId?: string): SettleResult {
    const before = state.payment(clientId, uuid);
    if (!before) return { ok: false, problem: 'unknown' };
    if (before.settledOutcome !== undefined) return { ok: false, problem: 'already-settled', payment: before };
    const payment = state.settlePayment(before.clientId, uuid, outcome)!;
    try {
      deps.settled(payment);
    } catch (error) {
      // One payment's webhook trouble must not stop the rest of the batch, nor escape the clock task.
      deps.onError?.(
        kitMessage(
          `payment ${uuid} settled as ${payment.status}, but handing over its webhook failed (a bug in the mock; please report it): ${errorText(error)}`,
        ),
      );
    }
    return { ok: true, payment };
  }

  return {
    onPaymentAccepted(payment) {
      if (payment.outcome === 'processing') return;
      const delay = deps.assumptions.settleDelayMs;
      const dueAt = clock.now() + Math.max(0, delay);
      waiting.push(payment.uuid);
      if (lastBatch !== undefined && lastBatch.dueAt === dueAt) lastBatch.count++;
      else {
        lastBatch = { dueAt, count: 1 };
        batches.push(lastBatch);
        const taskEpoch = epoch;
        clock.schedule(delay, () => settleDue(dueAt, taskEpoch));
      }
    },
    settleNow(uuid, outcome, clientId) {
      return finish(uuid, outcome, clientId);
    },
    reset() {
      waiting.clear();
      batches.clear();
      lastBatch = undefined;
      epoch++;
    },
  };
}

/** All dispatchers of one mock instance, used as one. */
export interface WebhookFanout {
  /** Hands the settled payment's payload to its client's dispatcher. */
  deliver(payment: StoredPayment): void;
  /** Every delivery of every dispatcher. */
  deliveries(): DeliveryRecord[];
  /** First delivery (now or later) matching `predicate`, from any dispatcher. */
  waitFor(predicate: (d: DeliveryRecord) => boolean, options?: { timeoutMs?: number }): Promise<DeliveryRecord>;
  /** Redelivers by id; a value says why not (unknown id, still in progress, closed). */
  redeliver(id: string): RedeliverResult;
  reset(): void;
  /** Closes every dispatcher; resolves with the deliveries that closing ended undelivered. */
  close(): Promise<readonly DeliveryRecord[]>;
}

/** Dependencies of {@link createWebhookFanout}. */
export interface WebhookFanoutDeps {
  readonly assumptions: Pick<Assumptions, 'webhook'>;
  readonly clock: Clock;
  readonly clients: readonly MockClientConfig[];
  readonly webhookUrls: readonly string[];
  readonly signingKey: string;
  /** Opt-in Standard Webhooks secret (`whsec_…`); undefined leaves those headers out. */
  readonly standardWebhooksSecret?: string | undefined;
  /** Seeded [0, 1) source for retry jitter. */
  readonly random: () => number;
  /** Receives log lines about failures inside delivery (see `WebhookDispatcherOptions.onProblem`). */
  readonly onProblem?: (message: string) => void;
}

/** Creates the dispatchers (no sockets, no timers until something is delivered). */
export function createWebhookFanout(deps: WebhookFanoutDeps): WebhookFanout {
  const w = deps.assumptions.webhook;
  const make = (urls: readonly string[], signingKey: string) =>
    createWebhookDispatcher({
      clock: deps.clock,
      urls,
      signingKey,
      headers: { signingKey: w.signingKeyHeader, clientId: w.clientIdHeader, deliveryId: w.deliveryIdHeader },
      retry: w.retry,
      random: deps.random,
      eventType: w.eventType,
      standardWebhooks: deps.standardWebhooksSecret === undefined ? undefined : { secret: deps.standardWebhooksSecret },
      ...(deps.onProblem === undefined ? {} : { onProblem: deps.onProblem }),
    });
  const shared = make(deps.webhookUrls, deps.signingKey);
  const all: WebhookDispatcher[] = [shared];
  const byClient = new Map<string, WebhookDispatcher>();
  // Clients whose dispatcher has no URL: a dispatcher enqueues nothing then, so the payload is not even built (every
  // settled payment passes here; the benchmark's mock runs without webhook URLs).
  const silent = new Set<string | undefined>();
  if (deps.webhookUrls.length === 0) silent.add(undefined);
  for (const c of deps.clients) {
    if (c.webhookUrls === undefined && c.signingKey === undefined) continue;
    const urls = c.webhookUrls ?? deps.webhookUrls;
    const d = make(urls, c.signingKey ?? deps.signingKey);
    byClient.set(c.clientId, d);
    all.push(d);
    if (urls.length === 0) silent.add(c.clientId);
  }

  return {
    deliver(payment) {
      if (silent.has(byClient.has(payment.clientId) ? payment.clientId : undefined)) return;
      const dispatcher = byClient.get(payment.clientId) ?? shared;
      let payload: PaymentStatusWebhookPayload;
      let problem: string | undefined;
      try {
        payload = paymentStatusPayload(payment);
      } catch (error) {
        // E.g. metadata whose getter throws: record the event as a failed delivery with what is known of it.
        payload = paymentStatusPayload({ ...payment, metadata: undefined });
        problem = `the payload could not be built (${errorText(error)})`;
      }
      dispatcher.enqueue({
        clientId: payment.clientId,
        paymentUuid: payment.uuid,
        payload,
        ...(problem === undefined ? {} : { problem }),
      });
    },
    deliveries() {
      if (all.length === 1) return [...shared.deliveries()];
      return all.flatMap((d) => d.deliveries()).sort((a, b) => a.enqueuedAt - b.enqueuedAt);
    },
    waitFor(predicate, options) {
      if (all.length === 1) return shared.waitFor(predicate, options);
      // The first dispatcher to match wins; the others' waits time out later and are silenced here.
      const waits = all.map((d) => d.waitFor(predicate, options));
      for (const p of waits) p.catch(() => {});
      return Promise.any(waits).catch((error: AggregateError) => {
        throw error.errors[0] ?? error;
      });
    },
    redeliver(id) {
      let answer: RedeliverResult | undefined;
      for (const d of all) {
        answer = d.redeliver(id);
        if (answer.ok || answer.problem !== 'unknown') return answer;
      }
      return answer!;
    },
    reset() {
      for (const d of all) d.reset();
    },
    async close() {
      return (await Promise.all(all.map((d) => d.close()))).flat();
    },
  };
}

function errorText(error: unknown): string {
  // One line: the text goes into a log line and a delivery record.
  return (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).replace(/\s+/g, ' ');
}

/**
 * Stops the webhook deliveries; never drops them silently: one line says how many and which deliveries the close
 * ended (each is kept as `failed`, reason `closed`).
 */
export async function closeWebhooks(webhooks: WebhookFanout, logLine: (line: string) => void): Promise<void> {
  const undelivered = await webhooks.close();
  if (undelivered.length === 0) return;
  const list = undelivered
    .map((d) => `${d.id} (payment ${d.paymentUuid} to ${d.url}, ${d.attempts.length} attempts)`)
    .join(', ');
  logLine(
    kitMessage(
      `closed with ${undelivered.length} webhook ${undelivered.length === 1 ? 'delivery' : 'deliveries'} not delivered, recorded as failed (closed): ${list}.`,
    ),
  );
}
