/**
 * Folding of repeated log lines during an outage. A store that is down answers every request 503, and a receiver
 * that is down fails every webhook attempt: one line each buries the log in copies of one line for as long as the
 * outage lasts. Here the first lines of a kind are written (a few, so one delivery's retries still read in full
 * while debugging), later ones of the same kind are counted, and one summary line per window ("N more like it in
 * the last 10 s") replaces them. The end of the outage (the first success of the same family) writes the pending
 * summary at once, before the success's own line, so the log reads in order.
 *
 * Windows run on real time (a log is read in real time), not on the mock's virtual clock, whose jumps would fold
 * nothing or everything.
 *
 * @module
 */

/** How long repeats of one kind are counted before their summary is written (ms). */
export const REPEAT_WINDOW_MS = 10_000;
/** Lines of one kind written in full before the rest are counted: one delivery's whole schedule (8 attempts). */
export const REPEAT_BURST = 10;
/**
 * Kinds followed at once. A kind's key holds client text (a GraphQL operation name), so a hostile client could
 * name a new one per request: past this many, lines are written unfolded, as without folding, and memory stays
 * bounded.
 */
export const MAX_KINDS = 256;

/** One kind of line being folded: its family (what ends it), and how its summary reads. */
interface Fold {
  readonly family: string;
  readonly summary: (count: number) => string;
  /** Lines written in full since the kind began (up to the burst). */
  shown: number;
  /** Lines counted since the last summary. */
  count: number;
}

/** Decides which repeated lines are written, and writes the summaries of the others. */
export interface RepeatFolder {
  /**
   * Whether the line of kind `key` is written: true for the first `burst` of its kind (counted again after a quiet
   * window), false for a later repeat, which is counted into `summary(count)`, written once per window.
   */
  admit(family: string, key: string, summary: (count: number) => string): boolean;
  /** Whether any kind of `family` is being folded (a cheap check for the hot path). */
  folding(family: string): boolean;
  /** The outage of `family` is over: writes its pending summaries now and forgets its kinds. */
  end(family: string, matches?: (key: string) => boolean): void;
  /** Writes every pending summary and stops the window timer (the mock is closing). */
  close(): void;
}

/**
 * Creates a folder writing summaries through `emit`. A timer ticks every `windowMs` while a kind is known: a kind
 * with repeats counted gets its summary, a kind with none in the whole window is forgotten (its next lines are
 * written again, up to `burst`).
 * The timer is unref'd, so it never holds a process open.
 *
 * @example
 * const folder = createRepeatFolder((line) => log.line(line));
 * if (folder.admit('request', 'POST /graphql 503', (n) => `${n} more like it in the last 10 s`)) log.write(line);
 */
export function createRepeatFolder(
  emit: (line: string) => void,
  windowMs = REPEAT_WINDOW_MS,
  burst = REPEAT_BURST,
): RepeatFolder {
  const folds = new Map<string, Fold>();
  const families = new Map<string, number>();
  let timer: ReturnType<typeof setInterval> | undefined;

  const forget = (key: string, fold: Fold) => {
    folds.delete(key);
    const left = (families.get(fold.family) ?? 1) - 1;
    if (left === 0) families.delete(fold.family);
    else families.set(fold.family, left);
  };
  const summarise = (fold: Fold) => {
    if (fold.count === 0) return;
    const count = fold.count;
    fold.count = 0;
    emit(fold.summary(count));
  };
  const stopIfIdle = () => {
    if (folds.size > 0 || timer === undefined) return;
    clearInterval(timer);
    timer = undefined;
  };
  const tick = () => {
    for (const [key, fold] of folds) {
      if (fold.count === 0) forget(key, fold);
      else summarise(fold);
    }
    stopIfIdle();
  };

  return {
    admit(family, key, summary) {
      const fold = folds.get(key);
      if (fold !== undefined) {
        if (fold.shown < burst) {
          fold.shown += 1;
          return true;
        }
        fold.count += 1;
        return false;
      }
      if (folds.size >= MAX_KINDS) return true;
      folds.set(key, { family, summary, shown: 1, count: 0 });
      families.set(family, (families.get(family) ?? 0) + 1);
      if (timer === undefined) {
        timer = setInterval(tick, windowMs);
        (timer as { unref?: () => void }).unref?.();
      }
      return true;
    },
    folding: (family) => families.has(family),
    end(family, matches) {
      for (const [key, fold] of folds)
        if (fold.family === family && (matches === undefined || matches(key))) {
          summarise(fold);
          forget(key, fold);
        }
      stopIfIdle();
    },
    close() {
      for (const [key, fold] of folds) {
        summarise(fold);
        forget(key, fold);
      }
      stopIfIdle();
    },
  };
}
