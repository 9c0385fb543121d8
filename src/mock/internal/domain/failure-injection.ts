/**
 * Injected failures (`failNextRequest`): the next request(s) to a service path answer an error status with the
 * spec's body instead of running, so a consumer can see how it handles a 500 or a 429 from the service. This module
 * holds what is armed; the HTTP layer turns a failure taken into the route's answer (`ErrorMapper.injected`).
 *
 * Memory keeps them here; the file store journals their arms and uses (`fail`, `take`); a Redis store holds them
 * itself (store/failure-state.ts, decision 0040): arms and uses are its scripts, and nothing of them is kept here.
 *
 * @module
 */
import { afterIdle } from '../background-writes.ts';
import type { ArmedFailure, SharedFailureState } from '../store/failure-state.ts';
import {
  numberField,
  type RecordApplier,
  type RecordBody,
  type Recorder,
  type RecordSnapshot,
  textField,
} from '../store/records.ts';
import type { EventBus } from './events.ts';

/** Pending failures by path. */
export interface FailureInjection {
  /** Whether any failure is pending: one size check on the hot path (always true when the store holds them). */
  readonly pending: () => boolean;
  /** True when a shared store holds the failures (Redis): none travels through its log, each use is its script. */
  readonly inStore: boolean;
  /** Arms `times` failures of `path` with `status` (already validated). */
  arm(path: string, status: number, message: string | undefined, times: number): void;
  /**
   * Takes the next failure armed for `path`, if any. When the store holds the failures it is taken there (a promise:
   * undefined when none was left); rejects when the store fails.
   */
  take(path: string): ArmedFailure | Promise<ArmedFailure | undefined> | undefined;
  /** Forgets every pending failure. */
  reset(): void;
  /** Takes back a `fail` or `take` record of a state store. */
  readonly apply: RecordApplier['apply'];
  /** A `fail` and a `take` record per failure still armed (a state store's compaction). */
  readonly snapshot: RecordSnapshot['snapshot'];
}

interface Armed {
  status: number;
  message: string | undefined;
  /** With a file store: the arm's id (its uses' records name it), and how many uses were taken. */
  readonly id?: string;
  readonly times: number;
  used: number;
}

/**
 * Creates an empty set of injected failures. With a file store, `record` tells it every arm and use. With `stored`
 * (a Redis store) the store holds them instead, and `record` is not used.
 */
export function createFailureInjection(
  record?: Recorder,
  events?: EventBus,
  stored?: SharedFailureState,
): FailureInjection {
  if (stored) return storedFailures(stored, events);
  const failures = new Map<string, Armed>();
  /** Marks use `n` of `f` (at `path`) taken; the failure goes once its last use is. */
  const use = (path: string, f: Armed, n: number) => {
    f.used = Math.max(f.used, n);
    if (f.used >= f.times && failures.get(path) === f) failures.delete(path);
  };
  // The records of an arm and of its uses so far: as arming and taking write them, and as a snapshot does.
  const failOf = (p: string, f: Armed): RecordBody => ({
    t: 'fail',
    p,
    s: f.status,
    m: f.message ?? null,
    n: f.times,
    i: f.id,
  });
  const takeOf = (p: string, f: Armed): RecordBody => ({ t: 'take', p, i: f.id ?? null, k: f.used });
  return {
    pending: () => failures.size > 0,
    inStore: false,
    arm(path, status, message, times) {
      const f: Armed = { status, message, times, used: 0, id: record ? globalThis.crypto.randomUUID() : undefined };
      failures.set(path, f);
      record?.(failOf(path, f));
      events?.emit({ kind: 'failure.armed', target: path, status, message, times });
    },
    take(path) {
      const f = failures.get(path);
      if (!f) return undefined;
      use(path, f, f.used + 1);
      record?.(takeOf(path, f));
      return f;
    },
    reset: () => failures.clear(),
    snapshot() {
      const out: ReturnType<RecordSnapshot['snapshot']> = [];
      for (const [p, f] of failures) {
        out.push(failOf(p, f));
        if (f.used > 0) out.push(takeOf(p, f));
      }
      return out;
    },
    apply(r) {
      const path = textField(r, 'p');
      if (r.t === 'fail') {
        const message = typeof r.m === 'string' ? r.m : undefined;
        const times = numberField(r, 'n');
        const id = typeof r.i === 'string' ? r.i : undefined;
        failures.set(path, { status: numberField(r, 's'), message, times, used: 0, id });
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
function storedFailures(stored: SharedFailureState, events: EventBus | undefined): FailureInjection {
  const afterOwn = <T>(work: () => Promise<T>): Promise<T> => afterIdle(stored.idle, work);
  return {
    pending: () => true,
    inStore: true,
    arm(path, status, message, times) {
      stored.background(afterOwn(() => stored.port.arm(path, { status, message }, times)));
      events?.emit({ kind: 'failure.armed', target: path, status, message, times });
    },
    take: (path) => afterOwn(() => stored.port.take(path)),
    reset: () => undefined,
    apply: () => undefined,
    snapshot: () => [],
  };
}
