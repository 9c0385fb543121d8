/**
 * The unit tier's setup file: every way of starting a child process throws, so a test that needs one (the CLI as a
 * process, npm, Redis, Chromium) fails at once with the fix instead of slowing the loop everyone works in. The
 * builtin's exports are replaced and synced to its ES module view, so named imports in tests, in src/ and in
 * dependencies all see the guard.
 *
 * @module
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

const starters = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;

for (const name of starters) {
  Object.defineProperty(childProcess, name, {
    configurable: true,
    writable: true,
    value: (command: unknown) => {
      throw new Error(
        `[payment-contract-kit] The unit tier starts no child process (child_process.${name}(${JSON.stringify(command)})). ` +
          "Call the code in process (createMockApp(...).fetch, a command's run(argv, io)), or list the test file in " +
          'test/tiers.ts under the integration or package tier.',
      );
    },
  });
}
syncBuiltinESMExports();
