import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.browser.test.ts'],
    browser: {
      enabled: true,
      headless: true,
      // Any Chromium will do: PLAYWRIGHT_CHROMIUM works with the one your OS ships (Debian's /usr/bin/chromium) instead
      // of `npx playwright install chromium`.
      provider: playwright({
        launchOptions: {
          executablePath: process.env.PLAYWRIGHT_CHROMIUM || undefined,
          args: ['--no-sandbox', '--disable-gpu'],
        },
      }),
      instances: [{ browser: 'chromium' }],
    },
  },
});
