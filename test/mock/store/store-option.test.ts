/** The store option (issue 23): its URL forms, `--store` / `PCK_STORE`, and the refusals that name the fix. */
import { describe, expect, it } from 'vitest';
import { parseMockArgs } from '../../../src/cli/commands/mock.ts';
import { buildMockApp } from '../../../src/mock/core-app.ts';
import { nodePlatform } from '../../../src/mock/node-platform.ts';
import { resolveMockOptions } from '../../../src/mock/options.ts';
import { parseStoreUrl } from '../../support/mock-internals/store.ts';

describe('store URL', () => {
  it.each([
    ['memory:', { kind: 'memory' }],
    ['file:./sandbox.log', { kind: 'file', path: './sandbox.log' }],
    ['file:///var/lib/pck/a%20b.log', { kind: 'file', path: '/var/lib/pck/a b.log' }],
    ['redis://127.0.0.1:6379', { kind: 'redis', url: 'redis://127.0.0.1:6379' }],
    ['rediss://cache.example:6380/2', { kind: 'redis', url: 'rediss://cache.example:6380/2' }],
  ])('reads %s', (url, parsed) => {
    expect(parseStoreUrl(url)).toEqual(parsed);
  });

  it.each(['', 'file:', 'postgres://db', 'sandbox.log'])('refuses %j, listing the forms', (url) => {
    expect(() => parseStoreUrl(url)).toThrow(/memory: \(the default\), file:<path>.*redis:\/\//);
  });

  it('defaults to memory: and checks the option', () => {
    expect(resolveMockOptions({}).store).toBe('memory:');
    expect(() => resolveMockOptions({ store: 'mongo://x' })).toThrow(/not a store URL/);
  });

  it('takes --store, then PCK_STORE, and refuses a bad one as a usage error', () => {
    const parsed = (argv: string[], env: NodeJS.ProcessEnv = {}) =>
      parseMockArgs(argv, env) as { options?: { store?: string } };
    expect(parsed(['--store', 'file:./a.log']).options?.store).toBe('file:./a.log');
    expect(parsed([], { PCK_STORE: 'file:./b.log' }).options?.store).toBe('file:./b.log');
    expect(() => parsed(['--store', 'nope'])).toThrow(/--store: store "nope" is not a store URL/);
  });

  it('needs the Node entry for a file store: without its opener (the browser build) the mock says so', () => {
    expect(() => buildMockApp({ log: false, store: 'file:./x.log' }, { platform: nodePlatform })).toThrow(/needs Node/);
  });
});
