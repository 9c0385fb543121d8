import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import { retryAfterMs, retryDelayMs } from '../../../support/mock-internals/webhooks.ts';

const policy = defaultAssumptions.webhook.retry;

describe('retryDelayMs', () => {
  it.each([
    ['middle of the jitter range is the base delay', { retry: 1, random: 0.5, want: 5_000 }],
    ['lowest jitter takes 20 % off', { retry: 1, random: 0, want: 4_000 }],
    ['highest jitter adds up to 20 %', { retry: 1, random: 0.999_999, want: 6_000 }],
    ['grows by the multiplier', { retry: 3, random: 0.5, want: 80_000 }],
    ['never exceeds maxDelayMs, jitter included', { retry: 7, random: 0.999_999, want: policy.maxDelayMs }],
  ])('%s', (_name, { retry, random, want }) => {
    expect(retryDelayMs(policy, retry, () => random)).toBe(want);
  });
});

describe('the default retry schedule', () => {
  it('waits 5 s, then four times longer per retry, over 8 attempts', () => {
    const delays = Array.from({ length: policy.maxAttempts - 1 }, (_, i) => retryDelayMs(policy, i + 1, () => 0.5));
    expect(delays).toEqual([5_000, 20_000, 80_000, 320_000, 1_280_000, 5_120_000, 20_480_000]);
    expect(delays.reduce((sum, d) => sum + d, 0)).toBe(27_305_000);
    expect(retryDelayMs(policy, policy.maxAttempts - 1, () => 1)).toBe(policy.maxDelayMs);
  });
});

describe('retryAfterMs', () => {
  const now = () => Date.parse('2026-01-01T00:00:00Z');
  it.each([
    ['absent', { value: undefined, date: undefined, want: undefined }],
    ['seconds', { value: '120', date: undefined, want: 120_000 }],
    ['seconds with spaces', { value: ' 7 ', date: undefined, want: 7_000 }],
    ['HTTP date against our clock', { value: 'Thu, 01 Jan 2026 00:01:00 GMT', date: undefined, want: 60_000 }],
    [
      "HTTP date against the receiver's Date header",
      { value: 'Thu, 01 Jan 2026 00:01:00 GMT', date: 'Thu, 01 Jan 2026 00:00:30 GMT', want: 30_000 },
    ],
    ['a date in the past means now', { value: 'Wed, 31 Dec 2025 00:00:00 GMT', date: undefined, want: 0 }],
    ['garbage is ignored', { value: 'soon', date: undefined, want: undefined }],
    ['negative numbers are not seconds', { value: '-5', date: undefined, want: undefined }],
  ])('%s', (_name, { value, date, want }) => {
    expect(retryAfterMs(value, date, now)).toBe(want);
  });
});
