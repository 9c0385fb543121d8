/**
 * One attempt of a webhook delivery and what follows from its outcome: the attempt timeout and the retry delay are
 * tasks on the mock's virtual clock; a 2xx delivers, a 410 retires the URL, the end of the retry budget fails the
 * delivery, and anything else schedules the next attempt (exponential backoff with jitter, or the receiver's
 * `Retry-After` on 429/503, at most `maxDelayMs`). A failure inside the engine is recorded, never thrown.
 *
 * Before an attempt comes its lane: events of one payment reach one URL in order, so each (payment, URL) pair has a
 * lane and only its head is ever sent; a later event stays `queued` until the earlier one is delivered, failed for good
 * or gone. A URL that answered 410 Gone is retired: what waits for it, and what comes later, ends as `gone` without
 * being sent, until a redelivery to it revives it.
 *
 * @module
 */
import type { WebhookRetryPolicy } from '../../../assumptions.ts';
import { errorLine, kitMessage } from '../../../internal/messages.ts';
import type { Clock } from '../domain/clock.ts';
import type { DeliveryAttempted, EventBus } from '../domain/events.ts';
import {
  type Delivery,
  type DeliveryAttempt,
  type DeliveryFailureReason,
  type DeliveryState,
  recordAttempt,
  TERMINAL,
} from './delivery-record.ts';
import { createAttemptAbort, PostError, type PostResult, type WebhookTransport } from './transport.ts';

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

/** One attempt as the log tells it: which payment, where, which attempt, what came of it, what happens next. */
export interface WebhookAttemptReport {
  readonly deliveryId: string;
  readonly paymentUuid: string;
  /** The delivery's URL as configured (the log strips its query and masks it). */
  readonly url: string;
  /** Attempt number, as in the delivery log (counts on across redeliveries). */
  readonly attempt: number;
  /** HTTP status answered, when an answer came. */
  readonly status: number | undefined;
  /** Why no answer came (`ECONNREFUSED`, `timeout`, `receiver-threw: …`), when none came. */
  readonly error: string | undefined;
  /** Real duration of the attempt in ms. */
  readonly ms: number;
  /** Where the delivery stands after the attempt: `delivered`, `retry-scheduled`, `failed` or `gone`. */
  readonly state: Delivery['state'];
  /** Why it ended, when `failed` or `gone`. */
  readonly reason: Delivery['reason'];
  /** When the next attempt is due on the mock clock, when one is scheduled. */
  readonly nextAttemptAt: number | undefined;
  /** Mock-clock time the attempt started. */
  readonly at: number;
}

/** The report of attempt `a` of `d`, read after the attempt moved the delivery on. */
function attemptReport(d: Delivery, a: DeliveryAttempt): WebhookAttemptReport {
  return {
    deliveryId: d.id,
    paymentUuid: d.paymentUuid,
    url: d.url,
    attempt: a.number,
    status: a.status,
    error: a.error,
    ms: a.ms,
    state: d.state,
    reason: d.reason,
    nextAttemptAt: d.nextAttemptAt,
    at: a.at,
  };
}

/**
 * What an attempt answered `status` (undefined: no answer came) ends its delivery with, `attemptsInRound` counting
 * this attempt: `delivered` on a 2xx, `gone` on 410, `exhausted` once the round used `policy.maxAttempts`, else
 * undefined (a retry follows). The one policy of memory's attempts and a shared store's.
 *
 * @example
 * attemptEnd(policy, 503, policy.maxAttempts); // 'exhausted'
 */
export function attemptEnd(
  policy: Pick<WebhookRetryPolicy, 'maxAttempts'>,
  status: number | undefined,
  attemptsInRound: number,
): 'delivered' | 'gone' | 'exhausted' | undefined {
  if (status !== undefined && status >= 200 && status < 300) return 'delivered';
  if (status === 410) return 'gone';
  if (attemptsInRound >= policy.maxAttempts) return 'exhausted';
  return undefined;
}

/**
 * The delay (ms) before the retry that follows attempt number `attemptsInRound` of a round: the receiver's
 * `Retry-After` on 429 or 503 (at most `maxDelayMs`, an HTTP date read against `realNow`), else the backoff delay.
 *
 * @example
 * clock.schedule(retryDelayAfter(policy, result, 1, random, Date.now), retry);
 */
export function retryDelayAfter(
  policy: WebhookRetryPolicy,
  result: PostResult | undefined,
  attemptsInRound: number,
  random: () => number,
  realNow: () => number,
): number {
  const status = result?.status;
  const asked = status === 429 || status === 503 ? retryAfterMs(result?.retryAfter, result?.date, realNow) : undefined;
  return asked === undefined ? retryDelayMs(policy, attemptsInRound, random) : Math.min(asked, policy.maxDelayMs);
}

/** What {@link createAttemptRunner} needs. */
export interface AttemptDeps {
  readonly clock: Clock;
  readonly policy: WebhookRetryPolicy;
  readonly transport: WebhookTransport;
  /** Random source in [0, 1) for jitter. */
  readonly random: () => number;
  /** The headers of one attempt (signed afresh each time). */
  headersFor(d: Delivery): Record<string, string>;
  /** Receives a log line when something fails inside the engine. */
  report(message: string): void;
  readonly lanes: Pick<DeliveryLanes, 'finish' | 'retire'>;
  changed(d: Delivery): void;
  /** Told once per attempt, after its outcome moved the delivery on (delivered, gone, failed or retry scheduled). */
  readonly onAttempt?: ((report: WebhookAttemptReport) => void) | undefined;
  /** Where each attempt is told as a `delivery.attempted` event, before what follows from it (finished, retried). */
  readonly events?: EventBus | undefined;
  /** Moves a delivery to a state, keeping the history's counters. */
  setState(d: Delivery, state: DeliveryState): void;
  /** Attempts kept per delivery (`history.maxAttemptsPerDelivery`). */
  readonly maxAttemptsKept: number;
}

/**
 * The `delivery.attempted` event of attempt `a` of `d`, as one object literal: built from spread pieces it cost more
 * than the rest of an attempt's end.
 */
function attemptedEvent(d: Delivery, a: DeliveryAttempt, status: number | undefined): DeliveryAttempted {
  return {
    kind: 'delivery.attempted',
    deliveryId: d.id,
    uuid: d.paymentUuid,
    attempt: a.number,
    status,
    error: a.error,
    url: d.url,
    at: a.at,
  };
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

/**
 * Creates the function that sends one attempt of a delivery and settles it.
 *
 * @example
 * const attempt = createAttemptRunner({ clock, policy, transport, random, headersFor, report, lanes, changed });
 * attempt(delivery);
 */
export function createAttemptRunner(deps: AttemptDeps): (d: Delivery) => void {
  const { clock, policy, lanes } = deps;

  function settle(d: Delivery, logged: DeliveryAttempt, result: PostResult | undefined): void {
    d.inFlight = undefined;
    d.task?.cancel();
    d.task = undefined;
    recordAttempt(d, logged, deps.maxAttemptsKept);
    const status = result?.status;
    deps.events?.emit(attemptedEvent(d, logged, status));
    const end = attemptEnd(policy, status, d.attemptCount - d.roundStart);
    if (end === 'delivered') lanes.finish(d, 'delivered');
    else if (end === 'gone') lanes.retire(d);
    else if (end === 'exhausted') lanes.finish(d, 'failed', 'retries-exhausted');
    else scheduleRetry(d, result);
    deps.onAttempt?.(attemptReport(d, logged));
  }

  function scheduleRetry(d: Delivery, result: PostResult | undefined): void {
    const delay = retryDelayAfter(policy, result, d.attemptCount - d.roundStart, deps.random, Date.now);
    deps.setState(d, 'retry-scheduled');
    d.task = clock.schedule(delay, () => {
      d.task = undefined;
      attempt(d);
    });
    d.nextAttemptAt = d.task.dueAt;
    deps.changed(d);
  }

  /** Only a bug in the engine lands here; the delivery stays visible as failed instead of an unhandled rejection. */
  function internalFailure(d: Delivery, error: unknown): void {
    deps.report(
      kitMessage(
        `webhook delivery ${d.id}: internal error after an attempt (a bug in the mock; please report it): ${errorLine(error)}`,
      ),
    );
    if (TERMINAL.has(d.state)) return;
    d.inFlight = undefined;
    d.error = errorLine(error);
    lanes.finish(d, 'failed', 'internal-error');
  }

  function attempt(d: Delivery): void {
    const controller = createAttemptAbort();
    d.inFlight = controller;
    deps.setState(d, 'sending');
    d.nextAttemptAt = undefined;
    // The attempt timeout runs on the virtual clock too, so a test can time out a hanging receiver by advancing it.
    d.task = clock.schedule(policy.attemptTimeoutMs, () => controller.abort('timeout'));
    const at = clock.now();
    const started = performance.now();
    const number = d.attemptCount + 1;
    deps.changed(d);
    let headers: Record<string, string>;
    try {
      headers = deps.headersFor(d);
    } catch (error) {
      // Cannot happen with valid options; if it does, it is this attempt's error, retried like any other.
      deps.report(
        kitMessage(
          `webhook delivery ${d.id}: building the headers failed (a bug in the mock; please report it): ${errorLine(error)}`,
        ),
      );
      settle(d, { number, at, error: `headers: ${errorLine(error)}`, ms: elapsed(started) }, undefined);
      return;
    }
    deps.transport
      .send(d.target, headers, d.body, controller)
      .then(
        (result) => {
          if (d.inFlight !== controller) return; // reset or closed meanwhile
          const logged = { number, at, status: result.status, ms: elapsed(started), responseBody: result.bodySnippet };
          settle(d, logged, result);
        },
        (error: unknown) => {
          if (d.inFlight !== controller) return;
          const code = error instanceof PostError ? error.code : String(error);
          settle(d, { number, at, error: code, ms: elapsed(started) }, undefined);
        },
      )
      .catch((error: unknown) => internalFailure(d, error));
  }

  return attempt;
}

/** The lanes of one dispatcher. */
export interface DeliveryLanes {
  /** Puts a delivery in its lane; sends it when nothing of the same payment is ahead of it for that URL. */
  admit(d: Delivery): void;
  /** Ends a delivery and lets the next event of the same payment go to that URL. */
  finish(d: Delivery, state: 'delivered' | 'failed' | 'gone', reason?: DeliveryFailureReason): void;
  /**
   * After a 410 to `d`: retires its URL first (so the next event in line is not sent to it), ends `d` as gone, then
   * ends as gone what waits for that URL.
   */
  retire(d: Delivery): void;
  /** Switches a retired URL back on (an operator's redelivery). */
  revive(url: string): void;
  /** Forgets every lane and retired URL. */
  clear(): void;
}

/** What the lanes ask of the dispatcher. */
export interface LaneDeps {
  readonly clock: Clock;
  /** The kept deliveries of a URL, to find those waiting for it once it is retired. */
  ofUrl(url: string): Iterable<Delivery>;
  /** Moves a delivery to a state, keeping the history's counters. */
  setState(d: Delivery, state: DeliveryState): void;
  /** Starts an attempt of a lane's head. */
  send(d: Delivery): void;
  /** Tells waiters that `d` changed. */
  changed(d: Delivery): void;
  isClosed(): boolean;
}

/**
 * Creates the lanes of one dispatcher.
 *
 * @example
 * const lanes = createDeliveryLanes({ clock, ofUrl: store.ofUrl, setState: store.setState, send: attempt, changed, isClosed: () => closed });
 * lanes.admit(delivery);
 */
export function createDeliveryLanes(deps: LaneDeps): DeliveryLanes {
  /** Per payment and URL, the deliveries not yet finished, oldest first. */
  const lanes = new Map<string, Delivery[]>();
  const goneUrls = new Set<string>();

  function finish(d: Delivery, state: 'delivered' | 'failed' | 'gone', reason?: DeliveryFailureReason): void {
    d.task?.cancel();
    d.task = undefined;
    d.nextAttemptAt = undefined;
    d.reason = reason;
    deps.setState(d, state);
    if (state === 'delivered') d.deliveredAt = deps.clock.now();
    deps.changed(d);
    const lane = lanes.get(d.key);
    if (!lane) return;
    const at = lane.indexOf(d);
    if (at < 0) return;
    lane.splice(at, 1);
    if (lane.length === 0) lanes.delete(d.key);
    else if (at === 0) startHead(lane);
  }

  /** Sends the first delivery of a lane, unless its URL is retired (then it ends as gone and the next one goes). */
  function startHead(lane: readonly Delivery[]): void {
    const head = lane[0];
    if (head?.state !== 'queued' || deps.isClosed()) return;
    if (goneUrls.has(head.url)) finish(head, 'gone', 'url-gone');
    else deps.send(head);
  }

  return {
    admit(d) {
      if (goneUrls.has(d.url)) {
        finish(d, 'gone', 'url-gone');
        return;
      }
      deps.setState(d, 'queued');
      let lane = lanes.get(d.key);
      if (!lane) {
        lane = [];
        lanes.set(d.key, lane);
      }
      lane.push(d);
      if (lane.length === 1) startHead(lane);
      else deps.changed(d);
    },
    finish,
    retire(d) {
      goneUrls.add(d.url);
      finish(d, 'gone', 'receiver-gone');
      // What waits for that URL is recorded as gone, not dropped.
      const waiting = [...deps.ofUrl(d.url)].filter((w) => w.state === 'queued' || w.state === 'retry-scheduled');
      for (const w of waiting) finish(w, 'gone', 'url-gone');
    },
    revive(url) {
      goneUrls.delete(url);
    },
    clear() {
      lanes.clear();
      goneUrls.clear();
    },
  };
}
