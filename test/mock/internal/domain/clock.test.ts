import { describe, expect, it, vi } from 'vitest';
import { createClock, maxClockTime } from '../../../support/mock-internals/foundations.ts';

// The real timer function, taken before any test fakes or spies on it.
const realSetTimeout = globalThis.setTimeout;

describe('createClock', () => {
  it('runs due tasks in order when advanced', () => {
    const clock = createClock({ realNow: () => 0 });
    const ran: number[] = [];
    clock.schedule(20, () => ran.push(20));
    clock.schedule(10, () => ran.push(10));
    clock.schedule(10, () => ran.push(11));
    clock.advance(15);
    expect(ran).toEqual([10, 11]);
    clock.advance(5);
    expect(ran).toEqual([10, 11, 20]);
    clock.dispose();
  });

  it('runs a task when real time reaches it, after an advance brought it near (the timer is armed anew)', () => {
    vi.useFakeTimers({ now: 0 });
    try {
      const clock = createClock({ realNow: () => Date.now() });
      const ran: number[] = [];
      clock.schedule(60_000, () => ran.push(clock.now()));
      clock.advance(59_990);
      vi.advanceTimersByTime(9);
      expect(ran).toEqual([]);
      // Before, the real timer armed for 60 s of real time stayed: the task ran 60 s late, after the advance.
      vi.advanceTimersByTime(1);
      expect(ran).toEqual([60_000]);
      clock.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('waits out a delay longer than a real timer can hold (2³¹ ms) with one timer at a time, and runs it on time', () => {
    vi.useFakeTimers({ now: 0 });
    // A wrapper of the fake, not vi.spyOn: a spy stays registered after its restore, and a later restoreAllMocks in
    // this worker (the unit tier does not isolate files) would put the fake setTimeout back for every file after it.
    const fake = globalThis.setTimeout;
    const delays: number[] = [];
    globalThis.setTimeout = ((run: () => void, ms?: number) => {
      delays.push(ms ?? 0);
      return fake(run, ms);
    }) as typeof setTimeout;
    try {
      const clock = createClock({ realNow: () => Date.now() });
      const ran: number[] = [];
      const delay = 2 ** 31 + 60_000;
      clock.schedule(delay, () => ran.push(clock.now()));
      // Node and browsers fire a timer given more than 2³¹ - 1 ms at once (the fake timers here do not): re-armed
      // each time, the clock would spin instead of waiting. No timer may be asked for more.
      vi.advanceTimersByTime(1_000);
      expect(ran).toEqual([]);
      expect(vi.getTimerCount()).toBe(1);
      vi.advanceTimersByTime(delay - 1_001);
      expect(ran).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(ran).toEqual([delay]);
      expect(vi.getTimerCount()).toBe(0);
      expect(delays.filter((ms) => ms > 2 ** 31 - 1)).toEqual([]);
      expect(delays).toHaveLength(2);
      clock.dispose();
    } finally {
      globalThis.setTimeout = fake;
      vi.useRealTimers();
    }
    // What a later file's restoreAllMocks would do finds nothing left to put back.
    vi.restoreAllMocks();
    expect(globalThis.setTimeout).toBe(realSetTimeout);
  });

  it('reports a throwing task to onTaskError and goes on with the others', () => {
    const errors: unknown[] = [];
    const clock = createClock({ realNow: () => 0, onTaskError: (e) => errors.push(e) });
    const ran: string[] = [];
    clock.schedule(1, () => {
      throw new Error('boom');
    });
    clock.schedule(1, () => ran.push('next'));
    expect(() => clock.advance(1)).not.toThrow();
    expect(errors).toEqual([new Error('boom')]);
    expect(ran).toEqual(['next']);
  });

  it('survives a reporter that throws too', () => {
    const clock = createClock({
      realNow: () => 0,
      onTaskError: () => {
        throw new Error('reporter');
      },
    });
    clock.schedule(1, () => {
      throw new Error('task');
    });
    expect(() => clock.advance(1)).not.toThrow();
  });

  it.each([
    ['negative', -1, /finite, non-negative/],
    ['NaN', Number.NaN, /finite, non-negative/],
    ['infinite', Number.POSITIVE_INFINITY, /finite, non-negative/],
    ['past the last valid date', maxClockTime, /latest date JavaScript can hold/],
  ])('refuses to advance by a %s amount, leaving the time as it was', (_name, ms, message) => {
    const clock = createClock({ realNow: () => 1_700_000_000_000 });
    expect(() => clock.advance(ms)).toThrow(message);
    expect(clock.now()).toBe(1_700_000_000_000);
  });

  it('advances up to the last valid date exactly', () => {
    const clock = createClock({ realNow: () => 0 });
    expect(clock.advance(maxClockTime)).toBe(maxClockTime);
    expect(new Date(clock.now()).toISOString()).toBe('+275760-09-13T00:00:00.000Z');
  });
});
