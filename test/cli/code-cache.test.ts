// Stack traces of the mock script run through a V8 code cache (src/cli/code-cache.ts) name the file loaded, not the
// folder the cache was made in: a cache keeps the script name it was made under, and the package's cache is made on
// the machine that builds it. In process: a script compiled in one folder, its cache taken by a copy in another.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileWithCache, scriptName } from '../../src/cli/code-cache.ts';

const scratch = mkdtempSync(join(tmpdir(), 'pck-code-cache-frames-'));
const previousPrepare = Error.prepareStackTrace;
afterAll(() => {
  // compileWithCache names frames through Error.prepareStackTrace, process-wide: this worker gets Node's back.
  Error.prepareStackTrace = previousPrepare;
  rmSync(scratch, { recursive: true, force: true });
});

// A script shaped like dist/cli/mock.cjs: CommonJS, exporting run(); this one fails from a function of its own.
const source = `"use strict";
function refuse(argv) { throw new Error('refused ' + argv.join(' ')); }
exports.run = async function run(argv) { return refuse(argv); };
`;

function scriptIn(folder: string): string {
  mkdirSync(join(scratch, folder), { recursive: true });
  return join(scratch, folder, 'mock.cjs');
}

async function stackOf(run: Promise<unknown>): Promise<string> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return (error as Error).stack ?? '';
}

describe('a mock script through a code cache', () => {
  it('names the loaded file in stack frames, not the folder where the cache was made', async () => {
    const built = scriptIn('build-machine');
    writeFileSync(built, source);
    const first = compileWithCache(built, readFileSync(built, 'latin1'), undefined);
    expect(await stackOf(first.command.run(['a']))).toContain(`${built}:2:`);
    const cache = first.script.createCachedData();

    const installed = scriptIn('installed/node_modules/payment-contract-kit/dist/cli');
    copyFileSync(built, installed);
    const second = compileWithCache(installed, readFileSync(installed, 'latin1'), cache);
    expect(second.cacheAccepted).toBe(true);
    const stack = await stackOf(second.command.run(['b']));
    expect(stack).toMatch(/^Error: refused b\n {4}at refuse \(/);
    expect(stack).toContain(`at refuse (${installed}:2:`);
    expect(stack).not.toContain(built);
    // The name V8 compiled it under is replaced, also where the installed path ends with it.
    expect(stack.split(scriptName).length - 1).toBe(stack.split(installed).length - 1);
  });
});
