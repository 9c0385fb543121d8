// The recipes type-check under strict against the built declarations (what a team's compiler sees), not the sources.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ensureBuilt, root, run } from '../package/support/packed-kit.ts';

it('recipes/ compile under strict against dist/*.d.ts', async () => {
  await ensureBuilt(['dist/index.d.ts', 'dist/mock.d.ts']);
  const { stdout } = await run(
    'node',
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'recipes/tsconfig.json', '--listFilesOnly'],
    root,
  );
  // The kit resolved to its built declarations, through the package's own exports.
  expect(stdout).toContain(join(root, 'dist/index.d.ts'));
  await run('node', [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'recipes/tsconfig.json'], root);
}, 120_000);
