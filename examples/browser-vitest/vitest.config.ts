import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.browser.test.ts'],
    browser: {
      enabled: true,
      headless: true,
      // Any Chromium will do: PLAYWRIGHT_CHROMIUM names one the system has (Debian's /usr/bin/chromium); unset, the
      // provider uses the one `npx playwright install chromium` downloads. --no-sandbox: Chromium will not start as
      // root (CI containers) with its sandbox on.
      provider: playwright({
        launchOptions: {
          executablePath: process.env.PLAYWRIGHT_CHROMIUM || undefined,
          args: ['--no-sandbox'],
        },
      }),
      instances: [{ browser: 'chromium' }],
    },
  },
});
