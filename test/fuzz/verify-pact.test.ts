// Fuzzes `payment-contract-kit verify --static-only` in process (its run(argv, io)) on pact files: the kit's own
// contracts with nodes replaced by hostile values, and hostile files. It must exit 0 or 1 with a report (2 only for
// flags), never throw, never overflow the stack (not even one caught and reported as the file's failure), never leave
// a promise rejected. Unit tier: no child process (the static checks need no Pact Verifier).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import { run } from '../../src/cli/commands/verify.ts';
import { entryTally, expectNoFailures, noteStackOverflow, shortInput } from './support/entry-outcomes.ts';
import { fuzzSettings, fuzzTimeout } from './support/fuzz-settings.ts';
import { pactText } from './support/pact-arbitraries.ts';

const settings = fuzzSettings(process.env, 100);
const tally = entryTally('verify on a pact');
const dir = mkdtempSync(join(tmpdir(), 'pck-fuzz-verify-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sink = () => {
  let text = '';
  return { write: (t: string) => (text += t), text: () => text };
};

describe('verify fuzz', () => {
  it(
    `verifies ${settings.runs} hostile pact files statically without a throw or a stack overflow`,
    async () => {
      const file = join(dir, 'fuzz-pact.json');
      await fc.assert(
        fc.asyncProperty(pactText, fc.constantFrom('text', 'json', 'junit'), async (text, format) => {
          tally.cases++;
          writeFileSync(file, text);
          const stdout = sink();
          const stderr = sink();
          try {
            const code = await run([file, '--static-only', '--format', format], { stdout, stderr });
            tally.status(`exit${code}`);
            if (![0, 1].includes(code)) tally.problem(`exit ${code}: ${stderr.text().slice(0, 200)}`, shortInput(text));
            if (stdout.text() === '') tally.problem(`exit ${code} without a report`, shortInput(text));
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
    fuzzTimeout(settings.runs, 300),
  );
});
