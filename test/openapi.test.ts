import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { defaultAssumptions } from '../src/assumptions.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const openapiText = await readFile(join(root, 'openapi.yaml'), 'utf8');
// biome-ignore lint/suspicious/noExplicitAny: a parsed YAML document, navigated by the assertions below.
const doc: any = parse(openapiText);

/** Follows local `$ref`s (`#/components/...`) so assertions see the shape a client sees. */
// biome-ignore lint/suspicious/noExplicitAny: see above.
function deref(node: any): any {
  if (Array.isArray(node)) return node.map(deref);
  if (node === null || typeof node !== 'object') return node;
  if (typeof node.$ref === 'string') {
    const target = node.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((at: Record<string, unknown> | undefined, part: string) => at?.[part] as Record<string, unknown>, doc);
    if (target === undefined) throw new Error(`unresolved $ref ${node.$ref}`);
    return deref(target);
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, deref(v)]));
}

/** Runs the real redocly linter on `file` with the repository's redocly.yaml; returns its JSON report. */
async function lint(file: string): Promise<{ totals: { errors: number; warnings: number }; problems: unknown[] }> {
  // redocly exits 1 when it finds errors; the report on stdout is what the assertions read either way.
  const result = await run('npx', ['redocly', 'lint', file, '--format=json'], { cwd: root }).catch(
    (error: { stdout?: string; stderr?: string }) => error,
  );
  if (!result.stdout?.trimStart().startsWith('{')) throw new Error(`redocly gave no JSON report: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

describe('redocly lint (recommended-strict)', () => {
  it('reports zero errors and zero warnings on openapi.yaml', async () => {
    const report = await lint('openapi.yaml');
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it('does report a problem on a spoiled copy (the lint step can fail)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pck-openapi-'));
    try {
      // recommended-strict requires an operationId on every operation.
      await writeFile(join(dir, 'openapi.yaml'), openapiText.replace(/^ *operationId: generateToken\n/m, ''));
      const report = await lint(join(dir, 'openapi.yaml'));
      expect(report.totals.errors).toBeGreaterThan(0);
      expect(report.problems).toContainEqual(expect.objectContaining({ ruleId: 'operation-operationId' }));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('openapi.yaml against the spec', () => {
  const tokenPaths = ['generate', 'refresh', 'revoke'].map((p) => `/api/v2/accounting/token/${p}-token`);
  const errorBody = {
    type: 'object',
    required: ['status', 'message'],
    properties: { status: { type: 'string', const: 'ERROR' }, message: { type: 'string' } },
  };

  it('has exactly the three token paths, each with POST only (spec 4.1-4.3, 9: v2 in the path)', () => {
    expect(Object.keys(doc.paths).sort()).toEqual([...tokenPaths].sort());
    for (const path of tokenPaths) expect(Object.keys(doc.paths[path])).toEqual(['post']);
  });

  it('shares one {base_url} server variable between REST paths and /graphql', () => {
    expect(doc.servers).toHaveLength(1);
    expect(doc.servers[0].url).toBe('{base_url}');
    expect(doc.servers[0].variables.base_url.default).toMatch(/^https?:\/\//);
  });

  it.each(tokenPaths)('%s requires the x-client-id and x-api-key headers (spec 4, 5)', (path) => {
    const headers = deref(doc.paths[path].post.parameters).filter((p: { in: string }) => p.in === 'header');
    for (const name of ['x-client-id', 'x-api-key']) {
      expect(headers).toContainEqual(expect.objectContaining({ name, required: true, schema: { type: 'string' } }));
    }
  });

  it.each(tokenPaths)('%s answers 401 and 500 with { status: "ERROR", message } (spec 7.1)', (path) => {
    const { responses } = deref(doc.paths[path].post);
    for (const status of ['401', '500']) {
      expect(responses[status].content['application/json'].schema).toMatchObject(errorBody);
    }
  });

  it.each(tokenPaths.slice(0, 2))('%s answers 200 with the token pair (spec 2.1)', (path) => {
    const schema = deref(doc.paths[path].post).responses['200'].content['application/json'].schema;
    expect(schema).toMatchObject({
      required: expect.arrayContaining(['status', 'data']),
      properties: {
        status: { type: 'string', const: 'SUCCESS' },
        data: {
          type: 'object',
          required: expect.arrayContaining(['token', 'refresh_token', 'expiration']),
          properties: {
            token: { type: 'string' },
            refresh_token: { type: 'string' },
            expiration: { type: 'integer' },
          },
        },
      },
    });
  });

  it('refresh-token takes { refresh_token } as a required JSON body (spec 4.2)', () => {
    const body = deref(doc.paths[tokenPaths[1]!].post.requestBody);
    expect(body.required).toBe(true);
    expect(body.content['application/json'].schema).toMatchObject({
      required: ['refresh_token'],
      properties: { refresh_token: { type: 'string' } },
    });
  });

  it('revoke-token answers 200 (spec 4.3; its body is the kit’s assumption)', () => {
    expect(doc.paths[tokenPaths[2]!].post.responses['200']).toBeDefined();
  });

  describe('webhooks.paymentStatus (spec 6)', () => {
    const post = deref(doc.webhooks?.paymentStatus?.post ?? {});
    const payload = post.requestBody?.content?.['application/json']?.schema;

    it('carries the payment fields with status as a plain string and the echoed metadata', () => {
      expect(payload).toMatchObject({
        type: 'object',
        properties: {
          amount: { type: 'number' },
          payment_gateway_fee: { type: 'number' },
          paid_at: { type: 'string' },
          status: { type: 'string' },
          uuid: { type: 'string' },
          metadata: { type: 'object' },
        },
      });
      expect(Object.keys(payload.properties).sort()).toEqual(
        ['amount', 'metadata', 'paid_at', 'payment_gateway_fee', 'status', 'uuid'].sort(),
      );
      // metadata is echoed only when the payment was created with it.
      expect([...payload.required].sort()).toEqual(['amount', 'paid_at', 'payment_gateway_fee', 'status', 'uuid']);
    });

    it('names its two headers as src/assumptions.ts does, so the two cannot drift', () => {
      const { signingKeyHeader, clientIdHeader } = defaultAssumptions.webhook;
      const headers = post.parameters
        .filter((p: { in: string }) => p.in === 'header')
        .map((p: { name: string; required: boolean }) => [p.name, p.required]);
      expect(headers.sort()).toEqual(
        [
          [signingKeyHeader, true],
          [clientIdHeader, true],
        ].sort(),
      );
    });
  });
});
