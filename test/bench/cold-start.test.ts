import { expect, it } from 'vitest';
import { type ColdStartRun, measureColdStarts } from '../../bench/cold-start.ts';

it('logs a server whose cold start fails, gives it up after two failures, and keeps the others’ runs', async () => {
  const lines: string[] = [];
  const tried: string[] = [];
  const start = async (server: string): Promise<ColdStartRun> => {
    tried.push(server);
    if (server === 'prism') throw new Error('prism did not print its address within 30000 ms');
    return { listeningMs: 10, totalMs: 20 };
  };
  const measured = await measureColdStarts({ 'rest-token': 3, prism: 3 }, undefined, (line) => lines.push(line), start);
  expect(measured['rest-token']).toHaveLength(3);
  expect(measured.prism).toBeUndefined();
  expect(tried.filter((s) => s === 'prism')).toHaveLength(2);
  expect(lines.filter((l) => /cold start prism #\d failed: prism did not print/.test(l))).toHaveLength(2);
});
