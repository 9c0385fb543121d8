import { expect, it } from 'vitest';
import { type RewarmSlice, rewarm } from '../../bench/rewarm.ts';

/** Slices that answer 1,000 requests each at the given µs of CPU per request. */
function slicesAt(...micros: (number | null)[]) {
  let i = 0;
  const ran: number[] = [];
  const slice = async (): Promise<RewarmSlice> => {
    const us = micros[Math.min(i, micros.length - 1)]!;
    ran.push(i++);
    return { cpuSeconds: us === null ? null : (us * 1_000) / 1e6, requests: 1_000 };
  };
  return { slice, ran };
}

it('stops after the minimum when the server is settled from the start', async () => {
  const { slice, ran } = slicesAt(30, 30.5, 30);
  expect(await rewarm(slice)).toEqual({ slices: 2, settled: true });
  expect(ran).toHaveLength(2);
});

it('runs on while a server just back from idle still costs more per request', async () => {
  const { slice } = slicesAt(55, 41, 35, 33, 33.5);
  expect(await rewarm(slice)).toEqual({ slices: 5, settled: true });
});

it('gives up at the maximum when the cost keeps moving', async () => {
  const { slice, ran } = slicesAt(100, 80, 60, 45, 35, 28, 22, 18);
  expect(await rewarm(slice, { minSlices: 2, maxSlices: 4, tolerance: 0.05 })).toEqual({ slices: 4, settled: false });
  expect(ran).toHaveLength(4);
});

it('runs only the minimum when CPU cannot be read', async () => {
  const { slice, ran } = slicesAt(null);
  expect(await rewarm(slice)).toEqual({ slices: 2, settled: false });
  expect(ran).toHaveLength(2);
});

it('judges the tolerance against the cheaper slice, either way round', async () => {
  expect((await rewarm(slicesAt(40, 38.2).slice)).settled).toBe(true);
  expect((await rewarm(slicesAt(38.2, 40).slice)).settled).toBe(true);
  expect((await rewarm(slicesAt(40, 37.9, 37.9).slice)).slices).toBe(3);
});
