/**
 * The delivery state of a Redis store (decision 0040, step 6): webhook deliveries, their pages and counters, and the
 * claimed attempts, each call one script of redis-delivery-scripts.ts (where the keys are listed) in the current
 * epoch. A reset (a new epoch, made by the token reset script) unlinks them all.
 *
 * A delivery is kept as the JSON it was enqueued with (never decoded by a script, so the body and the times come back
 * exactly as written), a state line the scripts rewrite, and its kept attempts, one JSON per line, which a script only
 * appends to and cuts from the front.
 *
 * @module
 */
import type {
  ClaimedDelivery,
  DeliveryFilter,
  DeliveryStatePort,
  NewDelivery,
  StoredDelivery,
} from './delivery-state.ts';
import type { DeliveryScriptClient } from './redis-delivery-scripts.ts';
import {
  type DeliveryAttempt,
  type DeliveryFailureReason,
  type DeliveryRecord,
  type DeliveryState,
  deliveryRecord,
} from './stored.ts';

/** The fixed part of a delivery, as enqueued. */
type FixedDelivery = Omit<NewDelivery, 'dueAt' | 'failed'>;

/** The state line's fields: state, counters, the next attempt, the delivery time, the reason and the error. */
interface StateLine {
  readonly state: DeliveryState;
  readonly attemptCount: number;
  readonly attemptsDropped: number;
  readonly roundStart: number;
  readonly redeliveries: number;
  readonly nextAttemptAt: number | undefined;
  readonly deliveredAt: number | undefined;
  /** As written through the port (a script writes only `pending-cap` of its own). */
  readonly reason: DeliveryFailureReason | undefined;
  readonly error: string | undefined;
}

const none = (v: string): string | undefined => (v === '-' ? undefined : v);

/** A state line as the scripts keep it, read. */
export function stateLineOf(line: string): StateLine {
  const m = /^(\S+) (\d+) (\d+) (\d+) (\d+) (\S+) (\S+) (\S+) ([\s\S]*)$/.exec(line);
  if (!m) throw new Error(`a delivery's state line is not in the scripts' form: ${line.slice(0, 80)}`);
  const [, state, n, dropped, round, redeliveries, next, delivered, reason, error] = m;
  const timeOf = (v: string) => (v === '-' ? undefined : Number(v));
  return {
    state: state as DeliveryState,
    attemptCount: Number(n),
    attemptsDropped: Number(dropped),
    roundStart: Number(round),
    redeliveries: Number(redeliveries),
    nextAttemptAt: timeOf(next!),
    deliveredAt: timeOf(delivered!),
    reason: none(reason!) as DeliveryFailureReason | undefined,
    error: error === '-' ? undefined : error!.slice(1),
  };
}

/** The kept attempts as a script answers them: one JSON per line. */
function attemptsOf(text: string): DeliveryAttempt[] {
  return text === '' ? [] : text.split('\n').map((a) => JSON.parse(a) as DeliveryAttempt);
}

/** A delivery as the scripts answer it (JSON, state line, attempts, sequence), in the memory snapshot's shape. */
export function deliveryOf(json: string, line: string, attempts: string, seq: string): StoredDelivery {
  const { headers, ...fixed } = JSON.parse(json) as FixedDelivery;
  const st = stateLineOf(line);
  const record = deliveryRecord(
    { ...fixed, seq: Number(seq), state: st.state, attempts: attemptsOf(attempts), redeliveries: st.redeliveries },
    st,
  );
  return { record, attemptCount: st.attemptCount, roundStart: st.roundStart, headers };
}

/** A filter value as the page script takes it: `=<value>`, or '' when not given (so '' itself can be a value). */
const given = (value: string | undefined): string => (value === undefined ? '' : `=${value}`);

/** A page query's cursor as the page script takes it: its kind ('' for none) and its sequence number. */
function cursorOf(query: { readonly before?: number; readonly after?: number }): [string, string] {
  if (query.after !== undefined) return ['after', String(query.after)];
  if (query.before !== undefined) return ['before', String(query.before)];
  return ['', ''];
}

/** The delivery's JSON as the scripts keep it. */
function fixedJson(d: NewDelivery): string {
  const { id, clientId, paymentUuid, url, eventType, payload, body, headers, enqueuedAt } = d;
  return JSON.stringify({ id, clientId, paymentUuid, url, eventType, payload, body, headers, enqueuedAt });
}

/**
 * A delivery as the enqueue step takes it (redis-delivery-scripts.ts): id, client, payment uuid, URL, JSON, due time,
 * and the reason and error it is kept failed at once with ('' for none). The enqueue script and the payment settle
 * script, which enqueues a settlement's deliveries in its own step, take the same.
 */
export function enqueueArgs(d: NewDelivery): string[] {
  const failed = d.failed;
  return [d.id, d.clientId, d.paymentUuid, d.url, fixedJson(d), String(d.dueAt)].concat(
    failed?.reason ?? '',
    failed?.error === undefined ? '' : `=${failed.error}`,
  );
}

/** The claim script's reply (next due, then id, JSON and state line per delivery) as claimed deliveries. */
function claimedOf(reply: readonly string[]): ClaimedDelivery[] {
  const out: ClaimedDelivery[] = [];
  for (let i = 1; i + 2 < reply.length; i += 3) {
    const { clientId, paymentUuid, url, eventType, body, headers } = JSON.parse(reply[i + 1]!) as FixedDelivery;
    const { attemptCount, roundStart } = stateLineOf(reply[i + 2]!);
    const attempt = attemptCount + 1;
    out.push({
      id: reply[i]!,
      clientId,
      paymentUuid,
      url,
      eventType,
      body,
      headers,
      attempt,
      attemptsInRound: attemptCount - roundStart,
    });
  }
  return out;
}

/** A counters' version: the epoch above the changes made in it (see `StoredDeliveryCounts.version`). */
const versionOf = (epoch: string, changes: string): number => Number(epoch) * 2 ** 32 + Number(changes);

/**
 * The delivery state under `prefix`, over the store's `run` (which turns a Redis failure into `StoreUnavailableError`).
 *
 * @example
 * const deliveries = redisDeliveryState((work) => run(work), 'pck:');
 * const claim = await deliveries.claimDue(50, 30_000, Date.now());
 */
export function redisDeliveryState(
  run: <T>(work: (redis: DeliveryScriptClient) => Promise<T>) => Promise<T>,
  prefix: string,
): DeliveryStatePort {
  const epochKey = `${prefix}epoch`;
  return {
    enqueue: (d, caps) =>
      run(async (r) => {
        const [created, refused, seq] = await r.pckDlvEnqueue(
          ...[epochKey, prefix, ...enqueueArgs(d), caps.maxDeliveries, caps.maxPendingDeliveries],
        );
        return { created: created === 1, refused: refused === 1, seq: Number(seq) };
      }),
    delivery: (id) =>
      run(async (r) => {
        const reply = await r.pckDlvRead(epochKey, prefix, id);
        return reply === null ? undefined : deliveryOf(...reply);
      }),
    page: (query, filter: DeliveryFilter) =>
      run(async (r) => {
        const [kind, at] = cursorOf(query);
        const reply = await r.pckDlvPage(
          ...[epochKey, prefix, query.limit, kind, at],
          ...[given(filter.state), given(filter.paymentUuid), given(filter.clientId), given(filter.url)],
        );
        const items: DeliveryRecord[] = [];
        for (let i = 1; i + 3 < reply.length; i += 4)
          items.push(deliveryOf(reply[i]!, reply[i + 1]!, reply[i + 2]!, reply[i + 3]!).record);
        const next = reply[0] === '' ? null : Number(reply[0]);
        return { items, order: query.after === undefined ? 'newest-first' : 'oldest-first', next };
      }),
    counts: () =>
      run(async (r) => {
        const [epoch, ...c] = await r.pckDlvCounts(epochKey, prefix);
        const [queued, sending, retry, delivered, failed, gone, evicted, refused] = c.map(Number) as number[];
        const byState = { queued, sending, 'retry-scheduled': retry, delivered, failed, gone } as Record<
          DeliveryState,
          number
        >;
        const kept = Object.values(byState).reduce((n, v) => n + v, 0);
        const pending = byState.queued + byState.sending + byState['retry-scheduled'];
        return { byState, kept, pending, evicted: evicted!, refused: refused!, version: versionOf(epoch!, c[8]!) };
      }),
    claimDue: (max, visibilityMs, realNow) =>
      run(async (r) => {
        const token = globalThis.crypto.randomUUID();
        const reply = await r.pckDlvClaimDue(
          ...[epochKey, prefix, Math.max(0, Math.floor(max)), String(visibilityMs), String(realNow), token],
        );
        const nextDue = reply[0];
        const nextDueAt = nextDue === '' || nextDue === undefined ? undefined : Number(nextDue);
        return { token, deliveries: claimedOf(reply), nextDueAt };
      }),
    recordAttempt: (id, claimToken, attempt, verdict, caps) =>
      run(async (r) => {
        const value =
          verdict.state === 'delivered'
            ? String(verdict.at)
            : verdict.state === 'retry-scheduled'
              ? String(verdict.nextAttemptAt)
              : verdict.reason;
        const [recorded, ...rest] = await r.pckDlvRecordAttempt(
          ...[epochKey, prefix, id, claimToken, JSON.stringify(attempt), verdict.state, value],
          ...[caps.maxAttemptsPerDelivery, caps.maxDeliveries],
        );
        const delivery = rest.length === 4 ? deliveryOf(rest[0]!, rest[1]!, rest[2]!, rest[3]!) : undefined;
        return { recorded: recorded === 1, delivery };
      }),
    redeliver: (id, dueAt, caps) =>
      run(async (r) => {
        const answer = await r.pckDlvRedeliver(epochKey, prefix, id, String(dueAt), caps.maxPendingDeliveries);
        return answer as Awaited<ReturnType<DeliveryStatePort['redeliver']>>;
      }),
  };
}
