import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** One size rule for all of src/ (issues 11 and 24): a function that grows past this is split into named steps. */
const MAX_FUNCTION_LINES = 120;
const ROOT = join(import.meta.dirname, '..', '..');
const SRC_DIR = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|cts)$/.test(entry.name) ? [path] : [];
  });
}

interface LongFunction {
  readonly where: string;
  readonly lines: number;
}

/** Lists every function-like node (declarations, arrows, methods) whose body spans more lines than the bound. */
function longFunctions(file: string, text: string, max: number): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const body = node.body as ts.Node;
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(body.getEnd()).line;
      const lines = end - start + 1;
      if (lines > max) found.push({ where: `${relative(ROOT, file)}:${start + 1}`, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function length in src/', () => {
  it('finds a function over the bound (the check can fail)', () => {
    const body = Array.from({ length: MAX_FUNCTION_LINES }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = `export function tooLong(): void {\n${body}\n}\nconst short = () => 1;\n`;
    expect(longFunctions('probe.ts', text, MAX_FUNCTION_LINES)).toEqual([
      { where: 'probe.ts:1', lines: MAX_FUNCTION_LINES + 2 },
    ]);
  });

  it('walks every part of src/ (mock, proxy, pact, client, cli, contract, ...)', () => {
    const parts = new Set(sourceFiles(SRC_DIR).map((file) => relative(SRC_DIR, file).split(/[\\/]/)[0]));
    for (const part of ['mock', 'proxy', 'pact', 'client', 'cli', 'contract', 'webhook', 'msw'])
      expect(parts).toContain(part);
  });

  it(`has no function longer than ${MAX_FUNCTION_LINES} lines anywhere in src/`, () => {
    const offenders = sourceFiles(SRC_DIR).flatMap((file) =>
      longFunctions(file, readFileSync(file, 'utf8'), MAX_FUNCTION_LINES),
    );
    expect(offenders).toEqual([]);
  });
});
