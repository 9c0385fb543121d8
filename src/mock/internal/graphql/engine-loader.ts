/**
 * Loads the GraphQL engine (graphql-js, graphql-jit, @graphql-tools/mock) on the first `/graphql` request instead of
 * at start-up: the CLI's cold start is benchmarked, and token calls never need it. A failed load is retried by the
 * next request rather than remembered.
 *
 * @module
 */
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
