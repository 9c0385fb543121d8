import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findDrift, listFiles } from '../scripts/generated-drift.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const committed = join(root, 'generated');

describe('generated/ drift check', () => {
  it('passes on the committed files (`tsx scripts/generate.ts --check` exits 0)', async () => {
    // execFile rejects on a non-zero exit, so reaching the assertion means exit 0.
    const { stdout } = await run('npx', ['tsx', 'scripts/generate.ts', '--check'], { cwd: root });
    expect(stdout).toMatch(/generated\/ matches its sources \(\d+ files\)/);
  }, 120_000);

  it('finds no drift between a directory and an exact copy of it', async () => {
    const copy = await mkdtemp(join(tmpdir(), 'pck-drift-same-'));
    try {
      await cp(committed, copy, { recursive: true });
      expect(await findDrift(committed, copy)).toEqual([]);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});

describe('findDrift on a tampered copy', () => {
  let tampered: string;
  beforeEach(async () => {
    tampered = await mkdtemp(join(tmpdir(), 'pck-drift-'));
    await cp(committed, tampered, { recursive: true });
  });
  afterEach(() => rm(tampered, { recursive: true, force: true }));

  // Each case tampers with the "committed" copy in one way; the real generated/ plays the fresh generation.
  const cases: [string, { tamper: (dir: string) => Promise<void>; want: string[] }][] = [
    [
      'a hand edit',
      {
        tamper: (dir) => writeFile(join(dir, 'legacy/schema.graphql'), '# edited by hand\n'),
        want: ['generated/legacy/schema.graphql differs from what its sources produce'],
      },
    ],
    [
      'a deleted file',
      {
        tamper: (dir) => rm(join(dir, 'openapi.ts')),
        want: ['generated/openapi.ts is missing'],
      },
    ],
    [
      'a stale extra file',
      {
        tamper: (dir) => writeFile(join(dir, 'current/stale.ts'), 'export {};\n'),
        want: ['generated/current/stale.ts is committed but the sources no longer produce it'],
      },
    ],
  ];

  it.each(cases)('reports %s', async (_name, { tamper, want }) => {
    await tamper(tampered);
    expect(await findDrift(committed, tampered)).toEqual(want);
  });

  it('reports every committed file as missing when the committed directory does not exist', async () => {
    const files = await listFiles(committed);
    expect(files.length).toBeGreaterThan(0);
    expect(await findDrift(committed, join(tampered, 'absent'))).toEqual(files.map((f) => `generated/${f} is missing`));
  });
});
