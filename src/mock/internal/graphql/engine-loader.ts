/**
 * Loads the GraphQL engine (graphql-js, graphql-jit, @graphql-tools/mock) on the first `/graphql` request instead of
 * at start-up: the CLI's cold start is benchmarked, and token calls never need it. A failed load is retried by the
 * next request rather than remembered. The journal's summary of a request's variables lives here too: the request
 * path imports this module eagerly and summarizes every GraphQL request with variables, and graphql-js (which
 * redact.ts needs to walk documents) must stay out of the mock's import graph until the first GraphQL answer.
 *
 * @module
 */
import { maskCardNumber, maskDigits } from '../../../contract/card-masking.ts';
import { cardNumberFields } from '../../../contract/guides.ts';
import type { GraphqlEngineDeps, GraphqlResult, GraphqlEngine as SyncEngine } from './engine.ts';

/** The engine as the routes get it: its answer is a promise over a shared store's card accounts. */
type GraphqlEngine = SyncEngine<GraphqlResult | Promise<GraphqlResult>>;

/** The engine, once loaded. */
export interface EngineLoader {
  /** The engine if it has loaded: lets the hot path skip a promise. */
  current(): GraphqlEngine | undefined;
  /** Loads it (once) and resolves with it. */
  load(): Promise<GraphqlEngine>;
  /** Resets the engine's seeded state, when it has loaded. */
  reset(): void;
}

/** Creates the loader; nothing is imported until {@link EngineLoader.load}. */
export function createEngineLoader(deps: GraphqlEngineDeps): EngineLoader {
  let engine: GraphqlEngine | undefined;
  let loading: Promise<GraphqlEngine> | undefined;
  return {
    current: () => engine,
    reset: () => engine?.reset(),
    load() {
      loading ??= import('./engine.ts').then(
        (m) => {
          engine = m.createGraphqlEngine(deps);
          return engine;
        },
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
  };
}

/**
 * A copy of GraphQL variables safe to keep and show: card numbers (`card_number`, legacy `number`) masked to first 6 /
 * last 4, `cvv` removed at any depth. Depth and size are bounded, as the summary is for eyes, not for replay.
 *
 * Runs on every GraphQL request with variables, so it walks objects with `for…in` and compares keys directly
 * instead of `Object.entries` and Set lookups, which allocate an array per object walked.
 */
export function summarizeVariables(value: unknown, depth = 0): unknown {
  // A card number can arrive in any field, even as a JSON number (fuzzing sent one as an amount): mask every
  // card-like digit run. Shorter strings and smaller numbers cannot hold one, so they skip the regular expression.
  if (typeof value === 'string') return value.length >= 12 ? maskDigits(value) : value;
  if (typeof value === 'number') return value >= 1e11 || value <= -1e11 ? maskDigits(String(value)) : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth > 6) return '[…]';
  if (Array.isArray(value)) {
    const n = Math.min(value.length, 20);
    const list: unknown[] = new Array(n);
    for (let i = 0; i < n; i++) list[i] = summarizeVariables(value[i], depth + 1);
    return list;
  }
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key in source) {
    if (!Object.hasOwn(source, key) || key === 'cvv') continue;
    const v = source[key];
    out[key] =
      cardNumberFields.has(key) && typeof v === 'string' ? maskCardNumber(v) : summarizeVariables(v, depth + 1);
  }
  return out;
}
