// docs/msw.md shows readme-example.test.ts verbatim (with the package's import paths), so the example a
// reader copies is the one the test run executes.
import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';

it('docs/msw.md shows the msw example verbatim', async () => {
  const source = await readFile(new URL('./readme-example.test.ts', import.meta.url), 'utf8');
  const page = await readFile(new URL('../../docs/msw.md', import.meta.url), 'utf8');
  const published = source
    .replace("'../../src/client/index.ts'", "'payment-contract-kit/client'")
    .replace("'../../src/msw/index.ts'", "'payment-contract-kit/msw'");
  expect(published).not.toContain('../');
  expect(page).toContain('## Under Node (`setupServer`)');
  expect(page).toContain(`\`\`\`ts\n${published}\`\`\``);
});
