// `npm run pact:update`: runs the consumer contract tests with PACT_UPDATE=1, which makes each of them copy the
// pact it produced into contracts/ instead of comparing. Commit contracts/ afterwards.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const root = join(import.meta.dirname, '../../..');
const vitestPackage = createRequire(join(root, 'package.json')).resolve('vitest/package.json');
const vitest = join(dirname(vitestPackage), 'vitest.mjs');
const result = spawnSync(process.execPath, [vitest, 'run', 'test/pact/consumer'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PACT_UPDATE: '1' },
});
if (result.status === 0) console.log('[payment-contract-kit] contracts/ updated; review the diff and commit it.');
process.exit(result.status ?? 1);
