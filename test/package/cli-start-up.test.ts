// What the built CLI loads before the mock's first answers (issue 22, cold start): Node built-ins that only some
// sandboxes use stay unloaded until used. TLS (node:https, for https webhook receivers) cost about 2% of the CPU from
// spawn to the first fee list, fs/promises (the file store) about 0.6%, in CPU profiles of the CLI.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defaultCredentials, servicePaths } from '../../src/spec-names.ts';
import { ensureBuilt, root } from './support/packed-kit.ts';

let dir = '';
beforeAll(async () => {
  await ensureBuilt(['dist/cli/index.js', 'dist/cli/launcher.cjs']);
  dir = await mkdtemp(join(tmpdir(), 'pck-start-up-'));
}, 600_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Starts the built CLI's mock with a preload that writes `process.moduleLoadList` at exit; answers that list. */
async function modulesAfter(entry: string, requests: (url: string) => Promise<void>): Promise<string[]> {
  const out = join(dir, `modules-${Date.now()}.txt`);
  const preload = join(dir, 'record-modules.cjs');
  await writeFile(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.join('\\n')));`,
  );
  const child = spawn(process.execPath, ['--require', preload, join(root, entry), 'mock', '--port', '0', '--quiet'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let seen = '';
      child.stdout.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const m = /listening on (http:\/\/\S+)/.exec(seen);
        if (m?.[1]) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`the mock exited (${code}) before listening: ${seen}`)));
    });
    await requests(url);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
  return (await readFile(out, 'utf8')).split('\n');
}

// The executable (package.json `bin`, the mock through the V8 code cache) and the ES module CLI (without the cache).
it.each(['dist/cli/launcher.cjs', 'dist/cli/index.js'])(
  '%s answers a token and a fee list without loading TLS or fs/promises',
  async (entry) => {
    const modules = await modulesAfter(entry, async (url) => {
      const headers = {
        'content-type': 'application/json',
        'x-client-id': defaultCredentials.clientId,
        'x-api-key': defaultCredentials.apiKey,
      };
      const token = (await (await fetch(url + servicePaths.generateToken, { method: 'POST', headers })).json()) as {
        data: { token: string };
      };
      const query = await readFile(join(root, 'operations/current/payment-gateway-fees-calc.graphql'), 'utf8');
      const fees = await fetch(url + servicePaths.graphql, {
        method: 'POST',
        headers: { ...headers, 'x-jwt-token': token.data.token },
        body: JSON.stringify({ query, variables: { amount: 100 } }),
      });
      expect(fees.status).toBe(200);
    });
    // The preload itself and the mock's HTTP server are there: the list is the real one.
    expect(modules).toContain('NativeModule http');
    expect(modules).toContain('NativeModule crypto');
    expect(modules.filter((m) => /^NativeModule (https|tls|_tls_wrap|fs\/promises)$/.test(m))).toEqual([]);
  },
  60_000,
);
