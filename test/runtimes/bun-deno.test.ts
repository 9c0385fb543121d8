// issue 28: the mock's `app.fetch` under Bun and Deno, each from its npm package (binaries in the registry's platform
// packages, fetched once by npx and cached, as the Node 22 runs are). Both load the Node build (their export
// conditions include `node`) through their Node compatibility.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, root, run } from '../package/support/packed-kit.ts';

const script = join(import.meta.dirname, 'app-fetch-smoke.mjs');
const runtimes = {
  bun: ['npx', ['-y', '-p', 'bun@1.4.5', 'bun', script]],
  deno: ['npx', ['-y', '-p', 'deno@2.9.6', 'deno', 'run', '--allow-read', '--allow-env', '--allow-sys', script]],
} as const;

beforeAll(() => ensureBuilt(['dist/mock.js']), 180_000);

describe.each(Object.entries(runtimes))('app.fetch under %s', (name, [cmd, args]) => {
  it('answers a token, the fee list and a payment, and expires the token on the mock clock', async () => {
    const { stdout } = await run(cmd, args, root);
    const line = stdout.trim().split('\n').at(-1)!;
    console.log(line);
    expect(JSON.parse(line)).toEqual({
      runtime: name,
      tokenStatus: 200,
      feeCardTypes: 4,
      paymentStatus: 'processing',
      expiredReason: 'TOKEN_EXPIRED',
    });
  }, 180_000);
});
