// `webhook send --metadata` nested deeper than the ledger's bounds.maxMetadataDepth is a usage error (exit 2, one
// line), in process through run(argv, io). Without the bound, metadata nested 5,000 levels threw RangeError out of
// the command while the payload was serialized.
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../src/assumptions.ts';
import { run } from '../../../src/cli/commands/webhook-send.ts';

const sink = () => {
  let text = '';
  return { write: (t: string) => (text += t), text: () => text };
};
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('webhook send --metadata depth', () => {
  it.each([defaultAssumptions.bounds.maxMetadataDepth + 1, 5_000, 100_000])(
    '%i levels: exit 2 with one line naming the bound',
    async (depth) => {
      const stdout = sink();
      const stderr = sink();
      // Port 9 is never reached: the flags are refused before anything is sent.
      const code = await run(['--url', 'http://127.0.0.1:9/hook', '--metadata', nested(depth)], { stdout, stderr });
      expect(code).toBe(2);
      expect(stderr.text()).toMatch(/--metadata nests more than 10 levels deep.*bounds\.maxMetadataDepth/);
      expect(stdout.text()).toBe('');
    },
  );
});
