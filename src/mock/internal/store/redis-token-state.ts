/**
 * The token state of a Redis store (decision 0040): one Lua script per change or read, so each is one round trip
 * and none interleaves with another replica's. Keys, under the store's prefix `P` and the token epoch `e` (`P`epoch;
 * a reset moves it on):
 * - `P<e>:tk:gen` hash client → revoke-all generation; `P<e>:tk:once` hash client → generate-once mark;
 * - `P<e>:tk:rt:<client>` hash refresh number → generation of the unused refresh tokens, `P<e>:tk:rto:<client>` zset
 *   of them in issue order (`P<e>:tk:seq`), for the per-client cap; `P<e>:tk:clients` set of clients that have some;
 * - `P<e>:tk:rv` hash `<client>/<jti>@<exp>` → exp of single revocations (on the sandbox clock, so pruned by the script,
 *   not expired by Redis's real-time TTL); `P<e>:tk:ok` hash `<client>/<jti>@<exp>` → the generation a pair signed before
 *   a revoke-all it did not know of counts as;
 * - `P`tk:high hash client → the highest generation ever handed out: outside the epoch, since a reset keeps it.
 *
 * The check also takes a use of the failure armed for the request's path (`P<e>:fail`, redis-failure-state.ts).
 *
 * @module
 */
import { clockOffsetLua, readingOf } from './redis-clock-state.ts';
import { deliveryResetLua } from './redis-delivery-scripts.ts';
import { failureOf, failureTakeLua } from './redis-failure-state.ts';
import { journalResetLua } from './redis-journal-state.ts';
import { paymentResetLua } from './redis-payment-scripts.ts';
import type { TokenStatePort } from './token-state.ts';

/**
 * How every token script starts: the epoch from `KEYS[1]` (`KEYS[2]` is the highest generations), the epoch's key
 * prefix, and the two steps several scripts share (keep an unused refresh token within the cap; a client's generation).
 */
const prelude = `
local e = redis.call('GET', KEYS[1]) or '0'
local p = ARGV[1] .. e .. ':tk:'
local function keep(c, n, g, max)
  local rt, rto = p .. 'rt:' .. c, p .. 'rto:' .. c
  redis.call('SADD', p .. 'clients', c)
  local over = redis.call('ZCARD', rto) - max + 1
  if over > 0 then
    local old = redis.call('ZRANGE', rto, 0, over - 1)
    redis.call('ZREMRANGEBYRANK', rto, 0, over - 1)
    redis.call('HDEL', rt, unpack(old))
  end
  redis.call('HSET', rt, n, g)
  redis.call('ZADD', rto, redis.call('INCR', p .. 'seq'), n)
end
local function generation(c) return tonumber(redis.call('HGET', p .. 'gen', c) or '0') end
`;

/** ARGV: prefix, client, n, max, via (control, generate, generate-once), signed generation ('' when none), token key. */
export const tokenIssueScript = `${prelude}
local c = ARGV[2]
if ARGV[5] ~= 'control' then
  if redis.call('HSETNX', p .. 'once', c, '1') == 0 and ARGV[5] == 'generate-once' then return -1 end
end
local gen = generation(c)
if ARGV[6] ~= '' and tonumber(ARGV[6]) < gen then redis.call('HSET', p .. 'ok', ARGV[7], gen) end
keep(c, ARGV[3], gen, tonumber(ARGV[4]))
return gen
`;

/** ARGV: prefix, client, spent n, next n, max. */
export const tokenRefreshScript = `${prelude}
local c = ARGV[2]
local rt = p .. 'rt:' .. c
local g = redis.call('HGET', rt, ARGV[3])
if not g then return -1 end
redis.call('HDEL', rt, ARGV[3])
redis.call('ZREM', p .. 'rto:' .. c, ARGV[3])
local gen = generation(c)
if tonumber(g) < gen then return -2 end
keep(c, ARGV[4], gen, tonumber(ARGV[5]))
return gen
`;

/** ARGV: prefix, client. Returns the new generation and the unused refresh tokens it dropped. */
export const tokenRevokeAllScript = `${prelude}
local c = ARGV[2]
local gen = math.max(generation(c), tonumber(redis.call('HGET', KEYS[2], c) or '0')) + 1
redis.call('HSET', p .. 'gen', c, gen)
redis.call('HSET', KEYS[2], c, gen)
local unused = redis.call('HLEN', p .. 'rt:' .. c)
redis.call('DEL', p .. 'rt:' .. c, p .. 'rto:' .. c)
return {gen, unused}
`;

/** ARGV: prefix, token key, exp, now (seconds). Pruned of expired revocations past 10,000, as the memory map is. */
export const tokenRevokeOneScript = `${prelude}
local rv = p .. 'rv'
if redis.call('HLEN', rv) >= 10000 then
  local all = redis.call('HGETALL', rv)
  for i = 1, #all, 2 do
    if tonumber(all[i + 1]) <= tonumber(ARGV[4]) then redis.call('HDEL', rv, all[i]) end
  end
end
redis.call('HSET', rv, ARGV[2], ARGV[3])
return 1
`;

/**
 * ARGV: prefix, client, token key, and the request's path when a failure may be armed for it. Returns the generation,
 * the revocation's exp (-1) and the issued-as (-1), then the sandbox's epoch and clock (redis-clock-state.ts;
 * strings), then the failure taken for the path ('' for none; redis-failure-state.ts), so the request's one round
 * trip reads them all.
 */
export const tokenCheckScript = `${prelude}${failureTakeLua}
local failure = ''
if ARGV[4] then failure = takeFailure(ARGV[1] .. e .. ':fail', ARGV[4]) end
return {generation(ARGV[2]), tonumber(redis.call('HGET', p .. 'rv', ARGV[3]) or '-1'),
  tonumber(redis.call('HGET', p .. 'ok', ARGV[3]) or '-1'), e, ${clockOffsetLua("ARGV[1] .. e .. ':'")},
  failure}
`;

/**
 * ARGV: prefix. The sandbox's reset: deletes the epoch's token keys (bounded: per client), its clock, its armed
 * failures, its payment keys (redis-payment-scripts.ts), its delivery keys (redis-delivery-scripts.ts) and its
 * journal (redis-journal-state.ts), and moves the epoch on (every part's state is under it); returns the new epoch.
 */
export const tokenResetScript = `${prelude}${paymentResetLua}${deliveryResetLua}${journalResetLua}
resetPayments(ARGV[1], e)
resetDeliveries(ARGV[1], e)
resetJournal(ARGV[1], e)
for _, c in ipairs(redis.call('SMEMBERS', p .. 'clients')) do redis.call('DEL', p .. 'rt:' .. c, p .. 'rto:' .. c) end
redis.call('DEL', p .. 'gen', p .. 'once', p .. 'rv', p .. 'ok', p .. 'clients', p .. 'seq', ARGV[1] .. e .. ':clock',
  ARGV[1] .. e .. ':fail')
return redis.call('INCR', KEYS[1])
`;

/** The scripts as ioredis `defineCommand`s (each declares the epoch key and the highest-generation hash). */
export const tokenScripts = {
  pckTokenIssue: { lua: tokenIssueScript, numberOfKeys: 2 },
  pckTokenRefresh: { lua: tokenRefreshScript, numberOfKeys: 2 },
  pckTokenRevokeAll: { lua: tokenRevokeAllScript, numberOfKeys: 2 },
  pckTokenRevokeOne: { lua: tokenRevokeOneScript, numberOfKeys: 2 },
  pckTokenCheck: { lua: tokenCheckScript, numberOfKeys: 2 },
  pckTokenReset: { lua: tokenResetScript, numberOfKeys: 2 },
} as const;

type Args = readonly (string | number)[];

/** The client methods {@link tokenScripts} define. */
export interface TokenScriptClient {
  pckTokenIssue(...args: Args): Promise<number>;
  pckTokenRefresh(...args: Args): Promise<number>;
  pckTokenRevokeAll(...args: Args): Promise<[number, number]>;
  pckTokenRevokeOne(...args: Args): Promise<number>;
  pckTokenCheck(...args: Args): Promise<[number, number, number, string, string, string]>;
  pckTokenReset(...args: Args): Promise<number>;
}

/**
 * The token state under `prefix`, over the store's `run` (which turns a Redis failure into `StoreUnavailableError`).
 *
 * @example
 * const tokens = redisTokenState((work) => run(work), 'pck:');
 * const { generation } = await tokens.check('test-client', 'test-client/<jti>');
 */
export function redisTokenState(
  run: <T>(work: (redis: TokenScriptClient) => Promise<T>) => Promise<T>,
  prefix: string,
): TokenStatePort {
  const keys = [`${prefix}epoch`, `${prefix}tk:high`] as const;
  return {
    issue: (clientId, n, how) =>
      run((r) =>
        r.pckTokenIssue(
          ...keys,
          ...[prefix, clientId, n, how.maxRefresh, how.via, how.signedGeneration ?? '', how.tokenKey],
        ),
      ),
    refresh: (clientId, spent, next, maxRefresh) =>
      run((r) => r.pckTokenRefresh(...keys, prefix, clientId, spent, next, maxRefresh)),
    revokeAll: (clientId) =>
      run(async (r) => {
        const [generation, unused] = await r.pckTokenRevokeAll(...keys, prefix, clientId);
        return { generation, unused };
      }),
    revokeOne: (tokenKey, exp, nowSec) =>
      run(async (r) => {
        await r.pckTokenRevokeOne(...keys, prefix, tokenKey, exp, nowSec);
      }),
    check: (clientId, tokenKey, failPath) =>
      run(async (r) => {
        const args = [prefix, clientId, tokenKey, ...(failPath === undefined ? [] : [failPath])];
        const [generation, revokedExp, issuedAs, epoch, clockMs, failure] = await r.pckTokenCheck(...keys, ...args);
        return { generation, revokedExp, issuedAs, sandbox: readingOf([epoch, clockMs]), failure: failureOf(failure) };
      }),
    reset: () => run((r) => r.pckTokenReset(...keys, prefix)),
  };
}
