/**
 * graphql-jit, loaded once per process on first need: it is not on the start-up path (loading it eagerly was a
 * third of the time from spawning the mock to its first GraphQL answer, the cold start). Requests before it
 * has loaded run on graphql-js with the same answers. The Node platform passes {@link nodeJitLoader} to the engine;
 * the browser build has none, so graphql-jit (and its JSON serializer) stays out of the browser bundle.
 *
 * @module
 */

/** The jit module's exports. */
export type JitModule = typeof import('./jit.ts');

/** Loads the GraphQL query compiler once: what a platform hands the engine ({@link nodeJitLoader} under Node). */
export interface JitLoader {
  /** The compiler if it has loaded, else undefined (nothing is started). */
  loaded(): JitModule | undefined;
  /** Starts loading (once); resolves when it has loaded or failed to. */
  load(): Promise<void>;
}

let jit: JitModule | undefined;
let jitLoading: Promise<void> | undefined;

/**
 * The loader as the engine takes it (`GraphqlEngineDeps.jit`). A compiler that does not load leaves every operation
 * on graphql-js: slower, same answers.
 *
 * @example
 * if (nodeJitLoader.loaded() === undefined) void nodeJitLoader.load();
 */
export const nodeJitLoader = {
  loaded: (): JitModule | undefined => jit,
  load(): Promise<void> {
    jitLoading ??= import('./jit.ts').then(
      (m) => {
        jit = m;
      },
      () => undefined,
    );
    return jitLoading;
  },
} as const satisfies JitLoader;
