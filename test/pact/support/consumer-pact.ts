// One consumer test file's Pact: a PactV4 writing to a fresh temp dir for the file's lifetime, and the drift check
// of what it wrote against contracts/. The check is a function, not a registered test, so each file declares it
// last and it runs after every interaction has been written.
import { PactV4 } from '@pact-foundation/pact';
import { afterAll, beforeAll, beforeEach, expect, onTestFailed } from 'vitest';
import { providerName } from '../../../src/pact/names.ts';
import { type ConsumerKey, consumers, freshPactDir, syncOrCompare } from './pact-files.ts';

/** The Pact of one consumer test file; `pact()` is valid inside tests (it is created in `beforeAll`). */
export interface ConsumerPact {
  /** The consumer name in the pact file. */
  name: string;
  pact(): PactV4;
  /** Fails unless the pact this file wrote equals the committed one (or copies it there under `pact:update`). */
  expectCommittedPact(): Promise<void>;
}

/**
 * Registers `beforeAll`/`afterAll` for a consumer's PactV4 in a fresh temp dir; call once at a test file's top.
 *
 * @example
 * const contract = consumerPact('legacy');
 * it('…', () => testGraphqlInteraction(contract.pact(), { … }));
 * describe('contracts/', () => it('holds the pact', () => contract.expectCommittedPact()));
 */
export function consumerPact(consumer: ConsumerKey): ConsumerPact {
  const name = consumers[consumer];
  let out: Awaited<ReturnType<typeof freshPactDir>> | undefined;
  let pact: PactV4 | undefined;
  beforeAll(async () => {
    out = await freshPactDir();
    pact = new PactV4({ consumer: name, provider: providerName, dir: out.dir, logLevel: 'warn' });
  });
  afterAll(() => out?.remove());
  // Counted so that pact:update never copies the pact of a run in which an interaction failed (it would be partial).
  let failedTests = 0;
  beforeEach(() => {
    onTestFailed(() => {
      failedTests++;
    });
  });
  const started = () => {
    if (!out || !pact) throw new Error('[payment-contract-kit] consumerPact(): use pact() inside a test, not at load.');
    return { out, pact };
  };
  return {
    name,
    pact: () => started().pact,
    async expectCommittedPact() {
      const result = await syncOrCompare(started().out.dir, name, failedTests);
      if (result.state === 'drifted') expect(result.produced, result.message).toEqual(result.committed);
      expect(result.state === 'missing' || result.state === 'refused' ? result.message : 'ok').toBe('ok');
    },
  };
}
