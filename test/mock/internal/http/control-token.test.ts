// The secured control plane (issue 23): with a control token every /__pck/ route answers 401 in the control API's
// shape without the right Bearer token, the check is the platform's constant-time matcher, the page shells stay
// public but carry no API key, and a mock refuses to listen where other machines reach it without a token.
import { afterEach, describe, expect, it } from 'vitest';
import { buildMockApp } from '../../../../src/mock/core-app.ts';
import { createMockApp, type MockApp, startMockServer } from '../../../../src/mock/index.ts';
import { nodePlatform } from '../../../../src/mock/node-platform.ts';
import { controlRoutes } from '../../../support/mock-internals/control.ts';
import {
  bearerToken,
  controlTokenRefusal,
  isLoopbackHost,
  publishedSourcePaths,
} from '../../../support/mock-internals/http.ts';

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
