/**
 * Kept /graphql answers by request body (issue 22: the fee list against the bare node:http limit). The engine keeps
 * the answer of a configuration-only query (the fee list) per document, guide and variables (pure-answers.ts), but
 * reaching that answer still costs parsing the body, the document cache's lookup, the guide decision, the variables'
 * key and the journal's summary. The answer, its verdict and its journal summary are a function of the body's text
 * alone (the guide follows from the document and variables; the token is checked before, on every request), so the
 * route keeps the whole outcome by that text and, for the same body, sends it again without parsing it.
 *
 * A kept outcome's journal summary is frozen: each request answered from it journals the same object.
 *
 * Kept only: outcomes of answers the engine marked `kept`, under the engine's current reset number (a reset forgets
 * them all), for bodies of at most {@link maxKeptBodyLength} characters, at most {@link maxKeptBodies} of them (the set
 * starts over when full, so a client sending a new body each time holds a bounded set).
 *
 * @module
 */
import type { Outcome } from './outcome.ts';

/** Most bodies whose outcome is kept at once. */
export const maxKeptBodies = 64;

/** Longest body text kept as a key (the kit's fee list query with its variables is about 400 characters). */
export const maxKeptBodyLength = 2048;

/** The kept outcomes of one mock instance's /graphql route. */
export interface KeptGraphqlAnswers {
  /** The outcome kept for body text `text` under reset number `epoch`, if any. */
  get(text: string, epoch: number): Outcome | undefined;
  /** Keeps `outcome` (of an answer the engine marked `kept` under `epoch`) for body text `text`. */
  keep(text: string, epoch: number, outcome: Outcome): void;
}

/**
 * Creates an empty set of kept outcomes.
 *
 * @example
 * const kept = createKeptGraphqlAnswers();
 * kept.keep(text, engine.answersEpoch(), outcome);
 * kept.get(text, engine.answersEpoch()); // outcome
 */
export function createKeptGraphqlAnswers(): KeptGraphqlAnswers {
  const byText = new Map<string, Outcome>();
  let keptEpoch = 0;
  return {
    get: (text, epoch) => (epoch === keptEpoch ? byText.get(text) : undefined),
    keep(text, epoch, outcome) {
      if (text.length > maxKeptBodyLength) return;
      if (epoch !== keptEpoch || byText.size >= maxKeptBodies) {
        byText.clear();
        keptEpoch = epoch;
      }
      // Every request answered from it journals the same summary object: frozen, so no reader can change another's.
      deepFreeze(outcome.summary);
      byText.set(text, outcome);
    },
  };
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}
