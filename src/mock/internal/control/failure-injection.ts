/**
 * Injected failures (`failNextRequest`): the next request(s) to a service path answer an error status with the
 * spec's body instead of running, so a consumer can see how it handles a 500 or a 429 from the service.
 *
 * Memory keeps them here; the file store journals their arms and uses (`fail`, `take`); a Redis store holds them
 * itself (store/failure-state.ts, decision 0040): arms and uses are its scripts, and nothing of them is kept here.
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import { restErrorBody } from '../../../contract/error-shapes.ts';
import { kitMessage } from '../../../internal/messages.ts';
import type { EventBus } from '../domain/events.ts';
import { graphqlFailure } from '../http/error-mapping.ts';
import type { Outcome } from '../http/outcome.ts';
import type { RouteKind } from '../http/router.ts';
import type { ArmedFailure, SharedFailureState } from '../store/failure-state.ts';
import { numberField, type RecordApplier, type Recorder, type RecordSnapshot, textField } from '../store/records.ts';

/** Pending failures by path. */
export interface FailureInjection {
  /** Whether any failure is pending: one size check on the hot path (always true when the store holds them). */
  readonly pending: () => boolean;
  /** True when a shared store holds the failures (Redis): none travels through its log, each use is its script. */
  readonly inStore: boolean;
  /** Arms `times` failures of `path` with `status` (already validated). */
  arm(path: string, status: number, message: string | undefined, times: number): void;
  /**
   * Takes the next failure armed for `path`, as the answer in the route's shape, if any. With a shared state store
   * the use is claimed first, and when the store holds the failures it is taken there (a promise: undefined when
   * none was left); rejects when the store fails.
   */
  take(path: string, kind: RouteKind): Outcome | Promise<Outcome | undefined> | undefined;
  /** The answer of a failure the store's token check took (`inStore`), in the route's shape. */
  answer(failure: ArmedFailure, kind: RouteKind): Outcome;
  /** Forgets every pending failure. */
  reset(): void;
  /** Takes back a `fail` or `take` record of a state store. */
  readonly apply: RecordApplier['apply'];
  /** A `fail` and a `take` record per failure still armed (a state store's compaction). */
  readonly snapshot: RecordSnapshot['snapshot'];
}

/**
 * How a shared state store hands out the uses of an armed failure: `claim(key)` is true for exactly one
 * process per key. Each use is key `fail:<arm id>:<use number>`.
 */
export type FailureClaim = (key: string) => Promise<boolean>;

interface Armed {
  status: number;
  message: string | undefined;
  remaining: number;
  /** With a store: the arm's id (uses are claimed under it), and how many uses were taken. */
  readonly id?: string;
  readonly times: number;
  used: number;
  /** The highest use this process asked the store for: requests of one process at once ask for different uses. */
  asked: number;
}

/**
 * Creates an empty set of injected failures. With a state store, `record` tells it every arm and use; with a shared
 * one, `claim` makes each use one process's, so two replicas answering at once never both use one failure. With
 * `stored` (a Redis store) the store holds them instead, and `record` and `claim` are not used.
 */
export function createFailureInjection(
  assumptions: Assumptions,
  record?: Recorder,
  claim?: FailureClaim,
  events?: EventBus,
  stored?: SharedFailureState,
): FailureInjection {
  const reasons = assumptions.reasonCodes;
  const answerOf = (f: ArmedFailure, kind: RouteKind): Outcome => {
    const message = f.message ?? kitMessage(`Injected failure (failNextRequest) with status ${f.status}.`);
    return kind === 'graphql'
      ? graphqlFailure(f.status, message, f.status >= 500 ? reasons.internal : reasons.badRequest)
      : { status: f.status, body: restErrorBody(message) };
  };
  if (stored) return storedFailures(stored, answerOf, events);
  const failures = new Map<string, Armed>();
  /** Marks use `n` of `f` (at `path`) taken; the failure goes once its last use is. */
  const use = (path: string, f: Armed, n: number) => {
    f.used = Math.max(f.used, n);
    f.remaining = f.times - f.used;
    if (f.remaining <= 0 && failures.get(path) === f) failures.delete(path);
  };
  // The uses after those already taken, one claim each, until one is won or none is left.
  async function claimed(path: string, f: Armed, kind: RouteKind, ask: FailureClaim): Promise<Outcome | undefined> {
    for (;;) {
      const n = Math.max(f.used, f.asked) + 1;
      if (n > f.times || failures.get(path) !== f) return undefined;
      f.asked = n;
      const won = await ask(`fail:${f.id}:${n}`);
      if (won) {
        use(path, f, n);
        record?.({ t: 'take', p: path, i: f.id, k: n });
        return answerOf(f, kind);
      }
      use(path, f, n);
    }
  }
  return {
    pending: () => failures.size > 0,
    inStore: false,
    answer: answerOf,
    arm(path, status, message, times) {
      const id = record ? globalThis.crypto.randomUUID() : undefined;
      failures.set(path, { status, message, remaining: times, times, used: 0, asked: 0, ...(id ? { id } : {}) });
      if (record) record({ t: 'fail', p: path, s: status, m: message ?? null, n: times, i: id });
      events?.emit({ kind: 'failure.armed', target: path, status, message, times });
    },
    take(path, kind) {
      const f = failures.get(path);
      if (!f) return undefined;
      if (claim && f.id !== undefined) return claimed(path, f, kind, claim);
      use(path, f, f.used + 1);
      if (record) record({ t: 'take', p: path, i: f.id ?? null, k: f.used });
      return answerOf(f, kind);
    },
    reset: () => failures.clear(),
    snapshot() {
      const out: ReturnType<RecordSnapshot['snapshot']> = [];
      for (const [p, f] of failures) {
        out.push({ t: 'fail', p, s: f.status, m: f.message ?? null, n: f.times, i: f.id });
        if (f.used > 0) out.push({ t: 'take', p, i: f.id ?? null, k: f.used });
      }
      return out;
    },
    apply(r) {
      const path = textField(r, 'p');
      if (r.t === 'fail') {
        const message = typeof r.m === 'string' ? r.m : undefined;
        const times = numberField(r, 'n');
        const id = typeof r.i === 'string' ? r.i : undefined;
        failures.set(path, {
          status: numberField(r, 's'),
          message,
          remaining: times,
          times,
          used: 0,
          asked: 0,
          ...(id ? { id } : {}),
        });
      } else if (r.t === 'take') {
        const f = failures.get(path);
        // A use of an earlier arm of the path (replaced since) changes nothing.
        if (f && (r.i === undefined || r.i === null || r.i === f.id))
          use(path, f, typeof r.k === 'number' ? r.k : f.used + 1);
      }
    },
  };
}

/**
 * The failures a shared store holds: an arm is written in the background (`control.failNextRequest()` is
 * synchronous; the next answer and `control.durable()` wait for it), a use is one take script, after this process's
 * own background writes. Nothing is kept, recorded or claimed here, and a reset is the store's new epoch.
 */
function storedFailures(
  stored: SharedFailureState,
  answerOf: (f: ArmedFailure, kind: RouteKind) => Outcome,
  events: EventBus | undefined,
): FailureInjection {
  const afterOwn = <T>(work: () => Promise<T>): Promise<T> => {
    const wait = stored.idle();
    return wait === undefined ? work() : wait.then(work);
  };
  return {
    pending: () => true,
    inStore: true,
    arm(path, status, message, times) {
      stored.background(afterOwn(() => stored.port.arm(path, { status, message }, times)));
      events?.emit({ kind: 'failure.armed', target: path, status, message, times });
    },
    take: (path, kind) => afterOwn(() => stored.port.take(path)).then((f) => (f ? answerOf(f, kind) : undefined)),
    answer: answerOf,
    reset: () => undefined,
    apply: () => undefined,
    snapshot: () => [],
  };
}
