import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { SlowestFirstSequencer } from './test/support/slowest-first.ts';
import { integrationTests, isolatedUnitTests, packageTests } from './test/tiers.ts';

// Three tiers, each a vitest project with a script of its own (docs/developing.md): `npm run test:unit` is the loop
// to work in; `npm test` runs every check and every tier, fastest first. Which file is in which tier: test/tiers.ts.
const outsideUnit = [...integrationTests, ...packageTests];
const unitGuard = 'test/support/unit-tier-guard.ts';
// test/node-version.test.ts belongs to `npm run test:node-versions`, which names the Node major it runs on; the
// ordinary run has nothing to compare it with.
const nodeVersionOnly = process.env.PCK_TEST_NODE_MAJOR === undefined ? ['test/node-version.test.ts'] : [];

// `bash .ci/run` sets PCK_TEST_RESULTS to a folder: each vitest run (one per tier) adds its JSON results there, and
// the run's closing line adds them up.
const resultsDir = process.env.PCK_TEST_RESULTS;
const results = resultsDir
  ? {
      reporters: ['default', 'json'],
      outputFile: { json: join(resultsDir, `vitest-${process.pid}-${Date.now()}.json`) },
    }
  : {};

export default defineConfig({
  test: {
    ...results,
    // vitest's default on 2 cores is one worker; most files wait on sockets and timers as much as they compute.
    maxWorkers: 2,
    // The slowest files first, across the tiers of one run: the run then ends on short files on both workers.
    sequence: { sequencer: SlowestFirstSequencer },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...outsideUnit, ...isolatedUnitTests, ...nodeVersionOnly],
          setupFiles: [unitGuard],
          // One module graph per worker: the loop's biggest cost was loading the same modules again for every file.
          isolate: false,
          typecheck: {
            enabled: true,
            include: ['test/**/*.test-d.ts'],
            tsconfig: './tsconfig.type-tests.json',
          },
        },
      },
      {
        extends: true,
        test: { name: 'unit-isolated', include: [...isolatedUnitTests], setupFiles: [unitGuard] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: [...integrationTests, ...(nodeVersionOnly.length === 0 ? ['test/node-version.test.ts'] : [])],
          exclude: ['**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'package',
          include: [...packageTests],
          exclude: ['**/node_modules/**'],
          globalSetup: ['test/support/packed-kit-setup.ts'],
        },
      },
    ],
  },
});
