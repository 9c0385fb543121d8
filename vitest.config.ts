import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // test/node-version.test.ts belongs to `npm run test:node-versions`, which names the Node major it runs on; the
    // ordinary run has nothing to compare it with.
    exclude: process.env.PCK_TEST_NODE_MAJOR === undefined ? ['**/node_modules/**', 'test/node-version.test.ts'] : [],
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
