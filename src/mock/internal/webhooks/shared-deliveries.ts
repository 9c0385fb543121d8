/**
 * The webhooks of a replica on a Redis store: deliveries live in the store's delivery port, and a replica sends only
 * what a claim hands it. Each settled payment's deliveries are built here exactly as the in-process dispatcher builds
 * them (id, body bytes, repeated headers) and enqueued by the settle step itself; each poll claims the due attempts,
 * sends them, judges each outcome with memory's policy (delivery-attempts.ts) and records it under the claim token, so
 * a replica that stalls past the claim's deadline loses its attempts to the next claimer and its late outcome is
 * refused. No delivery is held in process memory.
 *
 * Unlike memory, there are no lanes (a payment settles once, so a payment and URL name one delivery) and a 410 ends
 * only its own delivery: the URL is not switched off for the others.
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import { webhookHeaderNamesOf } from '../../../contract/webhook-headers.ts';
import { errorLine, kitMessage } from '../../../internal/messages.ts';
import type { Clock } from '../domain/clock.ts';
import type { EventBus } from '../domain/events.ts';
import type { StoredPayment } from '../domain/payments.ts';
import { checkPageQuery, type Page, type PageQuery, readAllPages } from '../history/page.ts';
import type { MockClientConfig } from '../option-types.ts';
import type { AttemptVerdict, ClaimedDelivery, DeliveryStatePort, NewDelivery } from '../store/delivery-state.ts';
import type { SettlementDeliveries } from '../store/payment-state.ts';
import { attemptEnd, retryDelayAfter, type WebhookAttemptReport } from './delivery-attempts.ts';
import {
  type DeliveryAttempt,
  type DeliveryRecord,
  newDelivery,
  repeatedDeliveryHeaders,
  type StandardWebhooksSigning,
  settledEvent,
  standardWebhookHeaders,
  storeDeliveryId,
} from './delivery-record.ts';
import type { DeliveryFilter } from './delivery-store.ts';
import {
  atCapRedelivery,
  checkedTargets,
  DEFAULT_WAIT_MS,
  noDeliveryMatched,
  type RedeliverResult,
  redeliverProblem,
  serialise,
  type WaitForOptions,
} from './dispatcher-rules.ts';
import { noWebhookUrlHint, type SandboxDeliveryCounts } from './fanout.ts';
import {
  type AttemptAbort,
  createAttemptAbort,
  PostError,
  type PostResult,
  type WebhookTransport,
} from './transport.ts';

/** What {@link createSharedDeliveries} needs. */
export interface SharedDeliveriesDeps {
  readonly assumptions: Pick<Assumptions, 'webhook' | 'history'>;
  /** The sandbox's virtual clock: enqueue, attempt and retry times (an attempt's time-out is real time). */
  readonly clock: Clock;
  readonly port: DeliveryStatePort;
  /** Per-client `webhookUrls` and `signingKey` override the defaults, as in the fan-out (fanout.ts). */
  readonly clients: readonly MockClientConfig[];
  readonly webhookUrls: readonly string[];
  readonly signingKey: string;
  /** Opt-in Standard Webhooks secret (`whsec_…`); undefined leaves those headers out. */
  readonly standardWebhooksSecret?: string | undefined;
  readonly hmacSha256Base64: (key: Uint8Array, text: string) => string;
  /** Delivery ids are `storeDeliveryId`s of it, so every replica derives the same id for a delivery. */
  readonly sha256Hex: (text: string) => string;
  /** [0, 1) source of retry jitter. */
  readonly random: () => number;
  readonly transport: WebhookTransport;
  /** Real time (ms): what the port's claim adds the sandbox clock's offset to, and `webhook-timestamp`'s source. */
  readonly realNow: () => number;
  /** Real ms a claim holds its attempts: one that outlives it is sent again by the next claimer. */
  readonly visibilityMs: number;
  /** Receives log lines: the no-URL hint, a payload that cannot be built, a store that cannot be reached. */
  readonly onProblem?: (line: string) => void;
  /** Told about every recorded attempt. */
  readonly onAttempt?: (report: WebhookAttemptReport) => void;
  /** Where `delivery.attempted` and `delivery.finished` are told, as the dispatcher tells them. */
  readonly events?: EventBus | undefined;
}

/** The webhooks of one replica over the shared delivery port. */
export interface SharedDeliveries {
  /**
   * The deliveries a just-settled payment enqueues with its settlement (one per URL of its client, due now) and
   * their caps; undefined, after a one-time hint, when its client has no webhook URL. A payload that cannot be built
   * is a delivery kept as failed (`payload-error`), as in memory.
   */
  deliveriesOf(settled: StoredPayment): SettlementDeliveries | undefined;
  /**
   * One claim round: sends every claimed attempt at once and records each outcome under the claim. Resolves when all
   * are recorded, with the earliest virtual time work is due at (the claim's, or a retry recorded in this round),
   * undefined when none is. A store failure is reported to `onProblem`, never thrown.
   */
  poll(): Promise<{ readonly nextDueAt: number | undefined }>;
  /** Every kept delivery, oldest first. */
  deliveries(): Promise<DeliveryRecord[]>;
  /** A page of the sandbox's deliveries; the query is checked (a 400 error on a mistake). */
  deliveryPage(query: PageQuery | undefined, filter: DeliveryFilter): Promise<Page<DeliveryRecord>>;
  /** The sandbox's counters and caps; `pendingHere` counts the attempts this replica is sending now. */
  deliveryCounts(): Promise<SandboxDeliveryCounts>;
  /**
   * The first delivery matching `predicate`, read now, after each poll of this replica and every few real ms; rejects
   * after `timeoutMs` (default 5000) as the dispatcher's wait does, or at once when closed.
   */
  waitFor(predicate: (d: DeliveryRecord) => boolean, options?: WaitForOptions): Promise<DeliveryRecord>;
  /** Starts a finished delivery again under its id; a refusal is a value with the dispatcher's messages. */
  redeliver(id: string): Promise<RedeliverResult>;
  /** Attempts whose outcome the store refused because this replica's claim had lapsed (each logged). */
  fencedOut(): number;
  /** Claims nothing more and aborts the attempts in flight; their claims lapse and another replica sends them. */
  close(): Promise<void>;
}

/** Attempts one claim takes. */
const CLAIM_MAX = 50;
/** Real ms between the reads of a pending `waitFor`. */
const WAIT_READ_MS = 25;

/** What the parts of one replica share: whether it is closed, and what closing aborts, waits for and wakes. */
interface ReplicaState {
  closed: boolean;
  /** The attempts being sent, which closing aborts. */
  readonly inFlight: Set<AttemptAbort>;
  /** The rounds being sent, which closing waits for. */
  readonly sending: Set<Promise<unknown>>;
  /** Wakes the pending waits to read again: after each poll, and when closing. */
  readonly polled: Set<() => void>;
  /** Outcomes refused because the claim had lapsed. */
  fencedOut: number;
}

/**
 * Creates the webhooks of a Redis replica. Arms no timer until polled or waited on.
 *
 * @example
 * const webhooks = createSharedDeliveries({ ...deps, port: store.deliveryState!(), visibilityMs: 30_000 });
 * await payments.settle(uuid, settlement, token, webhooks.deliveriesOf(settled));
 * const { nextDueAt } = await webhooks.poll();
 */
export function createSharedDeliveries(deps: SharedDeliveriesDeps): SharedDeliveries {
  const report = deps.onProblem ?? (() => {});
  const signing = checkedSigning(deps);
  const state: ReplicaState = {
    closed: false,
    inFlight: new Set(),
    sending: new Set(),
    polled: new Set(),
    fencedOut: 0,
  };
  const reads = createReads(deps, state);
  return {
    fencedOut: () => state.fencedOut,
    deliveriesOf: settlementDeliveries(deps, report),
    poll: claimRounds(deps, state, signing, report),
    ...reads,
    waitFor: waitingFor(deps.port, state, reads.deliveries),
    redeliver: redelivery(deps, state),
    async close() {
      if (state.closed) return;
      state.closed = true;
      for (const controller of state.inFlight) controller.abort('closed');
      for (const wake of state.polled) wake();
      await Promise.allSettled([...state.sending]);
      deps.transport.release();
    },
  };
}

/**
 * The Standard Webhooks signing, if any, after checking it, every webhook URL and the retry policy: misuse throws
 * here, as the dispatcher's options do.
 */
function checkedSigning(deps: SharedDeliveriesDeps): StandardWebhooksSigning | undefined {
  const retry = deps.assumptions.webhook.retry;
  const signing =
    deps.standardWebhooksSecret === undefined
      ? undefined
      : { secret: deps.standardWebhooksSecret, hmacSha256Base64: deps.hmacSha256Base64 };
  // Tried once now, so no attempt can fail to build its headers.
  if (signing) standardWebhookHeaders(signing, 'whd_', 0, '');
  checkedTargets({ urls: deps.webhookUrls, retry });
  for (const c of deps.clients) if (c.webhookUrls) checkedTargets({ urls: c.webhookUrls, retry });
  return signing;
}

/** `deliveriesOf`: the deliveries a settled payment enqueues, built as the in-process dispatcher builds them. */
function settlementDeliveries(
  deps: SharedDeliveriesDeps,
  report: (line: string) => void,
): SharedDeliveries['deliveriesOf'] {
  const w = deps.assumptions.webhook;
  const caps = deps.assumptions.history;
  const names = webhookHeaderNamesOf(w);
  const onNoWebhookUrl = noWebhookUrlHint(report);
  const idOf = storeDeliveryId(deps.sha256Hex);
  return (settled) => {
    const client = deps.clients.find((c) => c.clientId === settled.clientId);
    const urls = client?.webhookUrls ?? deps.webhookUrls;
    if (urls.length === 0) {
      onNoWebhookUrl(settled);
      return undefined;
    }
    const event = settledEvent(settled);
    const { body, problem } = serialise(event, report);
    const signingKey = client?.signingKey ?? deps.signingKey;
    const now = deps.clock.now();
    const items = urls.map((url): NewDelivery => {
      const fields = { id: idOf(event, url), event, url, target: new URL(url), body, problem, now };
      const d = { ...newDelivery({ ...fields, eventType: w.eventType }), dueAt: now };
      const { id, clientId, paymentUuid, eventType, payload, enqueuedAt, dueAt } = d;
      const headers = repeatedDeliveryHeaders(signingKey, names, d);
      const failed = problem === undefined ? undefined : { reason: 'payload-error' as const, error: problem };
      return { id, clientId, paymentUuid, url, eventType, payload, body, enqueuedAt, headers, dueAt, failed };
    });
    return { items, caps: { maxDeliveries: caps.maxDeliveries, maxPendingDeliveries: caps.maxPendingDeliveries } };
  };
}

/** `poll`: one claim round, each claimed attempt sent and its outcome recorded under the claim. */
function claimRounds(
  deps: SharedDeliveriesDeps,
  state: ReplicaState,
  signing: StandardWebhooksSigning | undefined,
  report: (line: string) => void,
): SharedDeliveries['poll'] {
  const { port, clock } = deps;

  /** Sends one claimed attempt and records its outcome; answers the retry's due time, if one was recorded. */
  async function attempt(c: ClaimedDelivery, token: string): Promise<number | undefined> {
    const controller = createAttemptAbort();
    state.inFlight.add(controller);
    // Real time, not the sandbox clock's: a clock move read from another replica must not abort an attempt on the
    // wire (it would be sent again, a duplicate). In process a move does time out an attempt in flight.
    const timeout = setTimeout(() => controller.abort('timeout'), deps.assumptions.webhook.retry.attemptTimeoutMs);
    (timeout as { unref?: () => void }).unref?.();
    const at = clock.now();
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    let logged: DeliveryAttempt;
    let result: PostResult | undefined;
    try {
      const signed = signing && standardWebhookHeaders(signing, c.id, Math.floor(deps.realNow() / 1000), c.body);
      result = await deps.transport.send(new URL(c.url), { ...c.headers, ...signed }, c.body, controller);
      logged = { number: c.attempt, at, status: result.status, ms: ms(), responseBody: result.bodySnippet };
    } catch (error) {
      logged = { number: c.attempt, at, error: error instanceof PostError ? error.code : String(error), ms: ms() };
    } finally {
      clearTimeout(timeout);
      state.inFlight.delete(controller);
    }
    // Closing aborted it: the claim lapses and the next claimer sends it again.
    if (state.closed && controller.aborted) return undefined;
    const verdict = verdictOf(deps, c, result);
    const { recorded } = await port.recordAttempt(c.id, token, logged, verdict, deps.assumptions.history);
    if (!recorded) {
      state.fencedOut += 1;
      report(
        kitMessage(
          `webhook delivery ${c.id}: attempt ${c.attempt} ended after its claim lapsed (more than ${deps.visibilityMs} ms), so its outcome was not recorded; the delivery is sent again under the same id.`,
        ),
      );
      return undefined;
    }
    tell(deps, c, logged, verdict);
    return verdict.state === 'retry-scheduled' ? verdict.nextAttemptAt : undefined;
  }

  function unreachable(error: unknown): void {
    report(
      kitMessage(
        `webhook deliveries: the store could not be reached (${errorLine(error)}); an attempt not recorded is sent again once its claim lapses.`,
      ),
    );
  }

  return async () => {
    if (state.closed) return { nextDueAt: undefined };
    try {
      const claim = await port.claimDue(CLAIM_MAX, deps.visibilityMs, deps.realNow());
      const round = Promise.allSettled(claim.deliveries.map((c) => attempt(c, claim.token)));
      state.sending.add(round);
      const ends = await round;
      state.sending.delete(round);
      const failed = ends.find((e) => e.status === 'rejected');
      if (failed) unreachable(failed.reason);
      const due = [claim.nextDueAt, ...ends.map((e) => (e.status === 'fulfilled' ? e.value : undefined))];
      const times = due.filter((t): t is number => t !== undefined);
      return { nextDueAt: times.length === 0 ? undefined : Math.min(...times) };
    } catch (error) {
      unreachable(error);
      return { nextDueAt: undefined };
    } finally {
      for (const wake of state.polled) wake();
    }
  };
}

/** An attempt's verdict under memory's policy (delivery-attempts.ts), judged now. */
function verdictOf(deps: SharedDeliveriesDeps, c: ClaimedDelivery, result: PostResult | undefined): AttemptVerdict {
  const retry = deps.assumptions.webhook.retry;
  const now = deps.clock.now();
  const inRound = c.attemptsInRound + 1;
  const end = attemptEnd(retry, result?.status, inRound);
  if (end === 'delivered') return { state: 'delivered', at: now };
  if (end === 'gone') return { state: 'gone', reason: 'receiver-gone' };
  if (end === 'exhausted') return { state: 'failed', reason: 'retries-exhausted' };
  const delay = retryDelayAfter(retry, result, inRound, deps.random, deps.realNow);
  return { state: 'retry-scheduled', nextAttemptAt: now + delay };
}

/** The attempt's events and report, as the dispatcher tells them. */
function tell(deps: SharedDeliveriesDeps, c: ClaimedDelivery, a: DeliveryAttempt, verdict: AttemptVerdict): void {
  const { id: deliveryId, paymentUuid: uuid, url } = c;
  deps.events?.emit({
    ...{ kind: 'delivery.attempted', deliveryId, uuid, attempt: a.number },
    ...{ status: a.status, error: a.error, url, at: a.at },
  });
  const reason = 'reason' in verdict ? verdict.reason : undefined;
  if (verdict.state !== 'retry-scheduled') {
    const end = { deliveryId, uuid, url, state: verdict.state, reason, attempts: c.attempt };
    deps.events?.emit({ kind: 'delivery.finished', ...end, delivered: verdict.state === 'delivered' });
  }
  deps.onAttempt?.({
    ...{ deliveryId, paymentUuid: uuid, url, attempt: a.number, status: a.status, error: a.error, ms: a.ms },
    ...{ state: verdict.state, reason, at: a.at },
    nextAttemptAt: verdict.state === 'retry-scheduled' ? verdict.nextAttemptAt : undefined,
  });
}

/** The reads of the store's deliveries: all of them, a page, the counts. */
function createReads(
  deps: SharedDeliveriesDeps,
  state: ReplicaState,
): Pick<SharedDeliveries, 'deliveries' | 'deliveryPage' | 'deliveryCounts'> {
  const { port } = deps;
  const caps = deps.assumptions.history;
  return {
    deliveries: () => readAllPages((query) => port.page(query, {})),
    deliveryPage: async (query, filter) => port.page(checkPageQuery(query, 'deliveryPage'), filter),
    deliveryCounts: async () => ({ ...(await port.counts()), caps, pendingHere: state.inFlight.size }),
  };
}

/** `waitFor`: reads the deliveries now, after each poll of this replica and every few real ms, until one matches. */
function waitingFor(
  port: DeliveryStatePort,
  state: ReplicaState,
  deliveries: () => Promise<DeliveryRecord[]>,
): SharedDeliveries['waitFor'] {
  return async (predicate, options = {}) => {
    const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
    let wake = () => {};
    let over = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = setTimeout(() => {
      over = true;
      wake();
    }, timeoutMs);
    const onPoll = () => wake();
    state.polled.add(onPoll);
    try {
      for (;;) {
        if (state.closed) throw new Error(kitMessage('The mock was closed while waiting for a webhook delivery.'));
        const found = (await deliveries()).find(predicate);
        if (found) return found;
        if (over) {
          const [latest, counts] = await Promise.all([port.page({ limit: 20 }, {}), port.counts()]);
          throw new Error(noDeliveryMatched(latest.items, counts.kept, timeoutMs));
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, WAIT_READ_MS);
        });
        clearTimeout(timer);
      }
    } finally {
      clearTimeout(deadline);
      clearTimeout(timer);
      state.polled.delete(onPoll);
    }
  };
}

/** `redeliver`: starts a finished delivery again in the store; a refusal carries the dispatcher's messages. */
function redelivery(deps: SharedDeliveriesDeps, state: ReplicaState): SharedDeliveries['redeliver'] {
  const { port, clock } = deps;
  const caps = deps.assumptions.history;
  return async (id) => {
    if (state.closed) return redeliverProblem({ state: 'failed' }, id, true)!;
    const answer = await port.redeliver(id, clock.now(), caps);
    if (answer === 'ok') return { ok: true };
    if (answer === 'at-cap') return atCapRedelivery(id, caps.maxPendingDeliveries);
    const record = answer === 'unknown' ? undefined : (await port.delivery(id))?.record;
    return redeliverProblem(record, id, false) ?? redeliverProblem(undefined, id, false)!;
  };
}
