/**
 * Debian's Chromium driven by playwright-core (never a downloaded browser): one launch per test file with a fresh
 * user-data directory, and a page that records every console error and uncaught exception, so a test can assert
 * that a page loaded cleanly.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/** Where .ci/run installs Debian's chromium package. */
export const chromiumPath = process.env.PCK_CHROMIUM ?? '/usr/bin/chromium';

/** Whether the browser is installed (the tests fail with a clear message when it is not). */
export const hasChromium = existsSync(chromiumPath);

const args = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A running browser with its own profile; `close()` removes the profile. */
export interface TestBrowser {
  readonly context: BrowserContext;
  /** Opens a page that records console errors and page errors into `problems`. */
  open(): Promise<{ page: Page; problems: string[] }>;
  close(): Promise<void>;
}

/** Launches Chromium with a fresh user-data directory and a fixed viewport (stable screenshots). */
export async function launchBrowser(): Promise<TestBrowser> {
  if (!hasChromium)
    throw new Error(
      `Chromium is not installed at ${chromiumPath}: run .ci/run (it installs Debian's chromium package).`,
    );
  const profile = await mkdtemp(join(tmpdir(), 'pck-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    args,
    viewport: { width: 1280, height: 800 },
  });
  return {
    context,
    async open() {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      return { page, problems };
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
