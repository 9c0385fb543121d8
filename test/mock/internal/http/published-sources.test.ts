/**
 * The published sources at `/__pck/schema.graphql` and `/__pck/openapi.yaml`, read from the package's files.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { appsClosedAfterEach } from '../in-process.ts';

const base = 'http://127.0.0.1:4010';
const file = (path: string) => readFileSync(new URL(`../../../../${path}`, import.meta.url), 'utf8');

const mockApp = appsClosedAfterEach();

describe('published sources', () => {
  it('serves schema.graphql and openapi.yaml as the package ships them', async () => {
    const app = mockApp();
    const schema = await app.fetch(new Request(`${base}/__pck/schema.graphql`));
    expect(schema.status).toBe(200);
    expect(schema.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await schema.text()).toBe(file('schema.graphql'));
    const openapi = await app.fetch(new Request(`${base}/__pck/openapi.yaml`));
    expect(openapi.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
    expect(await openapi.text()).toBe(file('openapi.yaml'));
  });

  it('serves the legacy SDL for the legacy guide, and either with ?guide= in --guide both', async () => {
    const legacy = await mockApp({ guide: 'legacy' }).fetch(new Request(`${base}/__pck/schema.graphql`));
    expect(await legacy.text()).toBe(file('generated/legacy/schema.graphql'));
    const both = mockApp({ guide: 'both' });
    const asked = await both.fetch(new Request(`${base}/__pck/schema.graphql?guide=legacy`));
    expect(await asked.text()).toBe(file('generated/legacy/schema.graphql'));
    const unasked = await both.fetch(new Request(`${base}/__pck/schema.graphql`));
    expect(await unasked.text()).toBe(file('schema.graphql'));
  });

  it.each([
    ['current', 'guide=old', 400, /"guide" must be current or legacy/],
    ['current', 'guide=legacy', 404, /serves the current guide only.*--guide both/],
  ] as const)('with --guide %s, ?%s answers %i', async (guide, query, status, message) => {
    const res = await mockApp({ guide }).fetch(new Request(`${base}/__pck/schema.graphql?${query}`));
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ status: 'ERROR', message: expect.stringMatching(message) });
  });

  it('are not journaled, like the rest of the control API', async () => {
    const app = mockApp();
    await app.fetch(new Request(`${base}/__pck/openapi.yaml`));
    expect(await app.control.requests()).toEqual([]);
  });
});
