/**
 * Settlement of accepted payments on the virtual clock: `settleDelayMs` after acceptance a payment takes the outcome
 * its card asks for (the "stays processing" test card never settles on its own), its final status is recorded, and
 * the webhook payload is handed to the delivery side. The control API settles a payment at once with any outcome,
 * making its scheduled settlement a no-op.
 *
 * Scheduling is batched: the delay is the same for every payment, so payments come due in acceptance order. They wait
 * in one FIFO, and the clock gets one task per distinct due millisecond instead of one task (object, closure, heap
 * entry, map entry) per payment, four allocations on the path of every accepted payment.
 * Tasks of other parts due in the same virtual millisecond may now run after the whole batch rather than between
 * two of its payments; across milliseconds the order is the clock's.
 *
 * Delivery goes through the webhook fan-out (webhooks/fanout.ts).
 *
 * Settlement runs inside clock tasks, so nothing here may throw: a payment reaches its final status first, and a
 * failure to hand over its webhook is reported (`onError`) and recorded as a failed delivery, never thrown.
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import { errorLine, kitMessage } from '../../../internal/messages.ts';
import type { FencedWork, OnceOnly } from '../store/once-only.ts';
import type { RecordApplier, RecordBody } from '../store/records.ts';
import type { Clock } from './clock.ts';
import type { EventBus } from './events.ts';
import { KeyQueue } from './ordered-lists.ts';
import { finalOutcome, type MockState, type SettlementOutcome, type StoredPayment } from './payments.ts';

/** When a payment accepted now is due to settle, or undefined for one whose card keeps it processing. */
export function settlementDueAt(payment: StoredPayment, now: number, settleDelayMs: number): number | undefined {
  return payment.outcome === 'processing' ? undefined : now + Math.max(0, settleDelayMs);
}

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
  /** Takes back a `pay` record (after the state did): schedules its settlement from its `paid_at`. */
  readonly apply: RecordApplier['apply'];
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
  /** With a file store: the settlement's outcome durable before it changes the view. Undefined with memory. */
  readonly once?: OnceOnly | undefined;
  /** Where a settlement this process made is told (`payment.settled`; the state tells the others). */
  readonly events?: EventBus | undefined;
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

  const once = deps.once;
  /** A due payment: settled at once, or (with a file store) once its outcome is durable. */
  function due(uuid: string): void {
    if (!once) {
      finish(uuid, undefined, undefined);
      return;
    }
    // The payment that fell due, not whatever holds its uuid when the claim is won: a reset brings uuids back, and a
    // job deferred while a store is replayed (a restart) would otherwise settle the payment made after the reset.
    const payment = state.payment(undefined, uuid);
    if (!payment) return;
    const unsettled = () => state.payment(undefined, uuid) === payment && payment.settledOutcome === undefined;
    once.run({
      needed: unsettled,
      work: () => fencedSettlement(state, payment, clock.now(), (p) => handOverSettled(deps, p), deps.events),
    });
  }

  /** Queues `uuid` to settle at `dueAt` (never before a payment queued earlier: the queue is in due order). */
  function schedule(uuid: string, wantedDueAt: number): void {
    const dueAt = Math.max(wantedDueAt, lastBatch?.dueAt ?? Number.NEGATIVE_INFINITY);
    waiting.push(uuid);
    if (lastBatch !== undefined && lastBatch.dueAt === dueAt) lastBatch.count++;
    else {
      lastBatch = { dueAt, count: 1 };
      batches.push(lastBatch);
      const taskEpoch = epoch;
      clock.schedule(dueAt - clock.now(), () => settleDue(dueAt, taskEpoch));
    }
  }

  function settleDue(dueAt: number, taskEpoch: number): void {
    if (taskEpoch !== epoch) return;
    for (let batch = batches.peek(); batch !== undefined && batch.dueAt <= dueAt; batch = batches.peek()) {
      batches.shift();
      if (batch === lastBatch) lastBatch = undefined;
      for (let i = 0; i < batch.count; i++) {
        const uuid = waiting.shift();
        // A payment settled meanwhile through the control API, or evicted, is skipped by finish.
        if (uuid !== undefined) due(uuid);
      }
    }
  }

  function finish(uuid: string, outcome: SettlementOutcome | undefined, clientId?: string): SettleResult {
    const before = state.payment(clientId, uuid);
    if (!before) return { ok: false, problem: 'unknown' };
    if (before.settledOutcome !== undefined) return { ok: false, problem: 'already-settled', payment: before };
    const payment = state.settlePayment(before.clientId, uuid, outcome)!;
    handOverSettled(deps, payment);
    return { ok: true, payment };
  }

  return {
    onPaymentAccepted(payment) {
      const dueAt = settlementDueAt(payment, clock.now(), deps.assumptions.settleDelayMs);
      if (dueAt !== undefined) schedule(payment.uuid, dueAt);
    },
    apply(r) {
      if (r.t !== 'pay') return;
      const p = state.payment(undefined, (r.p as StoredPayment).uuid);
      if (!p || p.outcome === 'processing' || p.settledOutcome !== undefined) return;
      const acceptedAt = Date.parse(p.paid_at);
      schedule(
        p.uuid,
        (Number.isFinite(acceptedAt) ? acceptedAt : clock.now()) + Math.max(0, deps.assumptions.settleDelayMs),
      );
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

/** Hands a settled payment to the webhooks; never throws (settlement runs in clock tasks). */
function handOverSettled(deps: SettlementDeps, payment: StoredPayment): void {
  try {
    deps.settled(payment);
  } catch (error) {
    // One payment's webhook trouble must not stop the rest of the batch, nor escape the clock task.
    deps.onError?.(
      kitMessage(
        `payment ${payment.uuid} settled as ${payment.status}, but handing over its webhook failed (a bug in the mock; please report it): ${errorLine(error)}`,
      ),
    );
  }
}

/**
 * A due settlement under its claim (a state store): the `set` record first, the view and the webhook only once the
 * store took it while the claim was still this process's (decision 0033).
 */
function fencedSettlement(
  state: MockState,
  p: StoredPayment,
  at: number,
  handOver: (payment: StoredPayment) => void,
  events: EventBus | undefined,
): FencedWork | undefined {
  const uuid = p.uuid;
  if (state.payment(undefined, uuid) !== p || p.settledOutcome !== undefined) return undefined;
  const outcome = finalOutcome(p);
  const record: RecordBody = { t: 'set', c: p.clientId, u: uuid, x: outcome, at };
  return {
    records: [record],
    commit() {
      // Reset, evicted or settled through the control API meanwhile: nothing of this settlement is left to do.
      if (state.payment(undefined, uuid) !== p || p.settledOutcome !== undefined) return;
      state.apply({ ...record, o: '' });
      events?.emit({ kind: 'payment.settled', clientId: p.clientId, uuid, outcome, at });
      handOver(p);
    },
  };
}
