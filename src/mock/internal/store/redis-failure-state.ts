/**
 * The armed failures of a Redis store (decision 0040, step 3): hash `P<e>:fail` of epoch `e` (`P`epoch), field the
 * path, value `<status> <uses left>` followed by ` <message>` when the failure has one of its own. A reset (a new
 * epoch) leaves them behind with the epoch's other keys; the reset script deletes the hash.
 *
 * A take is one script: read the path's failure, count one use down (the last one deletes it), answer it. The token
 * check script runs the same step when it is given a path, so a /graphql request takes its failure in the round trip
 * it already makes.
 *
 * @module
 */
import type { ArmedFailure, FailureStatePort } from './failure-state.ts';

/**
 * The take as a Lua function of the failure hash and the path: answers the failure's value before the use, or ''
 * when none is armed. Shared with the token check script (redis-token-state.ts).
 */
export const failureTakeLua = `
local function takeFailure(k, path)
  local v = redis.call('HGET', k, path)
  if not v then return '' end
  local s, n, rest = string.match(v, '^(%d+) (%d+)(.*)$')
  if not s or tonumber(n) <= 1 then
    redis.call('HDEL', k, path)
  else
    redis.call('HSET', k, path, s .. ' ' .. (tonumber(n) - 1) .. rest)
  end
  return v
end
`;

/** KEYS[1] the epoch key; ARGV: prefix, path, value. */
export const failureArmScript = `
local e = redis.call('GET', KEYS[1]) or '0'
redis.call('HSET', ARGV[1] .. e .. ':fail', ARGV[2], ARGV[3])
return 1
`;

/** KEYS[1] the epoch key; ARGV: prefix, path. Answers the failure's value before the use, or ''. */
export const failureTakeScript = `${failureTakeLua}
local e = redis.call('GET', KEYS[1]) or '0'
return takeFailure(ARGV[1] .. e .. ':fail', ARGV[2])
`;

/** The scripts as ioredis `defineCommand`s. */
export const failureScripts = {
  pckFailureArm: { lua: failureArmScript, numberOfKeys: 1 },
  pckFailureTake: { lua: failureTakeScript, numberOfKeys: 1 },
} as const;

/** The client methods {@link failureScripts} define. */
export interface FailureScriptClient {
  pckFailureArm(...args: readonly (string | number)[]): Promise<number>;
  pckFailureTake(...args: readonly (string | number)[]): Promise<string>;
}

/** A failure as the hash holds it, with `times` uses left. */
export function failureValue(failure: ArmedFailure, times: number): string {
  const head = `${failure.status} ${times}`;
  return failure.message === undefined ? head : `${head} ${failure.message}`;
}

/** A taken value as the failure it answers; undefined for '' (none armed). */
export function failureOf(value: string): ArmedFailure | undefined {
  const match = /^(\d+) \d+(?: ([\s\S]*))?$/.exec(value);
  if (!match) return undefined;
  return { status: Number(match[1]), message: match[2] };
}

/**
 * The failures under `prefix`, over the store's `run` (which turns a Redis failure into `StoreUnavailableError`).
 *
 * @example
 * const failures = redisFailureState((work) => run(work), 'pck:');
 * await failures.arm('/graphql', { status: 503, message: undefined }, 2);
 */
export function redisFailureState(
  run: <T>(work: (redis: FailureScriptClient) => Promise<T>) => Promise<T>,
  prefix: string,
): FailureStatePort {
  const epochKey = `${prefix}epoch`;
  return {
    arm: (path, failure, times) =>
      run(async (r) => {
        await r.pckFailureArm(epochKey, prefix, path, failureValue(failure, times));
      }),
    take: (path) => run(async (r) => failureOf(await r.pckFailureTake(epochKey, prefix, path))),
  };
}
