/**
 * The browser guard through the whole pipeline: CORS on the service paths, no open door on the mock's own paths
 * (cross-origin refusal, Host check), in process through `app.fetch` and over a real socket.
 */
import { request as httpRequest } from 'node:http';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApp, type MockApp, servicePaths, startMockServer } from '../../../../src/mock/index.ts';
import type { MockOptions } from '../../../../src/mock/options.ts';
import { credentials } from '../../helpers.ts';

const base = 'http://127.0.0.1:4010';
const evil = 'http://evil.example';
const webApp = 'http://localhost:5173';

const apps: MockApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

function mockApp(options: MockOptions = {}): MockApp {
  const app = createMockApp({ log: false, realNow: () => Date.UTC(2026, 0, 1), ...options });
  apps.push(app);
  return app;
}

const preflight = (path: string, origin: string, method = 'POST') =>
  new Request(`${base}${path}`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'content-type, x-jwt-token',
    },
  });

const generate = (headers: Record<string, string> = {}) =>
  new Request(`${base}${servicePaths.generateToken}`, { method: 'POST', headers: { ...credentials, ...headers } });

describe('CORS on the service paths (default: any origin)', () => {
  it('answers a preflight to /graphql with 204 and the headers the service reads', async () => {
    const res = await mockApp().fetch(preflight(servicePaths.graphql, webApp));
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('POST, GET');
    expect(res.headers.get('access-control-allow-headers')).toBe(
      'content-type, x-jwt-token, x-client-id, x-api-key, authorization',
    );
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('vary')).toContain('Origin');
  });

  it('answers a preflight to a token path with its one method', async () => {
    const res = await mockApp().fetch(preflight(servicePaths.generateToken, webApp));
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toBe('POST');
  });

  it('adds Allow-Origin and Expose-Headers to answers, errors included', async () => {
    const app = mockApp();
    const ok = await app.fetch(generate({ origin: webApp }));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    const failed = await app.fetch(
      new Request(`${base}${servicePaths.graphql}`, { method: 'POST', headers: { origin: webApp } }),
    );
    expect(failed.status).toBe(200);
    expect((await failed.json()).errors[0].extensions.reason).toBeTypeOf('string');
    expect(failed.headers.get('access-control-allow-origin')).toBe('*');
    const wrongMethod = await app.fetch(
      new Request(`${base}${servicePaths.generateToken}`, { method: 'PUT', headers: { origin: webApp } }),
    );
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('access-control-expose-headers')).toBe('allow');
  });

  it('adds no CORS header to a request without Origin (API clients, the benchmark)', async () => {
    const res = await mockApp().fetch(generate());
    expect([...res.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('does not journal a preflight, so waiting for a path never matches it', async () => {
    const app = mockApp();
    await app.fetch(preflight(servicePaths.generateToken, webApp));
    await app.fetch(generate({ origin: webApp }));
    expect((await app.control.requests()).map((r) => r.method)).toEqual(['POST']);
  });
});

describe('CORS with a list of origins, and off', () => {
  it('echoes a listed origin with Vary: Origin and refuses a preflight from another', async () => {
    const app = mockApp({ cors: `${webApp}, http://127.0.0.1:5173` });
    const ok = await app.fetch(preflight(servicePaths.graphql, webApp));
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(webApp);
    const answer = await app.fetch(generate({ origin: webApp }));
    expect(answer.headers.get('access-control-allow-origin')).toBe(webApp);
    expect(answer.headers.get('vary')).toBe('Origin');
    const refused = await app.fetch(preflight(servicePaths.graphql, evil));
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const body = await refused.json();
    expect(body.errors[0].message).toMatch(
      /^\[payment-contract-kit\] Cross-origin requests from "http:\/\/evil\.example".*--cors/,
    );
  });

  it('off: preflights are refused and answers carry no Allow-Origin', async () => {
    const app = mockApp({ cors: 'off' });
    const refused = await app.fetch(preflight(servicePaths.generateToken, webApp));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ status: 'ERROR', message: expect.stringContaining('--cors') });
    const answer = await app.fetch(generate({ origin: webApp }));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('no open door on the control API', () => {
  it('a preflight from another origin to /__pck/reset gets no Allow-Origin', async () => {
    const res = await mockApp().fetch(preflight('/__pck/reset', evil));
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(await res.json()).toEqual({ status: 'ERROR', message: expect.stringContaining('--control-cors') });
  });

  it('a cross-origin POST to /__pck/reset (no preflight: a form) is refused and resets nothing', async () => {
    const app = mockApp();
    await app.fetch(generate());
    const res = await app.fetch(
      new Request(`${base}/__pck/reset`, {
        method: 'POST',
        headers: { origin: evil, 'content-type': 'text/plain', host: '127.0.0.1:4010' },
      }),
    );
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(await app.control.requests()).toHaveLength(1);
  });

  it('a POST with a foreign Host to /__pck/reset is refused (DNS rebinding) and resets nothing', async () => {
    const app = mockApp();
    await app.fetch(generate());
    const res = await app.fetch(
      new Request(`${base}/__pck/reset`, { method: 'POST', headers: { host: 'evil.example:4010' } }),
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      status: 'ERROR',
      message: expect.stringMatching(
        /^\[payment-contract-kit\] Refused: the Host header "evil\.example:4010".*--allowed-hosts/,
      ),
    });
    expect(await app.control.requests()).toHaveLength(1);
  });

  it('a foreign Host on /graphql is refused in the 7.2 shape', async () => {
    const res = await mockApp().fetch(
      new Request(`${base}${servicePaths.graphql}`, { method: 'POST', headers: { host: 'evil.example' } }),
    );
    expect(res.status).toBe(403);
    const body = await res.json();
    expect(body.errors[0]).toEqual({
      message: expect.stringContaining('DNS rebinding'),
      extensions: { reason: expect.any(String) },
    });
  });

  it("the mock's own pages may call it (Origin equal to Host), and --allowed-hosts names may be used", async () => {
    const app = mockApp({ allowedHosts: ['mock'] });
    await app.fetch(generate());
    const res = await app.fetch(
      new Request('http://mock:4010/__pck/reset', {
        method: 'POST',
        headers: { host: 'mock:4010', origin: 'http://mock:4010' },
      }),
    );
    expect(res.status).toBe(200);
    expect(await app.control.requests()).toHaveLength(0);
  });

  it('controlCors lets a named origin drive the control API', async () => {
    const app = mockApp({ controlCors: webApp });
    const pre = await app.fetch(preflight('/__pck/reset', webApp));
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(webApp);
    const res = await app.fetch(new Request(`${base}/__pck/reset`, { method: 'POST', headers: { origin: webApp } }));
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(webApp);
    const other = await app.fetch(new Request(`${base}/__pck/reset`, { method: 'POST', headers: { origin: evil } }));
    expect(other.status).toBe(403);
  });

  it('in-process requests send no Host and pass', async () => {
    const res = await mockApp().fetch(new Request('http://any-name.example/__pck/health'));
    expect(res.status).toBe(200);
  });

  it('a Mock Service Worker handler forwarding fetch calls to app.fetch passes the check', async () => {
    const app = mockApp();
    const server = setupServer(http.all('http://payments.test/*', ({ request }) => app.fetch(request)));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const res = await fetch('http://payments.test/__pck/reset', { method: 'POST' });
      expect(res.status).toBe(200);
    } finally {
      server.close();
    }
  });
});

/** One raw request over a socket, with the Host header given as is. */
function raw(url: string, method: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('over a real socket', () => {
  it('answers a preflight, refuses a rebinding Host on /__pck/reset and serves localhost', async () => {
    const mock = await startMockServer({ port: 0, log: false });
    try {
      const pre = await raw(`${mock.url}${servicePaths.graphql}`, 'OPTIONS', {
        origin: webApp,
        'access-control-request-method': 'POST',
      });
      expect(pre.status).toBe(204);
      expect(pre.headers['access-control-allow-origin']).toBe('*');
      await raw(`${mock.url}${servicePaths.generateToken}`, 'POST', credentials);
      const refused = await raw(`${mock.url}/__pck/reset`, 'POST', { host: `attacker.example:${mock.port}` });
      expect(refused.status).toBe(403);
      expect(await mock.control.requests()).toHaveLength(1);
      const local = await raw(`${mock.url}/__pck/health`, 'GET', { host: `localhost:${mock.port}` });
      expect(local.status).toBe(200);
    } finally {
      await mock.close();
    }
  });
});
