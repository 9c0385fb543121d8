/**
 * The landing page at GET `/`: HTML for browsers, today's 404 for JSON clients, off with `ui: false`.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { escapeHtml, landingDocPages, renderLanding } from '../../../support/mock-internals/ui.ts';
import { appsClosedAfterEach } from '../in-process.ts';

const base = 'http://127.0.0.1:4010';
const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

const mockApp = appsClosedAfterEach();

describe('landing page', () => {
  it('answers a browser with the base URL, the credentials and the links', async () => {
    const app = mockApp({ clients: [{ clientId: 'acme', apiKey: 'acme-key' }] });
    const res = await app.fetch(new Request(`${base}/`, { headers: { ...html, host: '127.0.0.1:4010' } }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await res.text();
    expect(page).toContain('<code id="base-url">http://127.0.0.1:4010</code>');
    expect(page).toContain('<code>acme</code></td><td><code>acme-key</code>');
    for (const path of ['/graphql', '/__pck/reference', '/__pck/ui', '/__pck/schema.graphql', '/__pck/openapi.yaml'])
      expect(page).toContain(`href="http://127.0.0.1:4010${path}`);
    expect(page).toContain('docs/browser-pages.md');
  });

  it('keeps the 404 body of an unknown path for JSON clients, byte for byte', async () => {
    const withUi = await mockApp().fetch(new Request(`${base}/`, { headers: { accept: 'application/json' } }));
    const withoutUi = await mockApp({ ui: false }).fetch(new Request(`${base}/`, { headers: html }));
    expect(withUi.status).toBe(404);
    expect(withoutUi.status).toBe(404);
    const body = await withUi.text();
    expect(body).toBe(await withoutUi.text());
    expect(JSON.parse(body)).toEqual({
      status: 'ERROR',
      message: expect.stringMatching(/^\[payment-contract-kit\] No such path: \//),
    });
  });

  it('names docs pages that exist, beside the README', () => {
    const page = renderLanding({ baseUrl: base, guide: 'current', clients: [], readmePath: '/kit/README.md' });
    for (const [title, path] of landingDocPages) {
      expect(existsSync(new URL(`../../../../${path}`, import.meta.url)), path).toBe(true);
      expect(page).toContain(`${escapeHtml(title)} <small>(${path})</small>`);
    }
  });

  it('escapes everything it shows', () => {
    const page = renderLanding({
      baseUrl: 'http://x"><script>alert(1)</script>',
      guide: 'both',
      clients: [{ clientId: '<img src=x onerror=alert(1)>', apiKey: "'" }],
      readmePath: '/tmp/<b>/README.md',
    });
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain('<img');
    expect(page).not.toContain('<b>');
    expect(page).toContain(escapeHtml('<img src=x onerror=alert(1)>'));
    expect(page).toContain('?guide=current');
  });

  it('is refused to another website (no open door) and uses the Host only when it is well formed', async () => {
    const app = mockApp();
    const cross = await app.fetch(new Request(`${base}/`, { headers: { ...html, origin: 'http://evil.example' } }));
    expect(cross.status).toBe(403);
    const page = await (await app.fetch(new Request(`${base}/`, { headers: html }))).text();
    expect(page).toContain('served in-process');
  });
});
