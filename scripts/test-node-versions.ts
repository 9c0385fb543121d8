// Runs the tests that touch Node's own HTTP, process and native-module behaviour again on the Node versions teams
// run (22 and 24), with Node binaries from the npm registry's `node` package (`npx -p node@<major>`; npx caches
// them). `npm test` runs everything on the Node it was started with; this adds the other versions for a chosen
// subset, so the added time stays modest. Exits non-zero when any version fails; prints the seconds each took.
//
//   npm run test:node-versions                 # 22 and 24
//   PCK_NODE_VERSIONS=24 npm run test:node-versions
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');

/** The subset: the mock over real HTTP, the CLI as a process, the Pact provider verification, one consumer pact. */
export const nodeVersionTestFiles = [
  'test/node-version.test.ts',
  'test/mock/server.test.ts',
  'test/cli/commands/mock.test.ts',
  'test/cli/process/mock.test.ts',
  'test/pact/provider/verify-against-mock.test.ts',
  'test/pact/consumer/current-guide.pact.test.ts',
];

const majors = (process.env.PCK_NODE_VERSIONS ?? '22,24')
  .split(',')
  .map((v) => v.trim())
  .filter(Boolean);

let failed = false;
for (const major of majors) {
  const started = performance.now();
  // `--typecheck.enabled=false`: types do not depend on the Node version, and `npm test` checked them already.
  const result = spawnSync(
    'npx',
    [
      '-y',
      '-p',
      `node@${major}`,
      'node',
      'node_modules/vitest/vitest.mjs',
      'run',
      '--typecheck.enabled=false',
      ...nodeVersionTestFiles,
    ],
    // Not counted again in `bash .ci/run`'s closing line: these files ran in their tier already.
    { cwd: root, stdio: 'inherit', env: { ...process.env, PCK_TEST_NODE_MAJOR: major, PCK_TEST_RESULTS: '' } },
  );
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const ok = result.status === 0;
  failed ||= !ok;
  process.stdout.write(`[payment-contract-kit] Node ${major}: ${ok ? 'passed' : 'FAILED'} in ${seconds} s\n`);
}
process.exit(failed ? 1 : 0);
