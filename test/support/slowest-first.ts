/**
 * The order vitest starts test files in: the slowest first, whatever their tier, so the run does not end on one
 * long file while the other worker sits idle. vitest's own order puts each project's files after the last one's and,
 * without a cache of earlier durations (a fresh clone: CI), goes by file size, which starts the soak (a short file,
 * minutes to run) near the end. Durations come from vitest's cache when it has them for both files, else from
 * {@link typicalSeconds}; a file in neither starts after the known slow ones, larger files first.
 *
 * @module
 */
import { relative } from 'node:path';
import type { TestSpecification } from 'vitest/node';
import { BaseSequencer } from 'vitest/node';

/**
 * Seconds each slow file took in one run of the integration and package tiers on the shared 2-core machine at a load
 * average near 15 (so about three times a quiet run; the soak's is its quiet 106 s scaled the same way). Files under
 * about 5 s are left out: their order hardly matters. Only the order is taken from these figures; a stale figure
 * costs time, never a result.
 */
export const typicalSeconds: Readonly<Record<string, number>> = {
  'test/package/published.test.ts': 581,
  'test/examples/consumer.test.ts': 311,
  'test/soak/soak.test.ts': 300,
  'test/msw/storybook.test.ts': 270,
  'test/bench/smoke.test.ts': 248,
  'test/msw/vitest-browser-mode.test.ts': 216,
  'test/binary/single-executable.test.ts': 198,
  'test/model/processes.test.ts': 186,
  'test/model/replicas.test.ts': 110,
  'test/fuzz/mock-http.test.ts': 151,
  'test/msw/vite-dev-server.test.ts': 133,
  'test/generated.test.ts': 113,
  'test/package/first-day.test.ts': 96,
  'test/mock/store/redis-figures.test.ts': 91,
  'test/recipes/codegen.test.ts': 80,
  'test/cli/process/verify.test.ts': 80,
  'test/docs/code-blocks.test.ts': 57,
  'test/mock/store/replicas-redis.test.ts': 44,
  'test/mock/store/redis-compaction.test.ts': 34,
  'test/ui/pages.test.ts': 33,
  'test/cli/process/mock.test.ts': 30,
  'test/pact/pact-publish.test.ts': 28,
  'test/cli/process/check.test.ts': 27,
  'test/docs/first-day-tsc.test.ts': 27,
  'test/pact/outside-verification.test.ts': 25,
  'test/cli/process/webhook-send.test.ts': 24,
  'test/cli/process/proxy.test.ts': 21,
  'test/ui/control-token.test.ts': 21,
  'test/package/cli-code-cache.test.ts': 20,
  'test/msw/browser.test.ts': 19,
  'test/ui/graphiql-first-run.test.ts': 19,
  'test/mock/browser-build.test.ts': 17,
  'test/mock/store/file-store-sigkill.test.ts': 16,
  'test/openapi.test.ts': 14,
  'test/pact/provider/verify-against-mock.test.ts': 12,
  'test/recipes/client-caches.test.ts': 9,
  'test/package/breaking-changes.test.ts': 8,
  'test/ui/cross-origin.test.ts': 8,
  'test/recipes/rest-and-graphql.test.ts': 7,
  'test/mock/store/store-faults.test.ts': 6,
  'test/mock/store/redis-fencing.test.ts': 6,
  'test/package/cli-start-up.test.ts': 6,
  'test/package/cli-closed-pipe.test.ts': 6,
  'test/bench/references/payment-floor.test.ts': 5,
};

/** Failed first (vitest's rule: the quickest feedback), then the longest expected, then the larger file. */
export class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const root = this.ctx.config.root;
    const key = (f: TestSpecification) => `${f.project.name}:${relative(root, f.moduleId)}`;
    const known = (f: TestSpecification) => cache.getFileTestResults(key(f));
    const expected = (f: TestSpecification) => {
      const cached = known(f)?.duration;
      return cached ?? (typicalSeconds[relative(root, f.moduleId)] ?? 0) * 1000;
    };
    const size = (f: TestSpecification) => cache.getFileStats(key(f))?.size ?? 0;
    return [...files].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      // Isolated files first, as vitest does: a worker that shares its module graph runs its files in one batch.
      if (a.project.config.isolate !== b.project.config.isolate) return a.project.config.isolate ? -1 : 1;
      const failed = Number(known(b)?.failed ?? false) - Number(known(a)?.failed ?? false);
      if (failed !== 0) return failed;
      return expected(b) - expected(a) || size(b) - size(a);
    });
  }
}
