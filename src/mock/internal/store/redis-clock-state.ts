/**
 * The sandbox clock of a Redis store (decision 0040, step 2): `P<e>:clock` holds how far the clock was moved in epoch
 * `e` (`P`epoch), so a reset (a new epoch) starts it at 0 with no write of its own. A move is one `INCRBYFLOAT` under
 * the epoch it reads; a read is one script that returns the epoch and the clock together.
 *
 * @module
 */
import type { ClockStatePort, SandboxReading } from './clock-state.ts';

/**
 * The Lua expression of an epoch's clock offset (ms, a string; '0' before any move), where `epochPrefix` is the Lua
 * expression of the epoch's key prefix (`P<e>:`). Every script that reads the sandbox clock reads it through this, so
 * the key is named once.
 */
export const clockOffsetLua = (epochPrefix: string): string => `(redis.call('GET', ${epochPrefix} .. 'clock') or '0')`;

/**
 * KEYS[1] the epoch key; ARGV[1] the prefix. Returns the epoch and the clock (ms) as strings: Lua numbers come back
 * as integers, and a move may be a fraction of a millisecond.
 */
export const clockReadScript = `
local e = redis.call('GET', KEYS[1]) or '0'
return {e, ${clockOffsetLua("ARGV[1] .. e .. ':'")}}
`;

/** KEYS[1] the epoch key; ARGV[1] the prefix, ARGV[2] the move (ms). Returns as {@link clockReadScript} does. */
export const clockAdvanceScript = `
local e = redis.call('GET', KEYS[1]) or '0'
return {e, redis.call('INCRBYFLOAT', ARGV[1] .. e .. ':clock', ARGV[2])}
`;

/** The scripts as ioredis `defineCommand`s. */
export const clockScripts = {
  pckClockRead: { lua: clockReadScript, numberOfKeys: 1 },
  pckClockAdvance: { lua: clockAdvanceScript, numberOfKeys: 1 },
} as const;

/** The client methods {@link clockScripts} define. */
export interface ClockScriptClient {
  pckClockRead(...args: readonly (string | number)[]): Promise<[string, string]>;
  pckClockAdvance(...args: readonly (string | number)[]): Promise<[string, string]>;
}

/** A script's reply as a reading. */
export const readingOf = ([epoch, clockMs]: readonly [string, string]): SandboxReading => ({
  epoch: Number(epoch),
  clockMs: Number(clockMs),
});

/**
 * The clock under `prefix`, over the store's `run` (which turns a Redis failure into `StoreUnavailableError`).
 *
 * @example
 * const clock = redisClockState((work) => run(work), 'pck:');
 * const { epoch, clockMs } = await clock.read();
 */
export function redisClockState(
  run: <T>(work: (redis: ClockScriptClient) => Promise<T>) => Promise<T>,
  prefix: string,
): ClockStatePort {
  const epochKey = `${prefix}epoch`;
  return {
    read: () => run(async (r) => readingOf(await r.pckClockRead(epochKey, prefix))),
    advance: (ms) => run(async (r) => readingOf(await r.pckClockAdvance(epochKey, prefix, String(ms)))),
  };
}
