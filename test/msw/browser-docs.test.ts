// docs/browser.md shows the browser examples' files verbatim (a block whose first line is `// <path>` names the
// file), so what a reader copies is what storybook.test.ts and vitest-browser-mode.test.ts run.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { root } from '../package/support/packed-kit.ts';

/** The example each shown file comes from. */
const shown: Record<string, string> = {
  'src/main.ts': 'browser-vite',
  'src/payment-mock.ts': 'browser-storybook',
  '.storybook/main.ts': 'browser-storybook',
  '.storybook/preview.ts': 'browser-storybook',
  'src/fee-table.stories.ts': 'browser-storybook',
  'vitest.config.ts': 'browser-vitest',
  'test/checkout.browser.test.ts': 'browser-vitest',
};

it("docs/browser.md shows the examples' files as they are", async () => {
  const doc = await readFile(join(root, 'docs/browser.md'), 'utf8');
  const blocks = new Map(
    [...doc.matchAll(/```ts\n\/\/ (\S+)\n([\s\S]*?)```/g)].map((m) => [m[1] ?? '', m[2] ?? ''] as const),
  );
  for (const [path, example] of Object.entries(shown)) {
    expect(blocks.get(path), `docs/browser.md has no block for ${path}`).toBe(
      await readFile(join(root, 'examples', example, path), 'utf8'),
    );
  }
});

it('the README points at docs/browser.md', async () => {
  expect(await readFile(join(root, 'README.md'), 'utf8')).toContain('(docs/browser.md)');
});
