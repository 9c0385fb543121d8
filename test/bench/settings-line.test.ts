import { expect, it } from 'vitest';
import { type RunSettings, settingsLine } from '../../bench/settings-line.ts';

const rule = { minSlices: 2, maxSlices: 6, tolerance: 0.05 };
const rewarms = [
  { slices: 2, settled: true },
  { slices: 3, settled: true },
  { slices: 6, settled: false },
];
const base: RunSettings = {
  ran: 12,
  asked: 12,
  seconds: 1,
  rewarms,
  sliceSeconds: 0.2,
  rule,
  warmupSeconds: 2,
  connections: 8,
  quick: false,
};

it('says how many rounds ran of those asked for, and how the rewarm went', () => {
  expect(settingsLine({ ...base, ran: 7 })).toBe(
    '7 of 12 × 1 s rounds (each after 2–6 unmeasured 0.2 s slices until CPU per request settles within 5%: median 3, 1 of 3 unsettled) after 2 s warm-up, 8 connections',
  );
  expect(settingsLine(base)).toMatch(/^12 × 1 s rounds \(/);
});

it('names a fixed rewarm and a quick run', () => {
  expect(
    settingsLine({
      ...base,
      ran: 3,
      asked: 3,
      seconds: 0.5,
      sliceSeconds: 0.1,
      rule: { ...rule, minSlices: 1, maxSlices: 1 },
      warmupSeconds: 1,
      connections: 4,
      quick: true,
    }),
  ).toBe('3 × 0.5 s rounds (each after 1 unmeasured 0.1 s slice) after 1 s warm-up, 4 connections, --quick');
});

it('leaves the rewarm tally out before any round ran', () => {
  expect(settingsLine({ ...base, ran: 0, rewarms: [] })).toBe(
    '0 of 12 × 1 s rounds (each after 2–6 unmeasured 0.2 s slices until CPU per request settles within 5%) after 2 s warm-up, 8 connections',
  );
});
