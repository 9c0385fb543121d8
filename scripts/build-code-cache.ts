/**
 * Writes the mock command's shipped V8 code cache (decision 0035): `dist/cli/mock-<node version>-<platform>-<arch>.cache`
 * beside `dist/cli/mock.cjs`, for the Node that runs the build. A child compiles the script exactly as the CLI does
 * (src/cli/code-cache.ts), starts the mock, answers a token and a fee list from here, and writes the cache when it is
 * stopped, so the cache holds what start-up and the first GraphQL answer compiled. Run by tsup after the script is
 * built; `--silent` keeps it quiet.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileWithCache, shippedCacheName, writeCodeCache } from '../src/cli/code-cache.ts';
import { limitHeapGrowth } from '../src/cli/heap-growth.ts';
import { defaultCredentials, servicePaths } from '../src/spec-names.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const script = join(root, 'dist', 'cli', 'mock.cjs');
const cacheFile = join(root, 'dist', 'cli', shippedCacheName());
const silent = process.argv.includes('--silent');

/** In the child: compile without a cache, run the mock until SIGTERM, write the cache. */
async function child(): Promise<void> {
  limitHeapGrowth();
  const compiled = compileWithCache(script, readFileSync(script, 'latin1'), undefined);
  const write = () =>
    writeCodeCache(cacheFile, compiled.script.createCachedData(), (line) => {
      throw new Error(line);
    });
  const code = await compiled.command.run(['--port', '0', '--quiet'], { afterCleanStop: write });
  if (code !== 0) throw new Error(`[payment-contract-kit] build-code-cache: the mock stopped with code ${code}.`);
}

/** The first answers a user's test would ask for: a token, then the fee list. */
async function firstAnswers(url: string): Promise<void> {
  const headers = {
    'content-type': 'application/json',
    'x-client-id': defaultCredentials.clientId,
    'x-api-key': defaultCredentials.apiKey,
  };
  const token = await fetch(url + servicePaths.generateToken, { method: 'POST', headers });
  const { data } = (await token.json()) as { data: { token: string } };
  const query = readFileSync(join(root, 'operations', 'current', 'payment-gateway-fees-calc.graphql'), 'utf8');
  const fees = await fetch(url + servicePaths.graphql, {
    method: 'POST',
    headers: { ...headers, 'x-jwt-token': data.token },
    body: JSON.stringify({ query, variables: { amount: 100 } }),
  });
  if (fees.status !== 200) throw new Error(`fee list answered ${fees.status}: ${await fees.text()}`);
}

/** In the parent: start the child, ask for the first answers, stop it, check the cache is there. */
async function parent(): Promise<void> {
  rmSync(cacheFile, { force: true });
  const proc = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(seen);
      if (m?.[1]) resolve(m[1]);
    });
    proc.on('exit', (code) => reject(new Error(`the mock exited (${code}) before listening: ${seen}`)));
  });
  try {
    await firstAnswers(url);
  } finally {
    proc.kill('SIGTERM');
  }
  const code = await exited;
  if (code !== 0) throw new Error(`the mock stopped with code ${code}`);
  const size = readFileSync(cacheFile).length;
  if (!silent) console.log(`code cache ${cacheFile}: ${(size / 1024).toFixed(0)} kB`);
}

(process.argv.includes('--child') ? child() : parent()).catch((error: unknown) => {
  console.error(`[payment-contract-kit] build-code-cache: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
