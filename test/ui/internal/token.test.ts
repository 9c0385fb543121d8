// How GraphiQL gets its token (src/ui/internal/token.ts), run in Node against the mock in process: generate-token
// first; when the mock refuses a second one (--strict-generate), the control API's token; otherwise the mock's own
// message.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockApp, type MockApp, type MockOptions } from '../../../src/mock/index.ts';
import { fetchToken } from '../../../src/ui/internal/token.ts';
import type { PageConfig } from '../../../src/ui/page-config.ts';

let app: MockApp | undefined;

const config = (clientId = 'test-client', apiKey = 'test-api-key'): PageConfig => ({
  guide: 'current',
  clientId,
  apiKey,
  controlTokenRequired: false,
  graphqlRequiresClientHeaders: false,
  paths: {
    generateToken: '/api/v2/accounting/token/generate-token',
    graphql: '/graphql',
    openapi: '/__pck/openapi.yaml',
    control: '/__pck/',
  },
  pages: { graphiql: '/graphql', reference: '/__pck/reference', dashboard: '/__pck/ui' },
});

/** Routes the page's same-origin fetch calls (relative paths) to the mock in process. */
function servePageFetch(options: MockOptions): MockApp {
  const mock = createMockApp({ log: false, ...options });
  vi.stubGlobal('fetch', (path: string, init?: RequestInit) =>
    mock.fetch(new Request(`http://mock.test${path}`, init)),
  );
  return mock;
}

afterEach(async () => {
  vi.unstubAllGlobals();
  await app?.close();
});

describe('fetchToken', () => {
  it('gets the token from generate-token', async () => {
    app = servePageFetch({});
    const got = await fetchToken(config());
    expect(got.source).toBe('generate-token');
    expect((await app.control.requests()).map((r) => `${r.path} ${r.status}`)).toEqual([
      '/api/v2/accounting/token/generate-token 200',
    ]);
  });

  it('falls back to the control API when the mock refuses a second generate-token', async () => {
    app = servePageFetch({ strictGenerate: true });
    expect((await fetchToken(config())).source).toBe('generate-token');
    const second = await fetchToken(config());
    expect(second.source).toBe('control API');
    // The fallback token works on /graphql.
    const res = await app.fetch(
      new Request('http://mock.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-jwt-token': second.token },
        body: JSON.stringify({ query: '{ __typename }' }),
      }),
    );
    expect(res.status).toBe(200);
  });

  it("throws the mock's own message when the client is not configured", async () => {
    app = servePageFetch({});
    await expect(fetchToken(config('nobody', 'wrong'))).rejects.toThrow(/^\[payment-contract-kit\] /);
  });
});

describe('fetchToken behind a control token', () => {
  /** A tab's sessionStorage and a prompt that answers `answers` in turn, counting its questions. */
  function stubBrowser(answers: string[]) {
    const storage = new Map<string, string>();
    const questions: string[] = [];
    vi.stubGlobal('sessionStorage', {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => storage.set(key, value),
      removeItem: (key: string) => storage.delete(key),
    });
    vi.stubGlobal('window', {
      prompt: (question: string) => {
        questions.push(question);
        return answers.shift() ?? null;
      },
    });
    return { storage, questions };
  }
  const guarded = { ...config('test-client', ''), controlTokenRequired: true };

  it('asks for the token once, keeps it for the tab and gets the token from the control API', async () => {
    app = servePageFetch({ controlToken: 'page-secret-1' });
    const browser = stubBrowser(['page-secret-1']);
    expect((await fetchToken(guarded)).source).toBe('control API');
    expect((await fetchToken(guarded)).source).toBe('control API');
    expect(browser.questions).toHaveLength(1);
    expect(browser.storage.get('pck:control-token')).toBe('page-secret-1');
    // No API key on the page: generate-token is never tried.
    expect((await app.control.requests()).map((r) => r.path)).toEqual([]);
  });

  it('asks again after a wrong token, and says what the mock answered when no right one comes', async () => {
    app = servePageFetch({ controlToken: 'page-secret-1' });
    const browser = stubBrowser(['wrong-secret', 'page-secret-1']);
    expect((await fetchToken(guarded)).source).toBe('control API');
    expect(browser.questions).toHaveLength(2);
    expect(browser.questions[1]).toMatch(/refused that control token/);
    stubBrowser(['wrong-secret', 'still-wrong']);
    await expect(fetchToken(guarded)).rejects.toThrow(/got a wrong control token/);
  });
});
