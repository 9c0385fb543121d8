// Every `src/...` path a decision note or a docs page names exists in the tree, so a reader who opens the file finds
// it. Code blocks are left out (they are the reader's own project: `// src/main.ts`). A passage that tells what used
// to be sits under `<!-- history: why -->`, which covers the paragraph, list or table below it (up to the next blank
// line); there a path may name a file that has since gone.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docFiles, root } from './support/markdown.ts';

const fence = /^\s*```/;
const historyMark = /^\s*<!--\s*history(?::[\s\S]*?)?-->\s*$/;
const sourcePath = /(?<![\w./-])src\/[\w.*/-]*/g;

/** The `src/` paths of one page outside code blocks and history passages, with their lines. */
function namedSourcePaths(text: string): { line: number; path: string }[] {
  const found: { line: number; path: string }[] = [];
  let inCode = false;
  let inHistory = false;
  text.split('\n').forEach((line, index) => {
    if (fence.test(line)) {
      inCode = !inCode;
      return;
    }
    if (inCode) return;
    if (historyMark.test(line)) {
      inHistory = true;
      return;
    }
    if (line.trim() === '') {
      inHistory = false;
      return;
    }
    if (inHistory) return;
    for (const match of line.matchAll(sourcePath)) {
      found.push({ line: index + 1, path: match[0].replace(/[.,;:]+$/, '') });
    }
  });
  return found;
}

/** Whether a named path is in the tree: a file, a folder (`src/mock/`), or the folder before a glob (`src/pact/*`). */
function existsInTree(path: string, base: string = root): boolean {
  const beforeGlob = path.includes('*') ? path.slice(0, path.indexOf('*')) : path;
  return existsSync(join(base, beforeGlob));
}

const decisionNotes = readdirSync(join(root, 'decisions'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `decisions/${name}`);
const pages = [...docFiles(), 'ASSUMPTIONS.md', ...decisionNotes];

describe('src/ paths the docs and decisions name', () => {
  it('reads paths outside code and history, and only those', () => {
    const page = [
      'The engine is `src/mock/internal/graphql/engine.ts`; see src/pact/*.',
      '```ts',
      '// src/main.ts',
      '```',
      '<!-- history: what the first version named -->',
      'It was `src/mock/internal/errors.ts`,',
      'then moved.',
      '',
      'Now `src/mock/internal/gone.ts`.',
    ].join('\n');
    expect(namedSourcePaths(page)).toEqual([
      { line: 1, path: 'src/mock/internal/graphql/engine.ts' },
      { line: 1, path: 'src/pact/*' },
      { line: 9, path: 'src/mock/internal/gone.ts' },
    ]);
    expect(existsInTree('src/mock/internal/graphql/engine.ts')).toBe(true);
    expect(existsInTree('src/pact/*')).toBe(true);
    expect(existsInTree('src/mock/internal/gone.ts')).toBe(false);
  });

  it.each(pages)('%s names only paths that exist (or marks them as history)', (page) => {
    const missing = namedSourcePaths(readFileSync(join(root, page), 'utf8'))
      .filter(({ path }) => !existsInTree(path))
      .map(({ line, path }) => `${page}:${line}: ${path} does not exist`);
    expect(missing).toEqual([]);
  });
});
