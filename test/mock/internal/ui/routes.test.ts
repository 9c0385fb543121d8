/**
 * The page routes in process (`app.fetch`, no browser): which requests get a page, what JSON clients keep getting,
 * the headers of pages and assets, the configuration block's escaping, and the answers when the pages are not built.
 * test/ui/pages.test.ts drives the same pages in Chromium.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import { createMockApp, type MockApp } from '../../../../src/mock/index.ts';
import type { PageConfig } from '../../../../src/ui/page-config.ts';
import { createErrorMapper, createPageRoutes, type MockRequest } from '../../../support/mock-internals/http.ts';
import { createAssetStore, registerUiRoutes, uiPaths } from '../../../support/mock-internals/ui.ts';

const root = join(import.meta.dirname, '../../../..');
const base = 'http://mock.test';
const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
let app: MockApp;

beforeAll(async () => {
  // `npm test` builds first; a run of this file alone builds the pages when they are missing.
  if (!existsSync(join(root, 'dist/ui/manifest.json')))
    await promisify(execFile)('npx', ['tsx', 'scripts/build-ui.ts'], { cwd: root });
  app = createMockApp({
    guide: 'both',
    log: false,
    clients: [{ clientId: '</script><script>alert(1)</script>', apiKey: 'k&"<>' }],
  });
}, 120_000);
afterAll(async () => {
  await app.close();
});

const get = (path: string, headers: Record<string, string> = {}) => app.fetch(new Request(base + path, { headers }));

/** The configuration block of a page, parsed. */
function configOf(page: string): PageConfig {
  const block = /<script type="application\/json" id="pck-config">([^<]*)<\/script>/.exec(page);
  expect(block).not.toBeNull();
  return JSON.parse(block![1]!);
}

describe('GET /graphql', () => {
  it('answers GraphiQL to a browser asking for HTML, with the page configuration', async () => {
    const res = await get('/graphql', html);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const page = await res.text();
    expect(page).toMatch(/<script src="\/__pck\/ui\/assets\/graphiql\.js\?v=[0-9a-f]{10}" defer><\/script>/);
    const config = configOf(page);
    expect(config).toMatchObject({ guide: 'both', paths: { graphql: '/graphql', control: '/__pck/' } });
    // Markup in a configured value cannot end the data block: it is escaped, and reads back unchanged.
    expect(page.match(/<\/script>/g)).toHaveLength(2);
    expect(config.clientId).toBe('</script><script>alert(1)</script>');
    expect(config.apiKey).toBe('k&"<>');
  });

  it('answers JSON clients in JSON as before (the page is for browsers only)', async () => {
    const variants: Record<string, string>[] = [
      {},
      { accept: 'application/json' },
      { accept: 'application/graphql-response+json' },
    ];
    for (const headers of variants) {
      const res = await get('/graphql', headers);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await res.json()).errors[0].message).toMatch(/^\[payment-contract-kit\] /);
    }
  });

  it('treats a GET with a query string as a GraphQL request, not a page request, even from a browser', async () => {
    const res = await get('/graphql?query=%7B__typename%7D', html);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('the dashboard, the reference and their assets', () => {
  it('serves each page as HTML with its versioned assets, which are cached for good', async () => {
    for (const [path, assets] of [
      [uiPaths.dashboard, ['dashboard.css', 'dashboard.js']],
      [uiPaths.reference, ['swagger-ui.css', 'reference.css', 'swagger-ui-bundle.js', 'reference.js']],
    ] as const) {
      const res = await get(path, html);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const page = await res.text();
      for (const name of assets) {
        const url = new RegExp(`"(/__pck/ui/assets/${name.replace('.', '\\.')}\\?v=[0-9a-f]{10})"`).exec(page)?.[1];
        expect(url, name).toBeDefined();
        const asset = await get(url!);
        expect(asset.status).toBe(200);
        expect(asset.headers.get('content-type')).toBe(
          name.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
        );
        expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(100);
      }
    }
  });

  it('revalidates an asset asked for without its current version', async () => {
    for (const query of ['', '?v=0000000000']) {
      const res = await get(`${uiPaths.assets}dashboard.js${query}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('serves openapi.yaml for the reference, and leaves page loads out of the journal', async () => {
    const res = await get(uiPaths.openapi);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
    expect(await res.text()).toMatch(/^openapi: 3\.1/);
    const before = await app.control.cursor();
    await get(uiPaths.dashboard, html);
    await get(`${uiPaths.assets}dashboard.js`);
    expect(await app.control.cursor()).toBe(before);
  });
});

describe('registerUiRoutes', () => {
  const errors = createErrorMapper(defaultAssumptions, () => {});
  const request = (path: string, accept: string, query = ''): MockRequest => ({
    method: 'GET',
    path,
    query,
    headers: { accept },
    body: new Uint8Array(),
    remoteAddress: '127.0.0.1',
  });
  const register = (root: string) => {
    const pages = createPageRoutes();
    registerUiRoutes(pages, {
      guide: 'current',
      clients: [],
      assumptions: defaultAssumptions,
      errors,
      assets: createAssetStore(root),
    });
    return pages;
  };

  it('serves GraphiQL on /graphql only to a browser asking for HTML; API requests are left to the API routes', async () => {
    const pages = register(root);
    expect(pages.match(request('/graphql', 'application/json'))).toBeUndefined();
    expect(pages.match(request('/graphql', '*/*', 'query=%7B__typename%7D'))).toBeUndefined();
    expect(pages.match({ ...request('/graphql', 'text/html'), method: 'POST' })).toBeUndefined();
    const page = pages.match(request('/graphql', 'text/html,application/xhtml+xml'));
    if (!page) throw new Error('GraphiQL is not registered');
    expect(await page(request('/graphql', 'text/html'))).toMatchObject({
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
  });

  it('answers 503 in each path shape, saying how to build the pages, when dist/ui is missing', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'pck-ui-'));
    await writeFile(join(empty, 'package.json'), '{"name":"payment-contract-kit"}');
    try {
      const pages = register(empty);
      const run = (path: string) => {
        const r = request(path, 'text/html');
        const handler = pages.match(r);
        if (!handler) throw new Error(`${path} is not routed`);
        return handler(r);
      };
      const dashboard = await run(uiPaths.dashboard);
      expect(dashboard).toMatchObject({ status: 503, body: { status: 'ERROR' } });
      expect(JSON.stringify(dashboard)).toContain('run `npm run build`');
      const graphiql = await run('/graphql');
      expect(graphiql).toMatchObject({
        status: 503,
        body: { errors: [{ message: expect.stringContaining('npm run build') }] },
      });
      expect(await run(`${uiPaths.assets}graphiql.js`)).toMatchObject({ status: 404, body: { status: 'ERROR' } });
      expect(await run(`${uiPaths.assets}no-such-asset.js`)).toMatchObject({ status: 404, body: { status: 'ERROR' } });
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
