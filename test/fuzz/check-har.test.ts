// Fuzzes `payment-contract-kit check` in process (its run(argv, io)) on HAR files with hostile entries and hostile
// files: it must exit 0, 1 or 2 with a report or one line, never throw, never overflow the stack, never leave a
// promise rejected. Each case is written to a temp file, checked in every report format. Unit tier: no child process.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import { run } from '../../src/cli/commands/check.ts';
import { entryTally, expectNoFailures, noteStackOverflow, shortInput } from './support/entry-outcomes.ts';
import { fuzzSettings, fuzzTimeout } from './support/fuzz-settings.ts';
import { harText } from './support/har-arbitraries.ts';

const settings = fuzzSettings(process.env, 200);
const tally = entryTally('check on HAR');
const dir = mkdtempSync(join(tmpdir(), 'pck-fuzz-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sink = () => {
  let text = '';
  return { write: (t: string) => (text += t), text: () => text };
};

describe('check fuzz', () => {
  it(
    `checks ${settings.runs} hostile HAR files without a throw or an exit code other than 0, 1 and 2`,
    async () => {
      const file = join(dir, 'fuzz.har');
      await fc.assert(
        fc.asyncProperty(harText, fc.constantFrom('text', 'json', 'junit'), async (text, format) => {
          tally.cases++;
          writeFileSync(file, text);
          const stdout = sink();
          const stderr = sink();
          try {
            const code = await run([file, '--format', format], { stdout, stderr });
            tally.status(`exit${code}`);
            if (![0, 1, 2].includes(code)) tally.problem(`exit ${code}`, shortInput(text));
            if (code === 2 && stderr.text() === '') tally.problem('exit 2 without a message', shortInput(text));
            if (code !== 2 && stdout.text() === '') tally.problem(`exit ${code} without a report`, shortInput(text));
            noteStackOverflow(tally, stdout.text() + stderr.text(), text);
          } catch (error) {
            tally.crash(error, shortInput(text));
          }
        }),
        { seed: settings.seed, numRuns: settings.runs, endOnFailure: true },
      );
      console.info(tally.summary(settings));
      expectNoFailures(tally);
    },
    fuzzTimeout(settings.runs, 100),
  );
});
