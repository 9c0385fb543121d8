// scripts/pact-publish.ts: configuration errors name the fix; a dry run shows the pact-broker command without
// credentials. No broker is contacted.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { consumers } from './support/pact-files.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');

/** Runs the script with only the given broker variables (no inherited PACT_* ones). */
async function publish(vars: Record<string, string>, args: string[] = []) {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('PACT_')) env[k] = v;
  try {
    const { stdout, stderr } = await run(process.execPath, [tsx, 'scripts/pact-publish.ts', ...args], {
      cwd: root,
      env: { ...env, ...vars },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('pact:publish', () => {
  it.each([
    [
      'no broker URL',
      {},
      '[payment-contract-kit] PACT_BROKER_BASE_URL is not set. Set it to your Pact Broker, e.g. PACT_BROKER_BASE_URL=https://broker.example.com, with PACT_BROKER_TOKEN (or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD).',
    ],
    [
      'no credentials',
      { PACT_BROKER_BASE_URL: 'http://127.0.0.1:9' },
      '[payment-contract-kit] No Pact Broker credentials: set PACT_BROKER_TOKEN, or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD.',
    ],
    [
      'a username without a password',
      { PACT_BROKER_BASE_URL: 'http://127.0.0.1:9', PACT_BROKER_USERNAME: 'ci' },
      '[payment-contract-kit] Basic auth needs both PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD; one of them is missing.',
    ],
  ])('refuses %s', async (_what, vars, message) => {
    const result = await publish(vars);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(message);
  });

  it('shows the publish command in a dry run, credentials kept out of it', async () => {
    const result = await publish(
      {
        PACT_BROKER_BASE_URL: 'https://broker.example.com',
        PACT_BROKER_TOKEN: 'secret-token',
        PACT_CONSUMER_APP_VERSION: '1.2.3',
        PACT_CONSUMER_BRANCH: 'feature-x',
      },
      ['--dry-run', '--tag', 'rc'],
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `publishing ${Object.keys(consumers).length} pact files from contracts/ as version 1.2.3`,
    );
    expect(result.stdout).toContain(
      `dry run: pact-broker publish ${join(root, 'contracts')} --broker-base-url https://broker.example.com --consumer-app-version 1.2.3 --branch feature-x --tag rc`,
    );
    expect(result.stdout).not.toContain('secret-token');
  });
});
