// A redis:// store where ioredis is not installed: one line in the kit's style (what is missing, the install command,
// the other stores), whether Node said so through require (with its require stack) or through import, and the same
// line from the mock's start, not wrapped in a second message. No Redis is needed: the client never loads.
import { describe, expect, it } from 'vitest';
import { buildNodeMockApp } from '../../../../src/mock/app.ts';
import { createRedisStore, StoreSetupError } from '../../../support/mock-internals/store.ts';

const url = 'redis://127.0.0.1:6379';

/** Node's error for a module that is not there, as require or import words it. */
function notFound(message: string, code: 'MODULE_NOT_FOUND' | 'ERR_MODULE_NOT_FOUND'): Error {
  return Object.assign(new Error(message), { code });
}

const byRequire = notFound(
  "Cannot find module 'ioredis'\nRequire stack:\n- /app/node_modules/payment-contract-kit/dist/cli/mock.cjs\n- /app/node_modules/payment-contract-kit/dist/cli/launcher.cjs",
  'MODULE_NOT_FOUND',
);
const byImport = notFound(
  "Cannot find package 'ioredis' imported from /app/node_modules/payment-contract-kit/dist/chunk-X.js",
  'ERR_MODULE_NOT_FOUND',
);

const missing =
  '[payment-contract-kit] A redis:// store needs the Redis client ioredis, an optional peer dependency that is not installed. Install it next to the kit with "npm install --save-dev ioredis", or start with another store: --store memory: (the default, this process only) or --store file:<path> (one process, kept over restarts).';

async function openWith(error: Error): Promise<Error> {
  const store = createRedisStore(url, { loadClient: () => Promise.reject(error) });
  return store.open().then(
    () => {
      throw new Error('the store opened without its client');
    },
    (caught: Error) => caught,
  );
}

describe('a redis:// store without ioredis', () => {
  it.each([
    ['require', byRequire],
    ['import', byImport],
  ])('says so in one line when %s finds no ioredis', async (_, error) => {
    const refused = await openWith(error);
    expect(refused).toBeInstanceOf(StoreSetupError);
    expect(refused.message).toBe(missing);
    expect(refused.cause).toBe(error);
  });

  it("keeps only the first line of Node's error when ioredis is there but does not load", async () => {
    const inside = notFound(
      "Cannot find module 'denque'\nRequire stack:\n- /app/node_modules/ioredis/built/Redis.js",
      'MODULE_NOT_FOUND',
    );
    const refused = await openWith(inside);
    expect(refused.message).toContain(
      "ioredis, an optional peer dependency that could not be loaded (Cannot find module 'denque'). Install it",
    );
    expect(refused.message).not.toMatch(/Require stack|\n/);
  });

  it("is the mock's start refusal as it is: one prefix, one full stop", async () => {
    const app = buildNodeMockApp(
      { log: false, store: url },
      { openStore: (u) => createRedisStore(u, { loadClient: () => Promise.reject(byRequire) }) },
    );
    try {
      const refused = await app.ready().then(
        () => undefined,
        (caught: Error) => caught,
      );
      expect(refused?.message).toBe(missing);
    } finally {
      await app.close();
    }
  });
});
