// Records one interaction with a real Pact mock server in a temp dir and returns what pact-js wrote for it, so unit
// tests of the request builders can check the pact file rather than the builder's internals.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PactV4, type V3MockServer } from '@pact-foundation/pact';
import { type ExecutableInteraction, executeRecorded } from './execute-recorded.ts';
import { freshPactDir } from './pact-files.ts';

export interface RecordedInteraction {
  description: string;
  request: {
    method: string;
    path: string;
    headers?: Record<string, string[]>;
    body?: { content?: Record<string, unknown> };
    generators?: Record<string, Record<string, { expression: string; type: string }>>;
    matchingRules?: Record<string, Record<string, unknown>>;
  };
}

export async function recordInteraction(
  define: (pact: PactV4) => ExecutableInteraction<unknown>,
  exercise: (server: V3MockServer) => Promise<unknown>,
): Promise<RecordedInteraction> {
  const out = await freshPactDir();
  try {
    const pact = new PactV4({ consumer: 'unit-consumer', provider: 'unit-provider', dir: out.dir, logLevel: 'error' });
    // Through executeRecorded: pact-js alone may judge before the mock server has recorded the request.
    await executeRecorded(define(pact), exercise);
    const [file] = await readdir(out.dir);
    const written = JSON.parse(await readFile(join(out.dir, file!), 'utf8'));
    return written.interactions[0];
  } finally {
    await out.remove();
  }
}
