// The committed contracts and the drift check: consumer tests write their pact file to a fresh temp dir; afterwards
// the file is compared with the one in contracts/ (or, under `npm run pact:update`, copied there).
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { providerName } from '../../../src/pact/names.ts';

export const root = join(import.meta.dirname, '../../..');
export const contractsDir = join(root, 'contracts');

/** Consumer names of the kit's pact files: both guides, the webhook receiver, and the typed client's token lifecycle. */
export const consumers = {
  current: 'payment-contract-kit-current-guide',
  legacy: 'payment-contract-kit-legacy-guide',
  webhook: 'payment-contract-kit-webhook-receiver',
  client: 'payment-contract-kit-client',
} as const;

export type ConsumerKey = keyof typeof consumers;

/** File name pact-js gives the pact of a consumer with the kit's provider. */
export const pactFileName = (consumer: string) => `${consumer}-${providerName}.json`;

/** Set by `npm run pact:update`: rewrite contracts/ instead of comparing. */
export const updating = process.env.PACT_UPDATE === '1';

/** A fresh directory for one consumer test file's pact. */
export async function freshPactDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'pck-pact-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Drops what changes without the contract changing: the pact-js and Pact core versions in `metadata`. Everything
 * else pact-js writes is deterministic for the same tests (keys sorted, interactions in test order).
 */
export function normalisePact(pact: Record<string, unknown>): Record<string, unknown> {
  const metadata = { ...(pact.metadata as Record<string, unknown>) };
  delete metadata['pact-js'];
  delete metadata.pactRust;
  return { ...pact, metadata };
}

export async function readPact(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path, 'utf8'));
}

/** The outcome of comparing a produced pact with the committed one. */
export type DriftResult =
  | { state: 'same' }
  | { state: 'updated'; path: string }
  | { state: 'missing'; message: string }
  | { state: 'refused'; message: string }
  | { state: 'drifted'; message: string; committed: unknown; produced: unknown };

/**
 * Compares (or, when updating, copies) a consumer's produced pact file with contracts/. `failedTests` counts the
 * file's tests that failed: a pact produced by a failing run lacks interactions, so it is never copied.
 */
export async function syncOrCompare(producedDir: string, consumer: string, failedTests = 0): Promise<DriftResult> {
  const name = pactFileName(consumer);
  const produced = join(producedDir, name);
  const committed = join(contractsDir, name);
  if (updating && failedTests > 0)
    return {
      state: 'refused',
      message: `[payment-contract-kit] contracts/${name} left as it was: ${failedTests} consumer test(s) of this file failed, so the pact they produced is incomplete; fix them and run \`npm run pact:update\` again.`,
    };
  if (updating) {
    await mkdir(contractsDir, { recursive: true });
    await copyFile(produced, committed);
    return { state: 'updated', path: committed };
  }
  const fix = 'run `npm run pact:update` and commit contracts/';
  if (!existsSync(committed))
    return { state: 'missing', message: `[payment-contract-kit] contracts/${name} does not exist; ${fix}.` };
  const a = normalisePact(await readPact(committed));
  const b = normalisePact(await readPact(produced));
  if (JSON.stringify(a) === JSON.stringify(b)) return { state: 'same' };
  return {
    state: 'drifted',
    message: `[payment-contract-kit] contracts/${name} differs from what the consumer tests produce; ${fix} if the change is intended.`,
    committed: a,
    produced: b,
  };
}

/** The pact files in contracts/. */
export async function committedPactFiles(): Promise<string[]> {
  if (!existsSync(contractsDir)) return [];
  return (await readdir(contractsDir)).filter((f) => f.endsWith('.json')).sort();
}
