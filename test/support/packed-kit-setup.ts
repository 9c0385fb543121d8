/**
 * The package tier's global setup: builds `dist/` when it is missing and packs the kit once per run, so every test
 * file of the tier installs the same tarball instead of packing its own. Test files reach it through `packKit`
 * (test/package/support/packed-kit.ts), which copies the shared tarball when `PCK_PACKED_TARBALL` names one.
 *
 * When `PCK_PACKED_TARBALL` already names a tarball (`npm test` packs once for vitest, the Node majors and the
 * compatibility matrix: scripts/pack-kit.ts), the run uses that one and leaves it to its owner.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, packKitFresh } from '../package/support/packed-kit.ts';

/** Packs once and names the tarball in the environment the test workers inherit; removes it when the run ends. */
export default async function setup(): Promise<() => Promise<void>> {
  const given = process.env.PCK_PACKED_TARBALL;
  if (given !== undefined && given !== '') {
    if (!existsSync(given)) throw new Error(`PCK_PACKED_TARBALL names ${given}, which does not exist.`);
    return async () => {};
  }
  await ensureBuilt(['dist/index.js', 'dist/mock.js', 'dist/cli/index.js', 'dist/browser/mock.js']);
  const dir = await mkdtemp(join(tmpdir(), 'pck-packed-'));
  process.env.PCK_PACKED_TARBALL = join(dir, await packKitFresh(dir));
  return async () => {
    delete process.env.PCK_PACKED_TARBALL;
    await rm(dir, { recursive: true, force: true });
  };
}
