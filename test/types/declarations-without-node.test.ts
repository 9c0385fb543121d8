// A browser-only project has no @types/node (issue 25 item 7, issue 28): the declarations of the msw, mock and client
// entries must compile with `types: []` and skipLibCheck off, against the DOM library a front-end project has.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, root } from '../package/support/packed-kit.ts';

const entries = ['dist/msw.d.ts', 'dist/mock.d.ts', 'dist/client.d.ts'];
let dir: string;

beforeAll(async () => {
  await ensureBuilt(entries);
  dir = await mkdtemp(join(tmpdir(), 'pck-dts-'));
}, 180_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Type errors of `files` under a browser project's options: no @types/node, DOM library, libraries checked. */
function diagnostics(files: readonly string[]): string[] {
  const program = ts.createProgram([...files], {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
    strict: true,
    skipLibCheck: false,
    noEmit: true,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('declarations without @types/node', () => {
  it('the msw, mock and client entries compile', () => {
    expect(diagnostics(entries.map((e) => join(root, e)))).toEqual([]);
  });

  it('a declaration that needs Node does not (the check can fail)', async () => {
    const probe = join(dir, 'needs-node.d.ts');
    await writeFile(probe, "import type { IncomingMessage } from 'node:http';\nexport type R = IncomingMessage;\n");
    expect(diagnostics([probe]).join('\n')).toMatch(/node:http/);
  });
});
