/**
 * The mock's one virtual clock. Token expiry, payment settlement and webhook retries all read time and schedule work
 * here, so a test can advance the clock and see every consequence at once instead of sleeping.
 *
 * Virtual time = real time + an offset that only grows. A single real timer is armed for the earliest task; advancing
 * the clock runs every task that came due, in due order (ties in scheduling order). A task that throws is reported
 * to `onTaskError` and the others still run: tasks run inside real timers, where an exception would end the process.
 *
 * @module
 */
import { kitMessage } from '../../../internal/messages.ts';

/** A scheduled task that can be cancelled. */
export interface ScheduledTask {
  /** Virtual time (ms since the epoch) at which the task runs. */
  readonly dueAt: number;
  /** Cancels the task if it has not run yet. */
  cancel(): void;
}

/** Virtual clock and scheduler shared by every part of one mock instance. */
export interface Clock {
  /** Current virtual time in milliseconds since the epoch. */
  now(): number;
  /** Moves virtual time forward by `ms` and runs every task that came due. Returns the new time. */
  advance(ms: number): number;
  /** Runs `run` once virtual time reaches `now() + delayMs`. */
  schedule(delayMs: number, run: () => void): ScheduledTask;
  /** How many tasks are waiting. */
  pending(): number;
  /** How far the clock was moved forward since it was made or last reset (ms): a state store's snapshot. */
  advanced(): number;
  /** Cancels every waiting task and resets the offset to zero. */
  reset(): void;
  /** Cancels every waiting task and disarms the real timer; the clock keeps telling time. */
  dispose(): void;
}

interface Task extends ScheduledTask {
  readonly seq: number;
  readonly run: () => void;
  cancelled: boolean;
}

/** Options of {@link createClock}. */
export interface ClockOptions {
  /** Source of real time; tests may inject one. Defaults to `Date.now`. */
  readonly realNow?: () => number;
  /** Starting offset from real time in milliseconds. */
  readonly offsetMs?: number;
  /** Receives what a task threw (the mock logs it as a bug). Defaults to writing it to standard error. */
  readonly onTaskError?: (error: unknown) => void;
}

/** Latest virtual time the clock can reach: the largest time a JavaScript Date can hold. */
export const maxClockTime = 8.64e15;

/** The longest delay a real timer holds (2³¹ - 1 ms, about 24.8 days) in Node and browsers. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** Creates a virtual clock. No real timer is armed until a task is scheduled. */
export function createClock(options: ClockOptions = {}): Clock {
  const realNow = options.realNow ?? Date.now;
  let offset = options.offsetMs ?? 0;
  const onTaskError =
    options.onTaskError ??
    ((error: unknown) => {
      console.error(kitMessage('a scheduled task of the mock clock failed:'), error);
    });
  let seq = 0;
  const heap: Task[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The real time the armed timer fires at. Kept in real time, not virtual: an advance brings every task nearer in
  // real time, and a timer armed before it for the same task would fire as late as it was first armed for.
  let armedForReal = Number.POSITIVE_INFINITY;

  const now = () => realNow() + offset;

  function runDue(): void {
    // Tasks may schedule new tasks; those run in this pass only if already due.
    for (;;) {
      const top = heap[0];
      if (!top || top.dueAt > now()) break;
      pop(heap);
      if (!top.cancelled) {
        top.cancelled = true;
        try {
          top.run();
        } catch (error) {
          // A failing task must not stop the clock for everyone else, nor end the process.
          try {
            onTaskError(error);
          } catch {
            // The reporter itself failed; nothing more can be done without throwing into a timer.
          }
        }
      }
    }
    arm();
  }

  function arm(): void {
    while (heap[0]?.cancelled) pop(heap);
    const top = heap[0];
    if (!top) {
      if (timer) clearTimeout(timer);
      timer = undefined;
      armedForReal = Number.POSITIVE_INFINITY;
      return;
    }
    const dueReal = top.dueAt - offset;
    if (timer && armedForReal <= dueReal) return;
    if (timer) clearTimeout(timer);
    // A timer given more than it can hold fires at once; a longer wait is made of several, each re-armed by runDue.
    const wait = Math.min(Math.max(0, top.dueAt - now()), LONGEST_TIMER_MS);
    armedForReal = Math.min(dueReal, realNow() + wait);
    timer = setTimeout(() => {
      timer = undefined;
      armedForReal = Number.POSITIVE_INFINITY;
      runDue();
    }, wait);
    // The clock never keeps a process alive on its own; the server socket does. (Browsers' timers are numbers.)
    (timer as { unref?: () => void }).unref?.();
  }

  return {
    now,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0)
        throw new RangeError(kitMessage(`cannot advance the clock by ${ms} ms: give a finite, non-negative number.`));
      if (now() + ms > maxClockTime)
        throw new RangeError(
          kitMessage(
            `cannot advance the clock by ${ms} ms: it would pass the latest date JavaScript can hold (${new Date(maxClockTime).toISOString()}); give a smaller number.`,
          ),
        );
      offset += ms;
      runDue();
      return now();
    },
    schedule(delayMs, run) {
      const task: Task = {
        dueAt: now() + Math.max(0, delayMs),
        seq: seq++,
        run,
        cancelled: false,
        cancel() {
          task.cancelled = true;
        },
      };
      push(heap, task);
      arm();
      return task;
    },
    advanced: () => offset - (options.offsetMs ?? 0),
    pending() {
      return heap.filter((t) => !t.cancelled).length;
    },
    reset() {
      for (const t of heap) t.cancelled = true;
      heap.length = 0;
      offset = options.offsetMs ?? 0;
      arm();
    },
    dispose() {
      for (const t of heap) t.cancelled = true;
      heap.length = 0;
      arm();
    },
  };
}

// A binary min-heap ordered by (dueAt, seq): settlement of 100k payments must not cost O(n) per schedule.
function before(a: Task, b: Task): boolean {
  return a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.seq < b.seq);
}

function push(heap: Task[], task: Task): void {
  heap.push(task);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!before(heap[i]!, heap[parent]!)) break;
    [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
    i = parent;
  }
}

function pop(heap: Task[]): Task | undefined {
  const top = heap[0];
  const last = heap.pop();
  if (heap.length > 0 && last) {
    heap[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && before(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && before(heap[r]!, heap[m]!)) m = r;
      if (m === i) break;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  }
  return top;
}
