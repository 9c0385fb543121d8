// Every code block of README.md and docs/*.md is compiled or run, so an example a reader copies works:
// - ```ts blocks are type-checked together, strict, against the built package (`payment-contract-kit` resolves to
//   this repository's dist/ through its own `exports`, as in a consumer's project). `<!-- ts-context: ... -->` above
//   a block is prepended (declarations of the reader's own names: `baseUrl`, their code under test); `<!-- file:
//   name -->` names the file, so one block can import another (run.mts imports pay.mts); `<!-- ts-missing: pkg -->`
//   names a package that is not installed here, and only "cannot find module" for it is tolerated; `<!-- ts-example:
//   dir -->` marks a block that is the file of examples/<dir> its first line names (`// src/main.ts`): it must equal
//   that file, which the example's own test type-checks in its project, with its own tools (Vite, Storybook, Vitest).
// - ```sh blocks carry `<!-- run -->` (or `<!-- run: exit=1 ... -->`) and really run, with `npx payment-contract-kit`
//   as the built CLI, in a scratch folder holding test/docs/fixtures and the kit's contracts/ as ./pacts; or
//   `<!-- not-run: reason -->`.
// - ```json blocks parse (as one value or as JSON lines); ```text blocks are output samples.
// - ```python blocks (examples for teams without Node) run with python3 and print what their `# prints ...` lines
//   say; where python3 is not installed they are skipped (test/webhook/ checks the numbers they print without it).
//   One that needs what this run does not have (the single executable) says so with `<!-- not-run: reason -->`,
//   naming the test that runs it.
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CodeBlock, docFiles, readMarkdown, root, where } from './support/markdown.ts';

const blocks = docFiles().flatMap((f) => readMarkdown(f).blocks);
const byLang = (lang: string) => blocks.filter((b) => b.lang === lang);
const cli = join(root, 'dist/cli/index.js');

describe('code blocks in the docs', () => {
  it('every block names its language, one the docs test knows', () => {
    const unknown = blocks.filter((b) => !['ts', 'sh', 'json', 'text', 'python'].includes(b.lang)).map(where);
    expect(unknown).toEqual([]);
    expect(byLang('ts').length).toBeGreaterThan(15);
  });

  it.each(byLang('json').map((b) => [where(b), b] as const))('%s is JSON (one value, or one per line)', (_, b) => {
    const parses = (text: string) => {
      try {
        JSON.parse(text);
        return true;
      } catch {
        return false;
      }
    };
    const lines = b.code.split('\n').filter((l) => l.trim() !== '');
    expect(parses(b.code) || lines.every(parses)).toBe(true);
  });

  it.each(
    byLang('python')
      .filter((b) => b.directives.has('not-run'))
      .map((b) => [where(b), b] as const),
  )('%s (python, not run here) says why and which test runs it', (_, b) => {
    expect(b.directives.get('not-run')).toMatch(/.{10,}test\/\S+\.test\.ts/);
    expect(b.directives.has('run')).toBe(false);
  });

  it.each(byLang('sh').map((b) => [where(b), b] as const))('%s is run, or says why not', (_, b) => {
    const run = b.directives.get('run');
    const notRun = b.directives.get('not-run');
    expect(run !== undefined || (notRun !== undefined && notRun.length > 10)).toBe(true);
    expect(run !== undefined && notRun !== undefined).toBe(false);
  });
});

/** Whether python3 is on PATH (Debian and the CI image have it; a developer's machine may not). */
const hasPython = (() => {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasPython)('Python blocks', () => {
  it.each(
    byLang('python')
      .filter((b) => !b.directives.has('not-run'))
      .map((b) => [where(b), b] as const),
  )(
    '%s runs with python3 and prints what its "# prints" lines say',
    async (_, b) => {
      const expected = [...b.code.matchAll(/^# prints (.*)$/gm)].map((m) => m[1]);
      expect(expected.length, 'a python block ends with "# prints ..." lines').toBeGreaterThan(0);
      const output = await new Promise<string>((resolve, reject) => {
        const child = execFile('python3', ['-'], { timeout: 30_000 }, (error, stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
        );
        child.stdin?.end(b.code);
      });
      expect(output.trimEnd().split('\n')).toEqual(expected);
    },
    40_000,
  );
});

/** The exit status a `run` directive expects: `exit=N` in its text, else 0. */
const expectedExit = (b: CodeBlock) => Number(/\bexit=(\d+)/.exec(b.directives.get('run') ?? '')?.[1] ?? 0);

describe('shell blocks marked to run', () => {
  const runnable = byLang('sh').filter((b) => b.directives.has('run'));
  let scratch = '';
  beforeAll(() => {
    if (!existsSync(cli)) throw new Error('dist/cli/index.js is missing: run `npm run build` before these tests.');
    mkdirSync(join(root, '.tmp'), { recursive: true });
    scratch = mkdtempSync(join(root, '.tmp', 'docs-sh-'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('there are some', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(4);
  });

  it.each(runnable.map((b) => [where(b), b] as const))(
    '%s runs and exits as marked',
    async (_, b) => {
      const cwd = join(scratch, where(b).replace(/[/:.]/g, '-'));
      mkdirSync(cwd);
      cpSync(join(root, 'test/docs/fixtures'), cwd, { recursive: true });
      cpSync(join(root, 'contracts'), join(cwd, 'pacts'), { recursive: true });
      const script = b.code.replaceAll('npx payment-contract-kit', `node ${JSON.stringify(cli)}`);
      const result = await new Promise<{ code: number; output: string }>((resolve) => {
        execFile('bash', ['-e', '-c', script], { cwd, timeout: 60_000 }, (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
          resolve({ code, output: `${stdout}\n${stderr}` });
        });
      });
      expect(result.code, result.output.slice(-3000)).toBe(expectedExit(b));
      expect(result.output).not.toMatch(/command not found|Cannot find module/);
    },
    90_000,
  );
});

/** A ts block as the file the compiler sees, and how to map its lines back. */
interface CompiledBlock {
  readonly block: CodeBlock;
  readonly path: string;
  readonly contextLines: number;
  readonly missing: readonly string[];
}

const compilerOptions: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.Preserve,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowImportingTsExtensions: true,
  esModuleInterop: true,
  skipLibCheck: true,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: ['node'],
  typeRoots: [join(root, 'node_modules/@types')],
};

describe('TypeScript blocks', () => {
  const tsBlocks = byLang('ts').filter((b) => !b.directives.has('ts-example'));

  it.each(
    byLang('ts')
      .filter((b) => b.directives.has('ts-example'))
      .map((b) => [where(b), b] as const),
  )("%s is its example project's file, as it is", (_, b) => {
    const file = /^\/\/ (\S+)\n/.exec(b.code)?.[1];
    expect(file, 'a ts-example block starts with `// <path>`').toBeDefined();
    const path = join(root, 'examples', b.directives.get('ts-example') ?? '', file ?? '');
    expect(existsSync(path), `${path} exists`).toBe(true);
    expect(`// ${file}\n${readFileSync(path, 'utf8')}`.trimEnd()).toBe(b.code.trimEnd());
  });
  const compiled: CompiledBlock[] = [];
  const problems = new Map<CodeBlock, string[]>();
  const wrongCodes: number[] = [];
  let dir = '';

  beforeAll(() => {
    if (!existsSync(join(root, 'dist/index.d.ts')))
      throw new Error('dist/ has no declarations: run `npm run build` before these tests.');
    mkdirSync(join(root, '.tmp'), { recursive: true });
    // Inside the repository, so `payment-contract-kit` resolves to this package itself (its `exports`, dist/).
    dir = mkdtempSync(join(root, '.tmp', 'docs-ts-'));
    for (const block of tsBlocks) {
      const name = block.directives.get('file') || `${where(block).replace(/[/:.]/g, '-')}.ts`;
      const context = block.directives.get('ts-context') ?? '';
      const isModule = /^\s*(import|export)\s/m.test(block.code);
      const text = `${context}\n${block.code}${isModule ? '' : 'export {};\n'}`;
      const path = join(dir, name);
      writeFileSync(path, text);
      const missing = (block.directives.get('ts-missing') ?? '')
        .split('(')[0]!
        .split(/[\s,]+/)
        .filter(Boolean);
      compiled.push({ block, path, contextLines: context.split('\n').length, missing });
      problems.set(block, []);
    }
    // One example that must fail, compiled in the same program: proof the check reads the package's types.
    const wrong = join(dir, 'wrong-on-purpose.ts');
    writeFileSync(
      wrong,
      "import { createPaymentClient } from 'payment-contract-kit/client';\ncreatePaymentClient({ baseUrl: 1 });\n",
    );
    const program = ts.createProgram([...compiled.map((c) => c.path), wrong], compilerOptions);
    for (const d of ts.getPreEmitDiagnostics(program)) {
      const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      if (d.file?.fileName === wrong) {
        wrongCodes.push(d.code);
        continue;
      }
      const owner = compiled.find((c) => c.path === d.file?.fileName);
      if (owner === undefined) throw new Error(`a diagnostic outside the docs' blocks: ${message}`);
      const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
      const tolerated = (d.code === 2307 || d.code === 7016) && owner.missing.some((m) => message.includes(`'${m}'`));
      const at = `${owner.block.file}:${owner.block.line + line - owner.contextLines}`;
      problems.get(owner.block)!.push(`${tolerated ? 'tolerated ' : ''}${at}: TS${d.code} ${message}`);
    }
  }, 120_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each(tsBlocks.map((b) => [where(b), b] as const))('%s compiles against the built package', (_, b) => {
    const found = problems.get(b) ?? [];
    expect(found.filter((p) => !p.startsWith('tolerated '))).toEqual([]);
    // A `ts-missing` marker must still be needed: once the package is installed, the block is checked in full.
    const missing = compiled.find((c) => c.block === b)!.missing;
    for (const m of missing) expect(found.some((p) => p.includes(`'${m}'`))).toBe(true);
  });

  it('a wrong example fails: the check is real', () => {
    // A type error (TS2322, number for string), which means the package itself was found and read.
    expect(wrongCodes).toEqual([2322]);
  });
});
