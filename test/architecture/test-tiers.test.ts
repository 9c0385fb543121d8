// The tiers of test/tiers.ts hold: every pattern names a file that exists (a moved file cannot fall back into the
// unit tier unseen), no file is in two tiers, and the unit tier's guard refuses child processes with the fix.
import { execFile, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { integrationTests, isolatedUnitTests, packageTests } from '../tiers.ts';

const root = join(import.meta.dirname, '..', '..');
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [relative(root, join(dir, e.name))],
  );
const testFiles = files(join(root, 'test'));
// The patterns use only a double star with a slash (any folders) and a single star (part of one name).
const globRegExp = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*\//g, '\0')
      .replace(/\*/g, '[^/]*')
      .replace(/\0/g, '(?:.*/)?')}$`,
  );
const matches = (pattern: string) => testFiles.filter((f) => globRegExp(pattern).test(f));

describe('test/tiers.ts', () => {
  it.each([...integrationTests, ...packageTests, ...isolatedUnitTests])(
    '%s names at least one test file',
    (pattern) => {
      expect(matches(pattern)).not.toEqual([]);
    },
  );

  it('runs isolated every unit test that mocks modules or stubs globals', () => {
    const elsewhere = new Set([...integrationTests, ...packageTests, ...isolatedUnitTests].flatMap(matches));
    const mocking = testFiles.filter(
      (f) =>
        /\.test\.ts$/.test(f) &&
        !elsewhere.has(f) &&
        /\bvi\.(mock|doMock|hoisted|stubGlobal|stubEnv|resetModules)\(/.test(readFileSync(join(root, f), 'utf8')),
    );
    expect(mocking).toEqual([]);
  });

  it('puts no file in both the integration and the package tier', () => {
    const integration = new Set(integrationTests.flatMap(matches));
    expect(packageTests.flatMap(matches).filter((f) => integration.has(f))).toEqual([]);
  });
});

describe('the unit tier guard', () => {
  it('refuses a child process with the way to fix it', () => {
    expect(() => spawnSync('true')).toThrow(/unit tier starts no child process.*test\/tiers\.ts/);
    expect(() => execFile('true')).toThrow(/child_process\.execFile\("true"\)/);
  });
});
