/**
 * A bounded set of answers kept by key until the next reset: the /graphql route's kept fee list answers by body text
 * (http/service-routes.ts). Each kept answer holds only under the reset number (`epoch`) it was kept under; a new
 * epoch, or one key more than {@link maxKeptAnswers}, starts the set over, so a client sending a new key each time
 * holds a bounded set.
 *
 * @module
 */

/** Most answers one set keeps: a client asks for a few amounts, a hostile one for many. */
export const maxKeptAnswers = 64;

/** Answers kept by key. */
export interface KeptAnswers<T> {
  /** The answer kept for `key` since reset number `epoch`, if any. */
  get(key: string, epoch: number): T | undefined;
  /** Keeps `answer` for `key` under reset number `epoch`. */
  keep(key: string, epoch: number, answer: T): void;
}

/**
 * Creates an empty set.
 *
 * @example
 * const answers = createKeptAnswers<string>();
 * answers.keep('{"amount":100}', 0, json);
 * answers.get('{"amount":100}', 0); // json
 */
export function createKeptAnswers<T>(): KeptAnswers<T> {
  const byKey = new Map<string, T>();
  // The lengths of the kept keys: every /graphql body is looked up (a payment too), and a map lookup hashes the whole
  // body text, about a kilobyte, while a length no kept key has answers at once.
  const lengths = new Set<number>();
  let keptEpoch = 0;
  return {
    get: (key, epoch) => (epoch === keptEpoch && lengths.has(key.length) ? byKey.get(key) : undefined),
    keep(key, epoch, answer) {
      if (epoch !== keptEpoch || byKey.size >= maxKeptAnswers) {
        byKey.clear();
        lengths.clear();
        keptEpoch = epoch;
      }
      byKey.set(key, answer);
      lengths.add(key.length);
    },
  };
}
