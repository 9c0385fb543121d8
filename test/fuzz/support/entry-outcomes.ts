/**
 * What a hostile-input property counts at one entry: cases, answers by status class, crashes (a thrown error or a
 * rejected promise where an answer was due, a stack overflow), unhandled rejections, and the first few problems
 * with the input that caused them. Each entry's test prints one summary line (with the seed) and asserts zeros.
 *
 * @module
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { FuzzSettings } from './fuzz-settings.ts';

/** The tally of one entry. */
export interface EntryTally {
  readonly name: string;
  cases: number;
  readonly statuses: Record<string, number>;
  crashes: number;
  unhandled: number;
  readonly problems: Map<string, string>;
  /** Counts an answer's status (as `2xx`, `4xx`, ... or any label such as `exit 1`). */
  status(label: string): void;
  /** Notes one problem (kept once per kind, with the input that caused it, cut short). */
  problem(kind: string, input: string): void;
  /** Notes a thrown error or rejection where an answer was due. */
  crash(error: unknown, input: string): void;
  /** The summary line. */
  summary(settings: FuzzSettings): string;
}

/** A short text of an input for a report. */
export function shortInput(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/** Status class of an HTTP status: `2xx`, `4xx`, `5xx`. */
export const statusClass = (status: number): string => `${Math.floor(status / 100)}xx`;

/**
 * A tally for `name` that also counts the process's unhandled rejections while its test file runs (vitest reports
 * them too, but after the test; the count puts them in the entry's summary line).
 */
export function entryTally(name: string): EntryTally {
  const progressEvery = Number(process.env.PCK_FUZZ_PROGRESS ?? 0);
  const tally: EntryTally = {
    name,
    cases: 0,
    statuses: {},
    crashes: 0,
    unhandled: 0,
    problems: new Map(),
    status(label) {
      tally.statuses[label] = (tally.statuses[label] ?? 0) + 1;
      // PCK_FUZZ_PROGRESS=<n>: the counts so far every n answers, so a long run cut short still tells (a timer
      // would not fire: an in-process property awaits only microtasks between cases).
      const total = Object.values(tally.statuses).reduce((a, b) => a + b, 0);
      if (progressEvery > 0 && total % progressEvery === 0)
        process.stderr.write(`progress: ${tally.summary({ runs: 0, seed: 0, randomSeed: false })}\n`);
    },
    problem(kind, input) {
      if (!tally.problems.has(kind)) tally.problems.set(kind, shortInput(input, 600));
    },
    crash(error, input) {
      tally.crashes++;
      const e = error as Error;
      tally.problem(`crash: ${e?.name ?? typeof error}: ${String(e?.message ?? error).slice(0, 200)}`, input);
    },
    summary(settings) {
      const statuses = Object.entries(tally.statuses)
        .sort()
        .map(([k, v]) => `${k}=${v}`)
        .join(' ');
      return `${name} fuzz: cases=${tally.cases} ${statuses} crashes=${tally.crashes} unhandled=${tally.unhandled} problems=${tally.problems.size} seed=${settings.seed}${settings.randomSeed ? ' (random)' : ''}`;
    },
  };
  const onRejection = (reason: unknown) => {
    tally.unhandled++;
    tally.problem(`unhandled rejection: ${String((reason as Error)?.stack ?? reason).slice(0, 300)}`, '');
  };
  beforeAll(() => {
    process.on('unhandledRejection', onRejection);
  });
  afterAll(() => {
    process.off('unhandledRejection', onRejection);
  });
  return tally;
}

/** The problems of a tally as one report, for an assertion message. */
export function problemReport(tally: EntryTally): string {
  return [...tally.problems].map(([k, v]) => `  ${k}\n    ${v}`).join('\n');
}

/** Asserts the zeros every entry owes: no problem, no crash, no unhandled rejection, and no 5xx where `answers`. */
export function expectNoFailures(tally: EntryTally, { answers = false } = {}): void {
  expect.soft(tally.problems.size, `problems:\n${problemReport(tally)}`).toBe(0);
  if (answers) expect.soft(tally.statuses['5xx'] ?? 0).toBe(0);
  expect.soft(tally.crashes).toBe(0);
  expect.soft(tally.unhandled).toBe(0);
}

/** The line of `output` where a stack overflow is reported, if any. */
export function stackOverflowLine(output: string): string | undefined {
  // A search for the words, then the line around them: a pattern with `.*` before them retries from every
  // position of a line that has none, quadratic in the line's length, and a report of a hostile file can be one
  // line of hundreds of kilobytes (a case then took minutes and the property never ended).
  const at = output.search(/Maximum call stack|RangeError/);
  if (at === -1) return undefined;
  const end = output.indexOf('\n', at);
  return output.slice(output.lastIndexOf('\n', at) + 1, end === -1 ? output.length : end);
}

/** Counts a stack overflow that a command printed as its result (a walk over input that was not bounded). */
export function noteStackOverflow(tally: EntryTally, output: string, input: string): void {
  const line = stackOverflowLine(output);
  if (line !== undefined)
    tally.problem('a stack overflow reported as a result', `${shortInput(input)}\n    -> ${line.slice(0, 300)}`);
}
