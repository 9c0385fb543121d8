/**
 * The guards (guards.ts): the Host check's parsing and verdicts; the browser guard through the whole pipeline (CORS on
 * the service paths, no open door on the mock's own paths: cross-origin refusal, Host check), in process through
 * `app.fetch` and over a real socket; and the secured control plane: with a control token every /__pck/ route answers
 * 401 in the control API's shape without the right Bearer token, the check is the platform's constant-time matcher,
 * the page shells stay public but carry no API key, and a mock refuses to listen where other machines reach it
 * without a token.
 */

import { request as httpRequest } from 'node:http';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { buildMockApp } from '../../../../src/mock/core-app.ts';
import { createMockApp, type MockApp, servicePaths, startMockServer } from '../../../../src/mock/index.ts';
import { nodePlatform } from '../../../../src/mock/node-platform.ts';
import type { MockOptions } from '../../../../src/mock/options.ts';
import { controlRoutes } from '../../../support/mock-internals/control.ts';
import {
  bearerToken,
  controlTokenRefusal,
  createHostCheck,
  hostName,
  isLoopbackHost,
  publishedSourcePaths,
} from '../../../support/mock-internals/http.ts';
import { credentials } from '../../helpers.ts';

describe('hostName', () => {
  it.each([
    ['127.0.0.1:4010', '127.0.0.1'],
    ['LOCALHOST:4010', 'localhost'],
    ['[::1]:4010', '::1'],
    ['[::1]', '::1'],
    ['mock.internal.', 'mock.internal'],
    ['example.test', 'example.test'],
  ])('%s -> %s', (header, name) => {
    expect(hostName(header)).toBe(name);
  });

  it.each(['', 'a b', 'evil.example:port', '[::1', '[::1]x', 'http://x', 'user@host'])('refuses %j', (header) => {
    expect(hostName(header)).toBeUndefined();
  });
});

describe('createHostCheck', () => {
  const check = createHostCheck({ host: '127.0.0.1', allowedHosts: ['mock', '.docker.internal'] });

  it.each([
    '127.0.0.1:4010',
    '127.0.0.1:8080', // port forwarding changes the port; only the name matters to rebinding
    'localhost:4010',
    'app.localhost:4010',
    '[::1]:4010',
    '10.0.0.7:4010',
    'mock:4010',
    'docker.internal',
    'host.docker.internal:4010',
  ])('accepts %s', (host) => {
    expect(check(host)).toBe(true);
  });

  it.each(['evil.example', 'evil.example:4010', 'mock.evil.example', 'localhost.evil.example', 'notdocker.internal'])(
    'refuses %s',
    (host) => {
      expect(check(host)).toBe(false);
    },
  );

  it('accepts a request without Host (in-process app.fetch, Mock Service Worker)', () => {
    expect(check(undefined)).toBe(true);
  });

  it('accepts the --host name the mock listens on', () => {
    expect(createHostCheck({ host: 'devbox.lan', allowedHosts: [] })('devbox.lan:4010')).toBe(true);
  });

  it('accepts any host with allowedHosts: true', () => {
    expect(createHostCheck({ host: '127.0.0.1', allowedHosts: true })('evil.example')).toBe(true);
  });
});

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

describe('the control token', () => {
  const token = 'control-secret-1';
  const apps: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  function mockApp(options: Parameters<typeof createMockApp>[0] = {}): MockApp {
    const app = createMockApp({ log: false, controlToken: token, ...options });
    apps.push(app);
    return app;
  }

  function call(app: { fetch(request: Request): Promise<Response> }, method: string, path: string, headers = {}) {
    // An invalid timeout: the two wait routes answer 400 at once instead of waiting (only "not 401" matters here).
    const body = method === 'POST' ? '{"timeoutMs":-1}' : undefined;
    return app.fetch(
      new Request(`http://127.0.0.1:4010${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body,
      }),
    );
  }

  // Every route under /__pck/: the control API, the Pact routes, the published sources, and a path that does not exist
  // (401 too: without the token nothing tells which control paths exist).
  const everyControlRoute: [string, string][] = [
    ...controlRoutes.map(([method, path]) => [method, path] as [string, string]),
    ['GET', publishedSourcePaths.schema],
    ['GET', publishedSourcePaths.openapi],
    ['GET', '/__pck/no-such-route'],
  ];

  describe('the control token on /__pck/', () => {
    it.each(everyControlRoute)('%s %s: 401 without the token and with a wrong one', async (method, path) => {
      const app = mockApp();
      const missing = await call(app, method, path);
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer /);
      const body = (await missing.json()) as { status: string; message: string };
      expect(body.status).toBe('ERROR');
      expect(body.message).toMatch(/^\[payment-contract-kit\] /);
      expect(body.message).toContain('needs the header "Authorization: Bearer <control token>"');
      expect(body.message).toContain('PCK_CONTROL_TOKEN');
      expect(body.message).not.toContain(token);

      for (const wrong of [`Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, token, `Basic ${token}`]) {
        const refused = await call(app, method, path, { authorization: wrong });
        expect(refused.status).toBe(401);
        expect(((await refused.json()) as { message: string }).message).not.toContain(token);
      }
    });

    it('lets the right token through on every route, the scheme in any case', async () => {
      const app = mockApp();
      for (const [method, path] of everyControlRoute) {
        const res = await call(app, method, path, { authorization: `bearer ${token}` });
        expect(res.status, `${method} ${path}`).not.toBe(401);
      }
      const health = await call(app, 'GET', '/__pck/health', { authorization: `Bearer ${token}` });
      expect(health.status).toBe(200);
    });

    it('refuses a clock move without the token, and makes it with the token', async () => {
      const app = mockApp();
      const before = app.control.now();
      const advance = (headers = {}) =>
        app.fetch(
          new Request('http://127.0.0.1:4010/__pck/clock/advance', {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...headers },
            body: JSON.stringify({ ms: 60_000 }),
          }),
        );
      expect((await advance()).status).toBe(401);
      expect(app.control.now() - before).toBeLessThan(60_000);
      expect((await advance({ authorization: `Bearer ${token}` })).status).toBe(200);
      expect(app.control.now() - before).toBeGreaterThanOrEqual(60_000);
    });

    it('leaves the service paths to their own credentials', async () => {
      const app = mockApp();
      const res = await app.fetch(
        new Request('http://127.0.0.1:4010/api/v2/accounting/token/generate-token', {
          method: 'POST',
          headers: { 'x-client-id': 'test-client', 'x-api-key': 'test-api-key' },
        }),
      );
      expect(res.status).toBe(200);
    });

    it('checks with the platform constant-time matcher, built once for the token', async () => {
      const built: string[] = [];
      const compared: string[] = [];
      const platform = {
        ...nodePlatform,
        crypto: {
          ...nodePlatform.crypto,
          secretMatcher(secret: string) {
            built.push(secret);
            const matches = nodePlatform.crypto.secretMatcher(secret);
            return (candidate: string) => {
              compared.push(candidate);
              return matches(candidate);
            };
          },
        },
      };
      const { app } = buildMockApp({ log: false, controlToken: token }, { platform });
      apps.push(app);
      expect(built.filter((secret) => secret === token)).toHaveLength(1);
      await call(app, 'GET', '/__pck/health', { authorization: 'Bearer guess-1234' });
      await call(app, 'GET', '/__pck/health', { authorization: `Bearer ${token}` });
      expect(compared).toEqual(['guess-1234', token]);
    });

    it('answers a CORS preflight without the token and allows the authorization header', async () => {
      const app = mockApp({ controlCors: ['http://localhost:5173'] });
      const res = await app.fetch(
        new Request('http://127.0.0.1:4010/__pck/reset', {
          method: 'OPTIONS',
          headers: {
            origin: 'http://localhost:5173',
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization',
          },
        }),
      );
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-headers')).toContain('authorization');
    });

    it('keeps the control API open without a token (unchanged default)', async () => {
      const app = createMockApp({ log: false });
      apps.push(app);
      expect((await call(app, 'GET', '/__pck/health')).status).toBe(200);
      expect(app.options.controlToken).toBeUndefined();
    });

    it('refuses a token that is too short or has spaces', () => {
      expect(() => createMockApp({ log: false, controlToken: 'short' })).toThrow(/controlToken" must be at least 8/);
      expect(() => createMockApp({ log: false, controlToken: 'with space inside' })).toThrow(TypeError);
    });
  });

  describe('the pages behind a control token', () => {
    const html = { accept: 'text/html' };

    it.each([
      ['/__pck/ui', 'dashboard'],
      ['/graphql', 'GraphiQL'],
      ['/__pck/reference', 'reference'],
      ['/', 'landing page'],
    ])('serves the %s shell (%s) without the token, with no API key in it', async (path) => {
      const app = mockApp({ clients: [{ clientId: 'shop-1', apiKey: 'very-secret-api-key' }] });
      const res = await app.fetch(new Request(`http://127.0.0.1:4010${path}`, { headers: html }));
      const text = await res.text();
      // 503 when the pages are not built in this checkout: the shell is still public and still holds no key.
      expect([200, 503]).toContain(res.status);
      expect(text).not.toContain('very-secret-api-key');
      if (res.status === 200 && path !== '/') expect(text).toContain('"controlTokenRequired":true');
    });

    it('shows the API key on the pages when there is no token (unchanged)', async () => {
      const app = createMockApp({ log: false, clients: [{ clientId: 'shop-1', apiKey: 'very-secret-api-key' }] });
      apps.push(app);
      const res = await app.fetch(new Request('http://127.0.0.1:4010/', { headers: html }));
      expect(await res.text()).toContain('very-secret-api-key');
    });
  });

  describe('listening beyond this machine', () => {
    it.each([
      ['127.0.0.1', true],
      ['127.1.2.3', true],
      ['localhost', true],
      ['::1', true],
      ['[::1]', true],
      ['::ffff:127.0.0.1', true],
      ['0.0.0.0', false],
      ['::', false],
      ['192.168.1.10', false],
      ['10.0.0.2', false],
      ['mock.staging.example', false],
      ['127.0.0.1.example', false],
    ])('isLoopbackHost(%s) is %s', (host, loopback) => {
      expect(isLoopbackHost(host)).toBe(loopback);
      expect(controlTokenRefusal(host, undefined) === undefined).toBe(loopback);
      expect(controlTokenRefusal(host, token)).toBeUndefined();
    });

    it('refuses to start on 0.0.0.0 without a token, saying how to set one', async () => {
      const error = await startMockServer({ port: 0, host: '0.0.0.0', log: false }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toBe(
        '[payment-contract-kit] mock: refusing to listen on 0.0.0.0 without a control token: other machines could reset the sandbox or move its clock. Set one with PCK_CONTROL_TOKEN=<secret> (or --control-token <secret>, or the controlToken option), or listen on 127.0.0.1.',
      );
    });

    it('starts on 0.0.0.0 with a token and guards its control API over HTTP', async () => {
      const mock = await startMockServer({ port: 0, host: '0.0.0.0', log: false, controlToken: token });
      apps.push(mock);
      const url = `http://127.0.0.1:${mock.port}/__pck/health`;
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    });

    it('reads the token of an Authorization header', () => {
      expect(bearerToken(`Bearer ${token}`)).toBe(token);
      expect(bearerToken(`BEARER  ${token} `)).toBe(token);
      expect(bearerToken(`Bearer a b`)).toBeUndefined();
      expect(bearerToken(undefined)).toBeUndefined();
      expect(bearerToken(['Bearer x'])).toBeUndefined();
    });
  });
});
