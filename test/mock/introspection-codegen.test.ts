/**
 * Introspection answers the published schema (decisions/0006): GraphQL Code Generator pointed at a running CLI mock
 * (`mock --port 0 --quiet --guide both` through the command's `run`, in process) writes the same types as
 * `npm run generate` wrote into `generated/` from the files. The legacy guide's types come from the published SDL at
 * `/__pck/schema.graphql?guide=legacy` in `--guide both`.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generate } from '@graphql-codegen/cli';
import { buildSchema, getIntrospectionQuery, graphqlSync } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codegenConfig } from '../../codegen.ts';
import { run } from '../../src/cli/commands/mock.ts';
import { defaultCredentials, serviceHeaders, servicePaths } from '../../src/spec-names.ts';
import { inProcessServers } from '../support/cli-in-process.ts';

const root = resolve(import.meta.dirname, '../..');
const servers = inProcessServers();
let url = '';
let token = '';

beforeAll(async () => {
  const mock = servers.start((io, process) => run(['--port', '0', '--quiet', '--guide', 'both'], { io, process }));
  url = await mock.url;
  const res = await fetch(`${url}${servicePaths.generateToken}`, {
    method: 'POST',
    headers: {
      [serviceHeaders.clientId]: defaultCredentials.clientId,
      [serviceHeaders.apiKey]: defaultCredentials.apiKey,
    },
  });
  token = (await res.json()).data.token;
});

afterAll(() => servers.stopAll());

/**
 * The generated text without the doc comments of the `Scalars` map: codegen documents a scalar from its SDL node
 * only, and a schema built from introspection has none, though the mock's introspection does answer the scalar's
 * description (checked by the exact-introspection test).
 */
function withoutScalarDocs(text: string): string {
  return text.replace(/export type Scalars = \{[\s\S]*?\n\};/, (block) =>
    block.replace(/\n\s*\/\*\*[\s\S]*?\*\//g, ''),
  );
}

/** Runs codegen with the kit's own configuration, the schema of `target` replaced by `schema`. */
async function generateFrom(target: 'current' | 'legacy', schema: unknown): Promise<string> {
  const config = codegenConfig('generated');
  const key = `generated/${target}/graphql.ts`;
  const output = config.generates[key] as Record<string, unknown>;
  const files = await generate(
    { ...config, cwd: root, silent: true, generates: { [key]: { ...output, schema } } } as Parameters<
      typeof generate
    >[0],
    false,
  );
  return (files as { content: string }[])[0]!.content;
}

describe('types generated from the mock URL', () => {
  it('introspection of /graphql gives the same current-guide types as schema.graphql', async () => {
    const content = await generateFrom('current', {
      [`${url}${servicePaths.graphql}`]: { headers: { [serviceHeaders.jwt]: token } },
    });
    const fromFile = readFileSync(join(root, 'generated/current/graphql.ts'), 'utf8');
    expect(withoutScalarDocs(content)).toBe(withoutScalarDocs(fromFile));
    // The one difference is codegen's, not the mock's: it documents scalars from SDL nodes only (see below).
    expect(content.length).toBeLessThan(fromFile.length);
  });

  it('introspection answers exactly what schema.graphql introspects to', async () => {
    const query = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true });
    const res = await fetch(`${url}${servicePaths.graphql}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [serviceHeaders.jwt]: token },
      body: JSON.stringify({ query }),
    });
    const fromFile = graphqlSync({
      schema: buildSchema(readFileSync(join(root, 'schema.graphql'), 'utf8')),
      source: query,
    });
    expect(await res.json()).toEqual({ data: fromFile.data });
  });

  it('the published SDL URL gives the legacy-guide types', async () => {
    const content = await generateFrom('legacy', {
      [`${url}/__pck/schema.graphql?guide=legacy`]: { handleAsSDL: true },
    });
    expect(content).toBe(readFileSync(join(root, 'generated/legacy/graphql.ts'), 'utf8'));
  });

  it('introspection shows the published requirements, not the wire schema relaxed inputs', async () => {
    const res = await fetch(`${url}${servicePaths.graphql}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [serviceHeaders.jwt]: token },
      body: JSON.stringify({ query: getIntrospectionQuery() }),
    });
    const types = (await res.json()).data.__schema.types as {
      name: string;
      inputFields: { name: string; type: { kind: string } }[];
    }[];
    const contact = types.find((t) => t.name === 'ContactInput')!;
    // first_name is @serverRequired: nullable in the wire schema, required in schema.graphql.
    expect(contact.inputFields.find((f) => f.name === 'first_name')!.type.kind).toBe('NON_NULL');
  });
});
