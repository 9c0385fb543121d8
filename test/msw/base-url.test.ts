// One base URL: a team copies the address the CLI prints (and the README shows) into an msw test. A handler set created
// without options must answer it, and the other loopback spellings of it, instead of msw's "without a matching
// request handler". Issue 25 item 4: the handlers used to answer only on http://localhost:4010.
import { readFile } from 'node:fs/promises';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultMockOptions } from '../../src/mock/options.ts';
import { createMockHandlers, defaultBaseUrl } from '../../src/msw/index.ts';
import { answeringOrigins } from '../../src/msw/internal/base-url.ts';

const generate = (origin: string) =>
  fetch(`${origin}/api/v2/accounting/token/generate-token`, {
    method: 'POST',
    headers: { 'x-client-id': 'test-client', 'x-api-key': 'test-api-key' },
  });

describe('msw handlers created without options', () => {
  const mock = createMockHandlers({ log: false });
  const named = createMockHandlers({ log: false, baseUrl: 'https://payments.test' });
  const server = setupServer(...mock.handlers, ...named.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(async () => {
    server.close();
    await mock.close();
    await named.close();
  });

  it('answer on the URL the CLI prints and the README shows', async () => {
    // The CLI prints `listening on http://<host>:<port>` from these defaults (startMockServer's url).
    const printed = `http://${defaultMockOptions.host}:${defaultMockOptions.port}`;
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`\`npm start\` listens on \`${printed}\``);
    expect(mock.baseUrl).toBe(printed);
    expect(defaultBaseUrl).toBe(printed);
    const res = await generate(printed);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe('SUCCESS');
  });

  it('answer on the other loopback name, http://localhost:4010, too', async () => {
    expect((await generate('http://localhost:4010')).status).toBe(200);
  });

  it('answer a named origin on that origin only, never on loopback for it', async () => {
    expect((await generate('https://payments.test')).status).toBe(200);
    expect(answeringOrigins('https://payments.test')).toEqual(['https://payments.test']);
    expect(answeringOrigins('http://localhost:5000')).toEqual(['http://localhost:5000', 'http://127.0.0.1:5000']);
  });
});
