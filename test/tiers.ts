/**
 * Which test file belongs to which tier. The unit tier is every test file that no other tier claims; it runs in
 * process (no child process, browser, npm or Redis: test/support/unit-tier-guard.ts refuses them at run time) and is
 * the loop to work in. The integration tier starts real servers and processes; the package tier uses the kit as
 * consumers get it, packed once per run (test/support/packed-kit-setup.ts).
 *
 * A new file lands in the unit tier unless a pattern here names it: add it to the tier it needs, with the reason.
 *
 * @module
 */

/** Real servers and processes: the CLI as a process, Redis, Pact mock servers and the verifier, Chromium, soak, fuzz. */
export const integrationTests = [
  // The CLI as a process: one smoke test per command, and the cases only a process can show (signals, pipes).
  'test/cli/process/**/*.test.ts',
  // Codegen and redocly run as processes.
  'test/generated.test.ts',
  'test/openapi.test.ts',
  // The docs' sh blocks run the built CLI; its ts blocks compile against the built package.
  'test/docs/code-blocks.test.ts',
  'test/docs/first-day-tsc.test.ts',
  // The built package as teams import it by name (dist/), and the built browser pages (dist/ui/).
  'test/recipes/client-caches.test.ts',
  'test/recipes/rest-and-graphql.test.ts',
  'test/mock/store/store-faults.test.ts',
  // Redis servers of their own, and the file store killed with SIGKILL in a child process.
  'test/mock/store/file-store-delivery-takeover.test.ts',
  'test/mock/store/file-store-sigkill.test.ts',
  'test/mock/store/redis-*.test.ts',
  'test/mock/store/replica-control.test.ts',
  'test/mock/store/replicas-redis.test.ts',
  'test/mock/store/store-option.test.ts',
  'test/mock/internal/store/redis-store.test.ts',
  'test/mock/internal/store/redis-failure-state.test.ts',
  'test/mock/internal/store/redis-payment-state.test.ts',
  'test/mock/internal/store/redis-journal-state.test.ts',
  'test/mock/internal/webhooks/shared-deliveries.test.ts',
  'test/msw/store.test.ts',
  'test/bench/smoke.test.ts',
  'test/bench/shared-store-report.test.ts',
  // Pact's own mock servers and verifier (its native core), and the Pact CLI.
  'test/pact/consumer/**/*.test.ts',
  'test/pact/provider/**/*.test.ts',
  'test/pact/clients/**/*.test.ts',
  'test/pact/execute-recorded.test.ts',
  'test/pact/outside-verification.test.ts',
  'test/pact/pact-publish.test.ts',
  // Chromium pages.
  'test/ui/*.test.ts',
  'test/mock/internal/ui/routes.test.ts',
  // esbuild's service is a child process: the benchmark's reference servers and the browser bundle's figure.
  'test/bench/references/payment-floor.test.ts',
  'test/bench/browser-bundle.test.ts',
  // The reference model's runs against the CLI, the CLI on a file: store killed and restarted, and the proxy.
  'test/model/processes.test.ts',
  // The reference model's runs against two and three replicas of the CLI on a redis-server of their own.
  'test/model/replicas.test.ts',
  // The reference model's runs against the msw handlers under setupWorker in Chromium.
  'test/model/browser-worker.test.ts',
  // The fuzz budget against the CLI mock, and the soak.
  'test/fuzz/mock-http.test.ts',
  'test/soak/**/*.test.ts',
] as const;

/** The packed kit as consumers install it: tarball installs, examples, recipes, browser builds, other runtimes. */
export const packageTests = [
  'test/package/**/*.test.ts',
  'test/binary/**/*.test.ts',
  'test/examples/**/*.test.ts',
  'test/recipes/codegen.test.ts',
  'test/recipes/type-check.test.ts',
  'test/runtimes/**/*.test.ts',
  'test/types/declarations-without-node.test.ts',
  'test/mock/browser-build.test.ts',
  'test/msw/browser.test.ts',
  'test/msw/browser-docs.test.ts',
  'test/msw/storybook.test.ts',
  'test/msw/vite-dev-server.test.ts',
  'test/msw/vitest-browser-mode.test.ts',
] as const;

/**
 * Unit tests that need a module graph of their own: the unit tier shares one between the files of a worker (modules
 * load once, which halves the loop), so a file that mocks modules, stubs globals or needs a fresh engine runs
 * isolated. test/architecture/test-tiers.test.ts finds the files that use `vi.mock` and the like and asks for them
 * here.
 */
export const isolatedUnitTests = [
  'test/ui/internal/token.test.ts',
  'test/mock/internal/platform/secret-match.test.ts',
  // Its first request must meet an engine that has not loaded graphql-jit yet.
  'test/mock/internal/graphql/engine-execution.test.ts',
  'test/cli/commands/webhook-send.test.ts',
] as const;
