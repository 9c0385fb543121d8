// The built CLI's mock through the V8 code cache (src/cli/code-cache.ts, decision 0035): the shipped cache is taken,
// a folder cache is written on a clean stop and taken next time, and a cache V8 refuses (garbage bytes, another V8's
// flags) or a folder that cannot be written never stops the mock from answering. `NODE_DEBUG=payment-contract-kit`
// prints which cache was offered and what V8 did with it.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeCacheSetting, shippedCacheName } from '../../src/cli/code-cache.ts';
import { defaultCredentials, servicePaths } from '../../src/spec-names.ts';
import { ensureBuilt, root } from './support/packed-kit.ts';

const launcher = join(root, 'dist/cli/launcher.cjs');
let dir = '';
beforeAll(async () => {
  await ensureBuilt(['dist/cli/launcher.cjs', 'dist/cli/mock.cjs', 'dist/cli/index.js']);
  dir = await mkdtemp(join(tmpdir(), 'pck-code-cache-'));
}, 600_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Started {
  readonly code: number | null;
  readonly stderr: string;
}

/** Starts the built CLI's mock, asks for a token and a fee list, stops it with SIGTERM; answers its exit and stderr. */
async function startAnswerStop(env: Record<string, string>, nodeFlags: readonly string[] = []): Promise<Started> {
  const child = spawn(process.execPath, [...nodeFlags, launcher, 'mock', '--port', '0', '--quiet'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_DEBUG: 'payment-contract-kit', ...env },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
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
      child.on('exit', (code) => reject(new Error(`the mock exited (${code}) before listening: ${seen} ${stderr}`)));
    });
    const headers = {
      'content-type': 'application/json',
      'x-client-id': defaultCredentials.clientId,
      'x-api-key': defaultCredentials.apiKey,
    };
    const token = await fetch(url + servicePaths.generateToken, { method: 'POST', headers });
    const { data } = (await token.json()) as { data: { token: string } };
    const query = await readFile(join(root, 'operations/current/payment-gateway-fees-calc.graphql'), 'utf8');
    const fees = await fetch(url + servicePaths.graphql, {
      method: 'POST',
      headers: { ...headers, 'x-jwt-token': data.token },
      body: JSON.stringify({ query, variables: { amount: 100 } }),
    });
    expect(fees.status).toBe(200);
    expect(((await fees.json()) as { data?: unknown }).data).toBeTruthy();
  } finally {
    child.kill('SIGTERM');
  }
  return { code: await exited, stderr };
}

/** The cache verdict the CLI printed under NODE_DEBUG, or undefined when it printed none. */
const verdict = (stderr: string) => /code cache (\S+): (none|accepted|rejected)/.exec(stderr)?.slice(1, 3);

describe('PCK_CODE_CACHE', () => {
  it('reads a folder, "off" and unset', () => {
    expect(codeCacheSetting({})).toEqual({ kind: 'shipped' });
    expect(codeCacheSetting({ PCK_CODE_CACHE: ' ' })).toEqual({ kind: 'shipped' });
    expect(codeCacheSetting({ PCK_CODE_CACHE: 'OFF' })).toEqual({ kind: 'off' });
    expect(codeCacheSetting({ PCK_CODE_CACHE: '/var/cache/pck' })).toEqual({ kind: 'folder', dir: '/var/cache/pck' });
    expect(codeCacheSetting({ PCK_CODE_CACHE: 'rel' })).toEqual({ kind: 'folder', dir: join(process.cwd(), 'rel') });
  });
});

describe('the built CLI', () => {
  // decision 0037: the script reads the guides' schemas already parsed; the library keeps the SDL (package size).
  it('carries the parsed guide schemas in the mock script only', async () => {
    const parsed = '{"kind":"Document","definitions":';
    expect(await readFile(join(root, 'dist/cli/mock.cjs'), 'latin1')).toContain(parsed);
    expect(await readFile(join(root, 'dist/mock.js'), 'utf8')).not.toContain(parsed);
  });

  it('takes the cache the build made for this Node and writes nothing', async () => {
    const { code, stderr } = await startAnswerStop({ PCK_CODE_CACHE: '' });
    expect(code).toBe(0);
    expect(verdict(stderr)).toEqual([join(root, 'dist/cli', shippedCacheName()), 'accepted']);
  }, 60_000);

  it('refuses the shipped cache under other V8 flags, and still answers', async () => {
    // A flag V8 keeps in the cache's flag hash: the same refusal as a cache of another V8 version.
    const { code, stderr } = await startAnswerStop({ PCK_CODE_CACHE: '' }, ['--no-flush-bytecode']);
    expect(code).toBe(0);
    expect(verdict(stderr)?.[1]).toBe('rejected');
  }, 60_000);

  it('writes a folder cache on a clean stop, takes it next time and leaves it alone', async () => {
    const folder = join(dir, 'fresh', 'nested');
    const first = await startAnswerStop({ PCK_CODE_CACHE: folder });
    expect(first.code).toBe(0);
    expect(verdict(first.stderr)?.[1]).toBe('none');
    const [name] = await readdir(folder);
    expect(name).toMatch(
      new RegExp(`^mock-[0-9a-f]{16}-${process.version}-${process.platform}-${process.arch}\\.cache$`),
    );
    const written = await stat(join(folder, name!));
    expect(written.size).toBeGreaterThan(100_000);

    const second = await startAnswerStop({ PCK_CODE_CACHE: folder });
    expect(second.code).toBe(0);
    expect(verdict(second.stderr)).toEqual([join(folder, name!), 'accepted']);
    expect((await stat(join(folder, name!))).mtimeMs).toBe(written.mtimeMs);
    expect(await readdir(folder)).toEqual([name]);
  }, 120_000);

  it('writes no folder cache after --help (only a mock that served)', async () => {
    const folder = join(dir, 'help');
    const child = spawn(process.execPath, [launcher, 'mock', '--help'], {
      stdio: 'ignore',
      env: { ...process.env, PCK_CODE_CACHE: folder },
    });
    expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);
    await expect(readdir(folder)).rejects.toThrow(/ENOENT/);
  }, 60_000);

  it('answers over a cache of garbage bytes, then replaces it with one V8 takes', async () => {
    const folder = join(dir, 'garbage');
    // Learn the file name from a first run, then overwrite the file with garbage.
    await startAnswerStop({ PCK_CODE_CACHE: folder });
    const [name] = await readdir(folder);
    const file = join(folder, name!);
    await writeFile(file, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)));

    const over = await startAnswerStop({ PCK_CODE_CACHE: folder });
    expect(over.code).toBe(0);
    expect(verdict(over.stderr)?.[1]).toBe('rejected');
    expect((await stat(file)).size).toBeGreaterThan(100_000);

    const after = await startAnswerStop({ PCK_CODE_CACHE: folder });
    expect(verdict(after.stderr)?.[1]).toBe('accepted');
  }, 180_000);

  it("warns once, in the kit's words, when the folder cannot be written, and still exits 0", async () => {
    const notAFolder = join(dir, 'a-file');
    await writeFile(notAFolder, 'x');
    const { code, stderr } = await startAnswerStop({ PCK_CODE_CACHE: join(notAFolder, 'cache') });
    expect(code).toBe(0);
    expect(stderr).toMatch(
      /\[payment-contract-kit\] could not write the code cache .*set PCK_CODE_CACHE to a writable folder, or to "off"/,
    );
  }, 60_000);

  it('runs the ES module command without a script or cache when PCK_CODE_CACHE=off', async () => {
    const { code, stderr } = await startAnswerStop({ PCK_CODE_CACHE: 'off' });
    expect(code).toBe(0);
    expect(verdict(stderr)).toBeUndefined();
  }, 60_000);
});
