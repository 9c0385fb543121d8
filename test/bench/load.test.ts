import { expect, it } from 'vitest';
import { autocannonOptions, SAMPLE_MS } from '../../bench/load.ts';

it('ends a timed run within a short sample tick of its time, not at autocannon’s 1 s default', () => {
  // Autocannon stops a timed run only at a sample tick and keeps sending until then: with the default 1 s tick a
  // 0.2 s rewarm slice ran 1 s (and a round could run to its second tick).
  const options = autocannonOptions(['http://127.0.0.1:1'], {
    url: 'http://127.0.0.1:1',
    requests: [],
    connections: 8,
    seconds: 0.2,
  });
  expect(options.duration).toBe(0.2);
  expect(options.sampleInt).toBe(SAMPLE_MS);
  expect(SAMPLE_MS).toBeLessThanOrEqual(50);
  expect(options.amount).toBeUndefined();
});

it('runs a fixed number of requests without a duration, and spreads connections over several replicas', () => {
  const urls = ['http://127.0.0.1:1', 'http://127.0.0.1:2'];
  const options = autocannonOptions(urls, { url: urls, requests: [], connections: 4, amount: 300 });
  expect(options.amount).toBe(300);
  expect(options.duration).toBeUndefined();
  expect(options.url).toEqual(urls);
  expect(autocannonOptions([urls[0]!], { url: urls[0]!, requests: [], connections: 1 }).url).toBe(urls[0]);
});
