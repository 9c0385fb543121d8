// No test waits for time to pass: a test that sleeps, or polls on a timer, passes on an idle machine and fails on a
// loaded one (or wastes the idle one's time). A test awaits the event that marks the thing done, moves the mock's
// virtual clock, or re-checks a condition when its source tells of a change (test/support/changes.ts). A test that
// shows "nothing more happens" awaits the point after which nothing more can happen (the queue drained, the server
// closed). Every timer left in test/ is in the list below, with the reason it is not a wait on time.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
/** This file, whose examples of the shapes would count. */
const self = relative(root, import.meta.filename);

/** A timer, a sleep, or a poll on a timer: what a test would wait on time with. */
const sleepStyle =
  /\bsetTimeout\s*\(|\bsetInterval\s*\(|timers\/promises|\b(?:sleep|delay|wait)\s*\(\s*\d|\bvi\.(?:waitFor|waitUntil)\s*\(|\bexpect\.poll\s*\(/g;

/**
 * The timers allowed, by file, with how many there are (a new one in the same file fails too) and why each is not
 * a wait on time.
 */
const allowed: Readonly<Record<string, { readonly count: number; readonly why: string }>> = {
  // The native Pact mock server records a match after it answers and offers no way to wait for the record: the
  // loop polls its record until it is there, so it ends when the record is made, whatever the load (the timer
  // only hands the cores to the server's task); pact-core 20.1 records first and the first check passes.
  'test/pact/support/execute-recorded.ts': { count: 2, why: 'polls the native mock server, which has no signal' },
  'test/package/matrix/consumer/runtime.mjs': { count: 1, why: 'the same poll, in the matrix consumer' },
  // Time limits, not waits: a failure's bound while a real process starts.
  'test/support/redis-server.ts': { count: 1, why: "bounds redis-server's start; the wait is on its ready line" },
  // A stand-in that trickles its answer (the proxy's limits on a slow upstream): the timer is the behaviour under
  // test, and the test waits on the proxy's answer.
  'test/proxy/upstream-faults.test.ts': { count: 1, why: 'an upstream that trickles its body' },
  // The suites of the state store's code and of replicas sharing a store (Redis or in memory) wait on real leases
  // and real store round trips; that code is being rewritten, and their waits go with it.
  'test/support/wait-until.ts': { count: 1, why: 'the poll those suites share, rewritten with the store' },
  'test/mock/store/redis-figures.test.ts': { count: 2, why: 'Redis suite, rewritten with the store' },
  'test/mock/store/replica-suite.ts': { count: 1, why: 'replica suite, rewritten with the store' },
  'test/mock/internal/store/redis-store.test.ts': { count: 1, why: 'waits for the client to reconnect by itself' },
};

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules') return [];
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.(?:[cm]?js|[cm]?ts)$/.test(e.name) ? [relative(root, path)] : [];
  });

/** How many matches of `pattern` each file of test/ holds, comments left out. */
function matchesByFile(pattern: RegExp): Record<string, number> {
  const found: Record<string, number> = {};
  for (const file of sources(join(root, 'test')).filter((f) => f !== self)) {
    const code = readFileSync(join(root, file), 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(?:\/\/|\*|\/\*)/.test(line))
      .join('\n');
    const n = code.match(pattern)?.length ?? 0;
    if (n > 0) found[file] = n;
  }
  return found;
}

describe('waits in test/', () => {
  it('sleeps and polls on no timer outside the commented list', () => {
    const found = matchesByFile(sleepStyle);
    const unlisted = Object.entries(found)
      .filter(([file, n]) => n > (allowed[file]?.count ?? 0))
      .map(([file, n]) => `${file}: ${n} (allowed ${allowed[file]?.count ?? 0})`);
    expect(
      unlisted,
      'await the event that ends the work, the mock clock, or test/support/changes.ts instead of a timer',
    ).toEqual([]);
  });

  it('lists no timer that is gone (the list shrinks with the code)', () => {
    const found = matchesByFile(sleepStyle);
    const stale = Object.entries(allowed)
      .filter(([file, { count }]) => (found[file] ?? 0) < count)
      .map(([file, { count }]) => `${file}: ${found[file] ?? 0} (listed ${count})`);
    expect(stale).toEqual([]);
  });

  it('catches the shapes a sleep takes', () => {
    const shapes = [
      'await new Promise((r) => setTimeout(r, 10));',
      "import { setTimeout as sleep } from 'node:timers/promises';",
      'await sleep(5);',
      'await delay(100);',
      'await vi.waitFor(() => expect(x).toBe(1));',
      'await expect.poll(() => x).toBe(1);',
      'const t = setInterval(tick, 5);',
    ];
    for (const shape of shapes) expect(shape.match(sleepStyle), shape).not.toBeNull();
    expect('await changes.until(() => done);'.match(sleepStyle)).toBeNull();
  });
});

// The unit project shares one module graph and one global object per worker (isolate: false). A spy on a global
// function captures whatever is installed when it is made: made while fake timers are on, it keeps the fake, and a
// later file's restoreAllMocks puts that fake back on globalThis, where no timer of the worker's later files fires.
// A test that must replace a global wraps it and puts it back itself, as test/mock/internal/domain/clock.test.ts does.
const globalSpy = /\bvi\.spyOn\(\s*globalThis\b/g;

describe('spies in the shared unit worker', () => {
  it('no test spies on globalThis', () => {
    expect(Object.keys(matchesByFile(globalSpy))).toEqual([]);
  });

  it('catches the shape', () => {
    expect("vi.spyOn(globalThis, 'setTimeout')".match(globalSpy)).not.toBeNull();
    expect("vi.spyOn( globalThis, 'fetch')".match(globalSpy)).not.toBeNull();
    expect("vi.spyOn(console, 'log')".match(globalSpy)).toBeNull();
  });
});
