import { expect, it } from 'vitest';
import { type ColdStartRun, ColdStarts } from '../../bench/cold-start.ts';

it('logs a server whose cold start fails, gives it up after two failures, and keeps the others’ runs', async () => {
  const lines: string[] = [];
  const tried: string[] = [];
  const start = async (server: string): Promise<ColdStartRun> => {
    tried.push(server);
    if (server === 'prism') throw new Error('prism did not print its address within 30000 ms');
    return { listeningMs: 10, totalMs: 20 };
  };
  const cold = new ColdStarts({ 'rest-token': 3, prism: 3 }, undefined, (line) => lines.push(line), start);
  for (let i = 0; i < cold.passes; i++) await cold.pass(i);
  const measured = cold.result();
  expect(measured['rest-token']).toHaveLength(3);
  expect(measured.prism).toBeUndefined();
  expect(tried.filter((s) => s === 'prism')).toHaveLength(2);
  expect(lines.filter((l) => /cold start prism #\d failed: prism did not print/.test(l))).toHaveLength(2);
});

it('takes one run of every server per pass, in a balanced order, and stops at each server’s own count', async () => {
  const tried: string[] = [];
  const start = async (server: string): Promise<ColdStartRun> => {
    tried.push(server);
    return { listeningMs: 10, totalMs: 20 };
  };
  const cold = new ColdStarts({ mock: 4, 'rest-token': 4, prism: 2 }, undefined, () => {}, start);
  expect(cold.passes).toBe(4);
  const passes: string[][] = [];
  for (let i = 0; i < cold.passes; i++) {
    const before = tried.length;
    await cold.pass(i);
    passes.push(tried.slice(before));
  }
  expect(passes.map((p) => p.length)).toEqual([3, 3, 2, 2]);
  // No server always goes first: the order changes pass by pass.
  expect(new Set(passes.map((p) => p[0])).size).toBeGreaterThan(1);
  expect(cold.result().mock).toHaveLength(4);
  expect(cold.result().prism).toHaveLength(2);
});
