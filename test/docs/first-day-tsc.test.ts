// docs/first-day.md's two files under plain `tsc`: the README's pay.mts and the page's run.mts (which imports
// './pay.mts'), compiled with the options `tsc --init` writes plus the settings the page gives in its JSON block.
// The other docs test compiles every block with `allowImportingTsExtensions`, which hides TS5097; this one compiles
// them as a team's `npx tsc` would, against the built package (in process: the compiler's API, no child process).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMarkdown, root } from './support/markdown.ts';

/** The compiler options of the tsconfig.json `tsc --init` writes (TypeScript 5.9), as JSON. */
const tscInitOptions = {
  module: 'nodenext',
  target: 'esnext',
  types: [],
  sourceMap: true,
  declaration: true,
  declarationMap: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  strict: true,
  jsx: 'react-jsx',
  verbatimModuleSyntax: true,
  isolatedModules: true,
  noUncheckedSideEffectImports: true,
  moduleDetection: 'force',
  skipLibCheck: true,
};

const block = (file: string, has: string) => {
  const found = readMarkdown(file).blocks.find((b) => b.code.includes(has));
  if (!found) throw new Error(`${file} has no code block containing ${has}`);
  return found.code;
};

let dir = '';
beforeAll(() => {
  if (!existsSync(join(root, 'dist/client.d.ts')))
    throw new Error('dist/ has no declarations: run `npm run build` before these tests.');
  mkdirSync(join(root, '.tmp'), { recursive: true });
  // Inside the repository and with no package.json of its own, so `payment-contract-kit` resolves to this package
  // itself (its `exports`, dist/); the .mts files are ES modules whatever the nearest package.json says.
  dir = mkdtempSync(join(root, '.tmp', 'first-day-tsc-'));
  writeFileSync(join(dir, 'pay.mts'), block('README.md', 'export async function pay('));
  writeFileSync(join(dir, 'run.mts'), block('docs/first-day.md', "from './pay.mts'"));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The diagnostics of `tsc` (type-checking only) on the two files with `json` as compilerOptions. */
function diagnostics(json: Record<string, unknown>): string[] {
  const { options, errors } = ts.convertCompilerOptionsFromJson(json, dir);
  expect(errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, '\n'))).toEqual([]);
  const program = ts.createProgram([join(dir, 'run.mts'), join(dir, 'pay.mts')], {
    ...options,
    noEmit: true,
    typeRoots: [join(root, 'node_modules/@types')],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe("docs/first-day.md's files under plain tsc", () => {
  it('fail with TS5097 on the tsconfig.json tsc --init writes (what the page warns of)', () => {
    expect(diagnostics(tscInitOptions).join('\n')).toContain('TS5097');
  });

  it("compile with the page's settings added", () => {
    const settings = JSON.parse(block('docs/first-day.md', 'rewriteRelativeImportExtensions')) as {
      compilerOptions: Record<string, unknown>;
    };
    expect(diagnostics({ ...tscInitOptions, ...settings.compilerOptions })).toEqual([]);
  });

  it("keeps the page's JSON block what it says: the two settings and nothing else", () => {
    const page = readFileSync(join(root, 'docs/first-day.md'), 'utf8');
    expect(page).toContain('TS5097');
    expect(
      Object.keys(JSON.parse(block('docs/first-day.md', 'rewriteRelativeImportExtensions')).compilerOptions),
    ).toEqual(['rewriteRelativeImportExtensions', 'types']);
  });
});
