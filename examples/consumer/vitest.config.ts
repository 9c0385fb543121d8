import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One mock and one webhook receiver for the whole run; their URLs reach the tests through `inject`.
    globalSetup: ['./test/global-setup.ts'],
  },
});
