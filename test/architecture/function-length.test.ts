import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Issue 11's bound: a function in the mock that grows past this is split into modules of one concern. */
const MAX_FUNCTION_LINES = 120;
const ROOT = join(import.meta.dirname, '..', '..');
const MOCK_DIR = join(ROOT, 'src', 'mock');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
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

describe('function length in src/mock', () => {
  it('finds a function over the bound (the check can fail)', () => {
    const body = Array.from({ length: MAX_FUNCTION_LINES }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = `export function tooLong(): void {\n${body}\n}\nconst short = () => 1;\n`;
    expect(longFunctions('probe.ts', text, MAX_FUNCTION_LINES)).toEqual([
      { where: 'probe.ts:1', lines: MAX_FUNCTION_LINES + 2 },
    ]);
  });

  it(`has no function longer than ${MAX_FUNCTION_LINES} lines`, () => {
    const offenders = sourceFiles(MOCK_DIR).flatMap((file) =>
      longFunctions(file, readFileSync(file, 'utf8'), MAX_FUNCTION_LINES),
    );
    expect(offenders).toEqual([]);
  });
});

describe('function length in src/proxy', () => {
  it(`has no function longer than ${MAX_FUNCTION_LINES} lines (the proxy and its command)`, () => {
    const files = [...sourceFiles(join(ROOT, 'src', 'proxy')), join(ROOT, 'src', 'cli', 'commands', 'proxy.ts')];
    const offenders = files.flatMap((file) => longFunctions(file, readFileSync(file, 'utf8'), MAX_FUNCTION_LINES));
    expect(offenders).toEqual([]);
  });
});
