// Packs the kit once for a whole test run and prints the tarball's absolute path: `npm test` and
// `npm run test:package` export it as PCK_PACKED_TARBALL, so the package tier (test/support/packed-kit-setup.ts)
// and the compatibility matrix (scripts/test-matrix.ts) use this one tarball instead of each packing its own.
// The folder (default .tmp/packed) is emptied first, so no tarball of an earlier build is left to be taken.
//
//   tsx scripts/pack-kit.ts [folder]
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureBuilt, packKitFresh, root } from '../test/package/support/packed-kit.ts';

const dir = resolve(root, process.argv[2] ?? '.tmp/packed');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
await ensureBuilt(['dist/index.js', 'dist/mock.js', 'dist/cli/index.js', 'dist/browser/mock.js']);
process.stdout.write(`${join(dir, await packKitFresh(dir))}\n`);
