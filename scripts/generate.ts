// Regenerates generated/ from the sources and the option tables of docs/options.md from the code's option tables, or
// with --check compares a fresh generation against the committed files and fails on any difference (the drift check
// that runs before the tests; it never rewrites anything).
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { generate } from '@graphql-codegen/cli';
import { buildSchema, type GraphQLObjectType, Kind, parse, print } from 'graphql';
import openapiTS, { astToString } from 'openapi-typescript';
import { codegenConfig, generatedHeader } from '../codegen.ts';
import { deriveLegacySchemaDocument } from '../src/schema/derive-legacy-schema.ts';
import { findDrift, listFiles } from './generated-drift.ts';
import { writeOptionDocs } from './option-docs.ts';

const root = join(import.meta.dirname, '..');
process.chdir(root);

/**
 * A printed operation on one line. The printer breaks an argument list longer than 80 characters onto lines of its
 * own with no commas; joined back, it reads `f(a: $a, b: $b)` like a short one.
 */
function oneLine(printed: string): string {
  return printed
    .replace(/\(\n\s*([^()]*?)\n\s*\)/g, (_all, list: string) => `(${list.trim().split(/\n\s*/).join(', ')})`)
    .replace(/\s+/g, ' ');
}

/**
 * The query text (on one line) and the root field of every operation in operations/<guide>/, keyed by guide and
 * operation name: the client sends these strings, so it needs neither the printer nor the files at run time.
 */
async function operationTextsModule(): Promise<string> {
  const guides: Record<string, Record<string, string>> = {};
  const rootFields: Record<string, Record<string, string>> = {};
  for (const guide of ['current', 'legacy']) {
    const texts: Record<string, string> = {};
    const fields: Record<string, string> = {};
    for (const file of (await readdir(join('operations', guide))).filter((f) => f.endsWith('.graphql')).sort()) {
      const document = parse(await readFile(join('operations', guide, file), 'utf8'));
      for (const definition of document.definitions) {
        if (definition.kind !== Kind.OPERATION_DEFINITION || !definition.name)
          throw new Error(`operations/${guide}/${file}: every operation needs a name (the client sends it by name).`);
        const printed = print(definition);
        // One line, as a person would write it (the same text the kit always sent, so recorded pacts still match);
        // collapsing whitespace is safe only without string literals, which the kit's operations do not use.
        if (printed.includes('"'))
          throw new Error(`operations/${guide}/${file}: string literals in operations are not supported here.`);
        texts[definition.name.value] = oneLine(printed);
        // The client returns this field of the answer's data, so each operation selects exactly one root field.
        const roots = definition.selectionSet.selections;
        if (roots.length !== 1 || roots[0]?.kind !== Kind.FIELD)
          throw new Error(
            `operations/${guide}/${file}: an operation selects exactly one root field (the client returns it).`,
          );
        fields[definition.name.value] = roots[0].name.value;
      }
    }
    guides[guide] = texts;
    rootFields[guide] = fields;
  }
  return `${generatedHeader}

/** Query text of each operation in operations/, by guide and operation name (on one line, as the client sends it). */
export const operationTexts = ${JSON.stringify(guides, null, 2)} as const;

/** The root field each operation selects, by guide and operation name: the part of the answer's data it returns. */
export const operationRootFields = ${JSON.stringify(rootFields, null, 2)} as const;
`;
}

/**
 * The arguments and result type of every root field of the current guide, by root type, as types from the generated
 * current types: the mock's resolver table is a mapped type over it, so a new root field without a resolver fails to
 * compile instead of failing when a mock starts.
 */
function rootFieldsModule(sdl: string): string {
  const schema = buildSchema(sdl);
  const roots: [string, GraphQLObjectType | null | undefined][] = [
    ['Query', schema.getQueryType()],
    ['Mutation', schema.getMutationType()],
    ['Subscription', schema.getSubscriptionType()],
  ];
  const blocks: string[] = [];
  for (const [name, root] of roots) {
    if (!root) continue;
    if (root.name !== name) throw new Error(`schema.graphql: the ${name} root type must be named ${name}.`);
    const rows = Object.values(root.getFields())
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((field) => {
        // GraphQL Code Generator names the arguments type <Root><Field>Args, and writes none for a field without any.
        const args =
          field.args.length > 0
            ? `Current.${name}${field.name[0]!.toUpperCase()}${field.name.slice(1)}Args`
            : 'Record<string, never>';
        return `    readonly ${field.name}: { readonly args: ${args}; readonly result: Current.${name}['${field.name}'] };`;
      });
    blocks.push(`  readonly ${name}: {\n${rows.join('\n')}\n  };`);
  }
  return `${generatedHeader}
import type * as Current from './current/graphql.ts';

/** Arguments and result of each root field of the current guide (schema.graphql), by root type and field name. */
export interface RootFields {
${blocks.join('\n')}
}
`;
}

async function generateInto(outDir: string): Promise<void> {
  await mkdir(join(outDir, 'legacy'), { recursive: true });
  await mkdir(join(outDir, 'current'), { recursive: true });

  const currentSdl = await readFile('schema.graphql', 'utf8');
  const legacySdl = `${print(deriveLegacySchemaDocument(parse(currentSdl)))}\n`;
  await writeFile(
    join(outDir, 'legacy/schema.graphql'),
    `# Generated by \`npm run generate\` from schema.graphql (src/schema/derive-legacy-schema.ts). Do not edit by hand.\n${legacySdl}`,
  );
  // The mock serves both guides from these strings, so it needs no file access at run time.
  await writeFile(
    join(outDir, 'schema-sdl.ts'),
    `${generatedHeader}\n\n/** SDL of the current guide (schema.graphql). */\nexport const currentSchemaSdl: string = ${JSON.stringify(print(parse(currentSdl)))};\n\n/** SDL of the legacy guide, derived from the current one. */\nexport const legacySchemaSdl: string = ${JSON.stringify(legacySdl.trimEnd())};\n`,
  );

  // The same documents parsed (no locations), as JSON the mock reads with JSON.parse: graphql's parser, cold at
  // start-up, took about ten times as long over the SDL, on the CLI mock's way to its first answer (decision 0037).
  const documentJson = (sdl: string) => JSON.stringify(JSON.stringify(parse(sdl, { noLocation: true })));
  await writeFile(
    join(outDir, 'schema-documents.ts'),
    `${generatedHeader}\n\n/** The current guide's SDL parsed without locations, as JSON (\`JSON.parse\` gives graphql's DocumentNode). */\nexport const currentSchemaDocumentJson: string = ${documentJson(print(parse(currentSdl)))};\n\n/** The legacy guide's SDL parsed without locations, as JSON. */\nexport const legacySchemaDocumentJson: string = ${documentJson(legacySdl.trimEnd())};\n`,
  );

  await writeFile(join(outDir, 'operation-texts.ts'), await operationTextsModule());
  await writeFile(join(outDir, 'root-fields.ts'), rootFieldsModule(currentSdl));

  await generate(codegenConfig(relative(root, outDir) || '.'), true);

  const ast = await openapiTS(new URL('../openapi.yaml', import.meta.url));
  await writeFile(join(outDir, 'openapi.ts'), `${generatedHeader}\n\n${astToString(ast)}`);
}

if (process.argv.includes('--check')) {
  const tmp = await mkdtemp(join(tmpdir(), 'pck-generated-'));
  try {
    await generateInto(tmp);
    const drift = await findDrift(tmp, join(root, 'generated'));
    if (drift.length > 0) {
      console.error(
        `[payment-contract-kit] generated/ has drifted from its sources:\n  ${drift.join('\n  ')}\nRun \`npm run generate\` and commit the result.`,
      );
      process.exitCode = 1;
    } else {
      console.log(`generated/ matches its sources (${(await listFiles(tmp)).length} files).`);
    }
    if (!(await writeOptionDocs({ check: true }))) {
      console.error(
        '[payment-contract-kit] docs/options.md has drifted from the option tables in the code.\nRun `npm run generate` and commit the result.',
      );
      process.exitCode = 1;
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
} else {
  await generateInto(join(root, 'generated'));
  await writeOptionDocs();
  console.log(
    'generated/ rewritten from schema.graphql, openapi.yaml and operations/; docs/options.md from the option tables.',
  );
}
