/**
 * The webhook fan-out: the dispatcher takes one URL list and one signing key, and clients may bring their own
 * (`--config`), so each such client gets its own dispatcher and every other client shares the default one. The
 * control handle sees them as one.
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import { webhookHeaderNamesOf, webhookHeaders } from '../../../contract/webhook-headers.ts';
import { kitMessage } from '../../../internal/messages.ts';
import type { PaymentStatusWebhookPayload } from '../../../types/rest.ts';
import type { Clock } from '../domain/clock.ts';
import type { EventBus } from '../domain/events.ts';
import type { StoredPayment } from '../domain/payments.ts';
import { checkPageQuery, collectPage, type Page, type PageQuery } from '../history/page.ts';
import type { MockClientConfig } from '../option-types.ts';
import type { RecordApplier, RecordBody, Recorder, RecordSnapshot } from '../store/records.ts';
import type { WebhookAttemptReport } from './delivery-attempts.ts';
import {
  type Delivery,
  type DeliveryRecord,
  type DeliveryState,
  paymentStatusPayload,
  settledEvent,
  snapshot,
  storeDeliveryId,
  TERMINAL,
} from './delivery-record.ts';
import {
  type DeliveryCounts,
  type DeliveryFields,
  type DeliveryFilter,
  deliveryFields,
  deliveryMatches,
} from './delivery-store.ts';
import { createWebhookDispatcher } from './dispatcher.ts';
import type { RedeliverResult, WebhookDispatcher } from './dispatcher-rules.ts';
import type { WebhookTransport } from './transport.ts';

/** A payment's webhook as a message: the payload and the headers that identify the event. */
export interface WebhookMessage {
  readonly payload: PaymentStatusWebhookPayload;
  /** Signing key and client id headers (never a per-attempt header such as a signature). */
  readonly headers: Readonly<Record<string, string>>;
}

/** The delivery counters of one mock, and the caps. */
export type SandboxDeliveryCounts = DeliveryCounts & {
  readonly caps: Assumptions['history'];
  /** Unfinished deliveries this process sends (what its pending cap counts): all of them, in one process. */
  readonly pendingHere: number;
};

/** All dispatchers of one mock instance, used as one. */
export interface WebhookFanout {
  /** Hands the settled payment's payload to its client's dispatcher (to every URL but those in `skipUrls`). */
  deliver(payment: StoredPayment, skipUrls?: ReadonlySet<string>): void;
  /** The webhook URLs a payment of `clientId` is delivered to (none: nothing is sent). */
  urlsOf(clientId: string): readonly string[];
  /**
   * The webhook a settled payment is delivered as, built the way {@link WebhookFanout.deliver} builds it (same
   * payload builder, the client's own signing key), whether or not any URL is registered.
   */
  message(payment: StoredPayment): WebhookMessage;
  /** Every delivery kept by every dispatcher, oldest first. */
  deliveries(): DeliveryRecord[];
  /** A page of deliveries of every dispatcher, newest first unless `query.after` is given; checked (400 on a mistake). */
  deliveryPage(query?: PageQuery, filter?: DeliveryFilter): Page<DeliveryRecord>;
  /** The counters of every dispatcher, added up, with the caps they apply. */
  deliveryCounts(): SandboxDeliveryCounts;
  /** First delivery (now or later) matching `predicate`, from any dispatcher. */
  waitFor(predicate: (d: DeliveryRecord) => boolean, options?: { timeoutMs?: number }): Promise<DeliveryRecord>;
  /** Redelivers by id; a value says why not (unknown id, still in progress, closed). */
  redeliver(id: string): RedeliverResult;
  reset(): void;
  /** Takes back a file store's `dv` record (a delivery of the run before joins the history) or `hk` (its end). */
  readonly apply: RecordApplier['apply'];
  /** Once the log is replayed: sends on the unfinished deliveries it restored. */
  replayed(): void;
  /** A `dv` record per kept delivery of every dispatcher, so a file store's compaction keeps the deliveries. */
  readonly snapshot: RecordSnapshot['snapshot'];
  /** Closes every dispatcher; resolves with the deliveries that closing ended undelivered. */
  close(): Promise<readonly DeliveryRecord[]>;
}

/** Dependencies of {@link createWebhookFanout}. */
export interface WebhookFanoutDeps {
  readonly assumptions: Pick<Assumptions, 'webhook' | 'history'>;
  readonly clock: Clock;
  readonly clients: readonly MockClientConfig[];
  readonly webhookUrls: readonly string[];
  readonly signingKey: string;
  /** Opt-in Standard Webhooks secret (`whsec_…`); undefined leaves those headers out. */
  readonly standardWebhooksSecret?: string | undefined;
  /** Seeded [0, 1) source for retry jitter. */
  readonly random: () => number;
  /**
   * Receives log lines about failures inside delivery (see `WebhookDispatcherOptions.onProblem`), and the one line
   * of {@link noWebhookUrlHint} when a payment settles with no webhook URL to send to.
   */
  readonly onProblem?: (message: string) => void;
  /** Told about every delivery attempt (see `WebhookDispatcherOptions.onAttempt`). */
  readonly onAttempt?: (report: WebhookAttemptReport) => void;
  /** Makes each dispatcher's transport: the platform's network transport, with in-process receivers when given. */
  readonly createTransport: () => WebhookTransport;
  /** Standard Webhooks HMAC (the platform's). */
  readonly hmacSha256Base64: (key: Uint8Array, text: string) => string;
  /** The platform's SHA-256 (hex): with a state store, delivery ids are derived from the payment with it. */
  readonly sha256Hex: (text: string) => string;
  /** Told when a delivery ends, but not by closing: a state store records it, so no restart sends it again. */
  readonly onFinished?:
    | ((delivery: { readonly paymentUuid: string; readonly url: string; readonly state: string }) => void)
    | undefined;
  /**
   * A file store's recorder: every delivery change becomes a `dv` record, which a restart lists and resumes.
   * Undefined with memory or Redis.
   */
  readonly record?: Recorder | undefined;
  /** Where every dispatcher tells its deliveries' attempts and ends (`delivery.attempted`, `delivery.finished`). */
  readonly events?: EventBus | undefined;
}

/** Creates the dispatchers (no sockets, no timers until something is delivered). */
export function createWebhookFanout(deps: WebhookFanoutDeps): WebhookFanout {
  const w = deps.assumptions.webhook;
  const headerNames = webhookHeaderNamesOf(w);
  const caps = deps.assumptions.history;
  // One sequence for every dispatcher, so their pages merge in enqueue order.
  let seq = 0;
  const nextSeq = () => ++seq;
  const onChange = deps.record ? deliveryRecorder(deps.record) : undefined;
  const make = (urls: readonly string[], signingKey: string) =>
    makeDispatcher(deps, nextSeq, urls, signingKey, onChange);
  const signingKeyOf = (clientId: string) =>
    deps.clients.find((c) => c.clientId === clientId)?.signingKey ?? deps.signingKey;
  const shared = make(deps.webhookUrls, deps.signingKey);
  const all: WebhookDispatcher[] = [shared];
  const byClient = new Map<string, WebhookDispatcher>();
  // Clients whose dispatcher has no URL: a dispatcher enqueues nothing then, so the payload is not even built (every
  // settled payment passes here; the benchmark's mock runs without webhook URLs).
  const silent = new Set<string | undefined>();
  const onNoWebhookUrl = noWebhookUrlHint(deps.onProblem ?? (() => undefined));
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
    urlsOf: (clientId) => deps.clients.find((k) => k.clientId === clientId)?.webhookUrls ?? deps.webhookUrls,
    deliver(payment, skipUrls) {
      if (silent.has(byClient.has(payment.clientId) ? payment.clientId : undefined)) {
        onNoWebhookUrl(payment);
        return;
      }
      (byClient.get(payment.clientId) ?? shared).enqueue(settledEvent(payment), skipUrls);
    },
    message(payment) {
      // One event stands for every delivery of it, so a Pact message carries no delivery id.
      const payload = paymentStatusPayload(payment);
      return {
        payload,
        headers: webhookHeaders(headerNames, {
          signingKey: signingKeyOf(payment.clientId),
          clientId: payment.clientId,
          payload,
        }),
      };
    },
    deliveries() {
      if (all.length === 1) return [...shared.deliveries()];
      return all.flatMap((d) => d.deliveries()).sort((a, b) => a.seq - b.seq);
    },
    deliveryPage(query, filter = {}) {
      const q = checkPageQuery(query, 'deliveryPage');
      const sources = all.flatMap((d) => d.store.sources(filter));
      return collectPage(sources, q, (d) => deliveryMatches(d, filter), snapshot);
    },
    deliveryCounts() {
      const counts = sumCounts(
        all.map((d) => d.store.counts()),
        caps,
      );
      return { ...counts, pendingHere: counts.pending };
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
    apply(r) {
      if (r.t === 'hk' && typeof r.u === 'string' && typeof r.url === 'string' && typeof r.s === 'string') {
        for (const d of all) d.endRestored(r.u, r.url, r.s as DeliveryState);
        return;
      }
      if (r.t !== 'dv' || r.d === null || typeof r.d !== 'object') return;
      const fields = r.d as DeliveryFields;
      (byClient.get(fields.c) ?? shared).restore(fields);
    },
    replayed() {
      for (const d of all) d.resume();
    },
    // A delivery ended by closing is not recorded (the next start resumes it), so neither is it here.
    snapshot: () =>
      all.flatMap((d) => d.fields().flatMap((f): RecordBody[] => (f.r === 'closed' ? [] : [{ t: 'dv', d: f }]))),
    async close() {
      return (await Promise.all(all.map((d) => d.close()))).flat();
    },
  };
}

/** The counts of every dispatcher's store, summed into the sandbox's. */
function sumCounts(
  counts: readonly DeliveryCounts[],
  caps: Assumptions['history'],
): DeliveryCounts & { readonly caps: Assumptions['history'] } {
  const sum = (pick: (c: DeliveryCounts) => number) => counts.reduce((n, c) => n + pick(c), 0);
  const byState = { ...counts[0]!.byState };
  for (const c of counts.slice(1))
    for (const k of Object.keys(byState) as (keyof typeof byState)[]) byState[k] += c.byState[k];
  return {
    byState,
    kept: sum((c) => c.kept),
    pending: sum((c) => c.pending),
    evicted: sum((c) => c.evicted),
    refused: sum((c) => c.refused),
    version: sum((c) => c.version),
    caps,
  };
}

/**
 * What the fan-out of one mock does when a payment settles and has no URL to go to: the first payment that settles with no webhook URL to send to gets one
 * line saying so and how to set a URL; later ones get none. Without it a team whose receiver waits for the webhook
 * sees nothing at all, and by default the mock has no URL.
 *
 * @example
 * const onNoWebhookUrl = noWebhookUrlHint((line) => log.line(line));
 */
export function noWebhookUrlHint(logLine: (line: string) => void): (payment: StoredPayment) => void {
  let told = false;
  return (payment) => {
    if (told) return;
    told = true;
    logLine(
      kitMessage(
        `payment ${payment.uuid} of client ${payment.clientId} settled and no webhook was sent: no webhook URL is set. Give one with --webhook-url <url> (PCK_WEBHOOK_URL; webhookUrls in code or the --config file, or the client's own webhookUrls), e.g. --webhook-url http://127.0.0.1:4011/webhooks with "payment-contract-kit webhook listen" running to see each delivery. Said once; GET /__pck/payments shows every outcome.`,
      ),
    );
  };
}

/**
 * Stops the webhook deliveries; never drops them silently: one line says how many and which deliveries the close
 * ended (each is kept as `failed`, reason `closed`).
 */
export async function closeWebhooks(webhooks: WebhookFanout, logLine: (line: string) => void): Promise<void> {
  const undelivered = await webhooks.close();
  if (undelivered.length === 0) return;
  // Named up to a readable length; a long outage can leave thousands.
  const shown = 20;
  const list =
    undelivered
      .slice(0, shown)
      .map((d) => `${d.id} (payment ${d.paymentUuid} to ${d.url}, ${d.attempts.at(-1)?.number ?? 0} attempts)`)
      .join(', ') + (undelivered.length > shown ? ` and ${undelivered.length - shown} more` : '');
  logLine(
    kitMessage(
      `closed with ${undelivered.length} webhook ${undelivered.length === 1 ? 'delivery' : 'deliveries'} not delivered, recorded as failed (closed): ${list}.`,
    ),
  );
}

/**
 * The dispatchers' `onChange` with a file store: the deliveries changed within one task are recorded once each, in
 * a microtask (queued, then sending, is one record). An end by closing is not recorded: the next start resumes it.
 */
function deliveryRecorder(record: Recorder): (d: Delivery) => void {
  const dirty = new Set<Delivery>();
  const write = (d: Delivery) => {
    if (d.reason !== 'closed') record({ t: 'dv', d: deliveryFields(d) });
  };
  const flush = () => {
    for (const d of dirty) write(d);
    dirty.clear();
  };
  return (d) => {
    // An end at once: into the batch of the progress's `hk`, recorded just before it. In a later batch, a SIGKILL
    // between the two left the log saying the webhook was finished and its delivery still `sending`.
    if (TERMINAL.has(d.state)) {
      dirty.delete(d);
      write(d);
      return;
    }
    if (dirty.size === 0) queueMicrotask(flush);
    dirty.add(d);
  };
}

/** One dispatcher of the fan-out, for `urls` signed with `signingKey`. */
function makeDispatcher(
  deps: WebhookFanoutDeps,
  nextSeq: () => number,
  urls: readonly string[],
  signingKey: string,
  onChange: ((d: Delivery) => void) | undefined,
): WebhookDispatcher {
  const w = deps.assumptions.webhook;
  return createWebhookDispatcher({
    clock: deps.clock,
    urls,
    signingKey,
    headers: webhookHeaderNamesOf(w),
    retry: w.retry,
    random: deps.random,
    eventType: w.eventType,
    history: deps.assumptions.history,
    nextSeq,
    onFinished: deps.onFinished,
    onChange,
    events: deps.events,
    standardWebhooks:
      deps.standardWebhooksSecret === undefined
        ? undefined
        : { secret: deps.standardWebhooksSecret, hmacSha256Base64: deps.hmacSha256Base64 },
    ...(deps.onProblem === undefined ? {} : { onProblem: deps.onProblem }),
    ...(deps.onAttempt === undefined ? {} : { onAttempt: deps.onAttempt }),
    transport: deps.createTransport(),
    // With a store a restart may deliver the payment again: the same id then.
    ...(onChange === undefined ? {} : { idFactory: storeDeliveryId(deps.sha256Hex) }),
  });
}
