// examples/consumer as a team runs it: the kit packed with `npm pack`, the example copied to a temporary directory
// with its dependency pointed at that tarball, one `npm install` (the registry for the rest, pinned versions), then
// its strict `tsc --noEmit` and its vitest run on Node 20 (this one) and on Node 22 and 24 from the registry's `node`
// package. The example's own tests start the mock in vitest's global setup, pay with graphql-request, verify the
// webhook and write a Pact contract.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, npmInstall, onNode, packKit, root, run } from '../package/support/packed-kit.ts';

let dir = '';
const project = () => join(dir, 'consumer');
let installOutput = '';

beforeAll(async () => {
  await ensureBuilt();
  dir = await mkdtemp(join(tmpdir(), 'pck-example-'));
  const tarball = await packKit(dir);
  await cp(join(root, 'examples/consumer'), project(), {
    recursive: true,
    filter: (source) => !/[\\/](node_modules|pacts)$|\.tgz$/.test(source),
  });
  const manifestPath = join(project(), 'package.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
  manifest.dependencies['payment-contract-kit'] = `file:${join(dir, tarball)}`;
  await writeFile(manifestPath, JSON.stringify(manifest, null, 2));
  // One install serves every Node version: nothing in the tree is built for one Node ABI (Pact's core is N-API).
  installOutput = await npmInstall(project());
}, 600_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('examples/consumer from the packed tarball', () => {
  it('pins every dependency to an exact version, the kit aside', async () => {
    const manifest = JSON.parse(await readFile(join(root, 'examples/consumer/package.json'), 'utf8'));
    const pinned = { ...manifest.dependencies, ...manifest.devDependencies };
    delete pinned['payment-contract-kit'];
    for (const [name, version] of Object.entries(pinned)) expect(version, name).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.dependencies['payment-contract-kit']).toMatch(/^file:.*\.tgz$/);
  });

  it('installs with no engine warning', () => {
    expect(installOutput).not.toMatch(/EBADENGINE|Unsupported engine/);
  });

  it('type-checks under strict', async () => {
    await run('npx', ['tsc', '--noEmit'], project());
  }, 120_000);

  it.each(['20', '22', '24'])(
    'passes its tests on Node %s',
    async (major) => {
      const vitest = ['node_modules/vitest/vitest.mjs', 'run'];
      await rm(join(project(), 'pacts'), { recursive: true, force: true });
      // Node 20 is this process's own; the others come from the registry's `node` package.
      const [cmd, args] = major === process.versions.node.split('.')[0] ? ['node', vitest] : onNode(major, vitest);
      const { stdout } = await run(cmd, args, project(), { ...process.env, CI: '1', NO_COLOR: '1' });
      expect(stdout).toMatch(/Test Files\s+2 passed \(2\)/);
      expect(stdout).toMatch(/Tests\s+3 passed \(3\)/);
      const [versionCmd, versionArgs] = cmd === 'node' ? ['node', ['--version']] : onNode(major, ['--version']);
      expect((await run(versionCmd, versionArgs, project())).stdout.trim()).toMatch(new RegExp(`^v${major}\\.`));
      // The Pact test wrote the contract where the example says.
      const pact = JSON.parse(
        await readFile(join(project(), 'pacts/checkout-service-example-card-payment-service.json'), 'utf8'),
      );
      expect(pact.interactions).toHaveLength(1);
    },
    300_000,
  );
});
