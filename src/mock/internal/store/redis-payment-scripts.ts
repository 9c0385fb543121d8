/**
 * The Lua scripts of the payment state on a Redis store (decision 0040, steps 4 and 5); redis-payment-state.ts runs
 * them. Every script reads the epoch (`KEYS[1]`, `P`epoch) first and works under `P<e>:`:
 * - `card:<client>` hash uid → card account JSON (the masked number only, as `CardAccount` holds it) and
 *   `cards:<client>` zset uid → creation number, for the per-client cap (oldest first);
 * - `pay` hash uuid → the payment's JSON as accepted, less its settlement; `pay:st` hash uuid → `<outcome> <at>
 *   <status>` (`- -` while processing), the part a settlement changes; `pay:c` hash uuid → client; `pay:claim` hash
 *   uuid → the claim token that holds it;
 * - `history` zset uuid → sequence number (all clients: the pages of every client), `pays:<client>` zset the same
 *   per client (its pages and its oldest payment), `settled:<client>` zset uuid → settlement number (evicted first);
 * - `due` zset uuid → due virtual time (ms), `settling` zset uuid → the claim's real-time deadline (ms);
 * - `pays` hash of counters: `kept`, `processing`, `evicted`, and the numbers `seq`, `cards`, `settled` hand out;
 * - `pay:clients` set of the clients with keys above, so the reset names every per-client key.
 *
 * One hash per epoch holds every payment rather than a key per payment: the reset (in the token reset script)
 * unlinks a number of keys bounded by the clients, however many payments there were, and Redis frees large values
 * in the background. `P`pay:version, outside the epoch, counts every change and every reset: a new epoch's counters
 * start at 0 and could repeat a version a poller saw before the reset.
 *
 * @module
 */
import { enqueueDeliveryLua } from './redis-delivery-scripts.ts';
import { claimDueLua } from './redis-due-claims.ts';

/** The start of every payment script: the epoch's key prefix `p` and the steps several scripts share. */
const prelude = `
local e = redis.call('GET', KEYS[1]) or '0'
local p = ARGV[1] .. e .. ':'
local function count(field, by) return redis.call('HINCRBY', p .. 'pays', field, by) end
local function changed() redis.call('INCR', ARGV[1] .. 'pay:version') end
local function processing(st) return string.sub(st, 1, 2) == '- ' end
local function writeCard(c, uid, json, cap)
  local h, z = p .. 'card:' .. c, p .. 'cards:' .. c
  if redis.call('HEXISTS', h, uid) == 1 then return 0 end
  redis.call('SADD', p .. 'pay:clients', c)
  while redis.call('ZCARD', z) >= cap do
    local oldest = redis.call('ZRANGE', z, 0, 0)[1]
    if not oldest then break end
    redis.call('ZREM', z, oldest)
    redis.call('HDEL', h, oldest)
  end
  redis.call('HSET', h, uid, json)
  redis.call('ZADD', z, count('cards', 1), uid)
  return 1
end
`;

/** The eviction of one payment `u` of client `c`, from every key that names it. */
const dropLua = `
local function drop(c, u)
  local st = redis.call('HGET', p .. 'pay:st', u) or ''
  for _, h in ipairs({'pay', 'pay:st', 'pay:c', 'pay:claim'}) do redis.call('HDEL', p .. h, u) end
  for _, z in ipairs({'pays:' .. c, 'settled:' .. c, 'history', 'due', 'settling'}) do redis.call('ZREM', p .. z, u) end
  count('kept', -1)
  if processing(st) then count('processing', -1) end
  count('evicted', 1)
  changed()
end
`;

/** ARGV: prefix, client, uid, card account JSON, card cap. Answers 1 when written now, 0 when known. */
export const registerCardScript = `${prelude}
return writeCard(ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5]))
`;

/**
 * ARGV: prefix, uuid, client, payment JSON, `<outcome> <at> <status>` (redis-payment-state.ts), uid, card account
 * JSON, due virtual time ('' for none), payment cap, card cap, '1' when the payment named its card account by uid.
 * Answers the sequence number, whether the card account was written, and how many payments the cap evicted. A uuid
 * kept already (a retried call) answers its number and changes nothing; a named account no longer kept answers
 * sequence 0 and changes nothing.
 */
export const acceptScript = `${prelude}${dropLua}
local u, c = ARGV[2], ARGV[3]
local known = redis.call('ZSCORE', p .. 'history', u)
if known then return {tonumber(known), 0, 0} end
if ARGV[11] == '1' and redis.call('HEXISTS', p .. 'card:' .. c, ARGV[6]) == 0 then return {0, 0, 0} end
local created = writeCard(c, ARGV[6], ARGV[7], tonumber(ARGV[10]))
local z = p .. 'pays:' .. c
local evicted = 0
while redis.call('ZCARD', z) >= tonumber(ARGV[9]) do
  local victim = redis.call('ZRANGE', p .. 'settled:' .. c, 0, 0)[1] or redis.call('ZRANGE', z, 0, 0)[1]
  if not victim then break end
  drop(c, victim)
  evicted = evicted + 1
end
local seq = count('seq', 1)
redis.call('SADD', p .. 'pay:clients', c)
redis.call('HSET', p .. 'pay', u, ARGV[4])
redis.call('HSET', p .. 'pay:st', u, ARGV[5])
redis.call('HSET', p .. 'pay:c', u, c)
redis.call('ZADD', z, seq, u)
redis.call('ZADD', p .. 'history', seq, u)
if ARGV[8] ~= '' then redis.call('ZADD', p .. 'due', ARGV[8], u) end
count('kept', 1)
if processing(ARGV[5]) then count('processing', 1) end
changed()
return {seq, created, evicted}
`;

/** ARGV: prefix, client, uid. Answers the card account's JSON, or nil. */
export const cardScript = `${prelude}
return redis.call('HGET', p .. 'card:' .. ARGV[2], ARGV[3])
`;

/** ARGV: prefix, uuid, `=<client>` or '' for any. Answers the JSON, the settlement part and the sequence, or nil. */
export const paymentScript = `${prelude}
local u = ARGV[2]
local seq = redis.call('ZSCORE', p .. 'history', u)
if not seq then return false end
if ARGV[3] ~= '' and '=' .. redis.call('HGET', p .. 'pay:c', u) ~= ARGV[3] then return false end
return {redis.call('HGET', p .. 'pay', u), redis.call('HGET', p .. 'pay:st', u), seq}
`;

/**
 * ARGV: prefix, limit, cursor kind ('before', 'after' or ''), cursor, then the filters client, status and uuid, each
 * `=<value>` or '' when not given. Answers the next cursor ('' for none) and then, per payment, its JSON, settlement
 * part and sequence number. Walks the newest first (after a cursor `after`, the oldest first) from the client's index
 * or the whole history, in batches, as history/page.ts walks its lists: the payments it returns plus those the
 * status filter skips, and one more match that says a next page exists.
 */
export const pageScript = `${prelude}
local limit, kind, cursor = tonumber(ARGV[2]), ARGV[3], ARGV[4]
local function given(v) if v == '' then return nil end return string.sub(v, 2) end
local client, status, uuid = given(ARGV[5]), given(ARGV[6]), given(ARGV[7])
local out = {''}
local function matches(st) return not status or string.match(st, '^%S+ %S+ (.*)$') == status end
local function push(u, st, seq)
  out[#out + 1] = redis.call('HGET', p .. 'pay', u)
  out[#out + 1] = st
  out[#out + 1] = seq
end
if uuid then
  local seq = redis.call('ZSCORE', p .. 'history', uuid)
  if not seq or (client and redis.call('HGET', p .. 'pay:c', uuid) ~= client) then return out end
  local s = tonumber(seq)
  if (kind == 'after' and s <= tonumber(cursor)) or (kind == 'before' and s >= tonumber(cursor)) then return out end
  local st = redis.call('HGET', p .. 'pay:st', uuid)
  if matches(st) then push(uuid, st, seq) end
  return out
end
local key = client and (p .. 'pays:' .. client) or (p .. 'history')
local asc = kind == 'after'
local bound = kind == '' and '+inf' or ('(' .. cursor)
local n = status and 200 or (limit + 1)
local found, last = 0, nil
while true do
  local batch
  if asc then batch = redis.call('ZRANGEBYSCORE', key, bound, '+inf', 'WITHSCORES', 'LIMIT', 0, n)
  else batch = redis.call('ZREVRANGEBYSCORE', key, bound, '-inf', 'WITHSCORES', 'LIMIT', 0, n) end
  for i = 1, #batch, 2 do
    local u, seq = batch[i], batch[i + 1]
    bound = '(' .. seq
    local st = redis.call('HGET', p .. 'pay:st', u)
    if matches(st) then
      if found == limit then
        out[1] = last
        return out
      end
      push(u, st, seq)
      found, last = found + 1, seq
    end
  end
  if #batch < 2 * n then return out end
end
`;

/** ARGV: prefix. Answers kept, processing, evicted (this epoch) and the version. */
export const countsScript = `${prelude}
local c = redis.call('HMGET', p .. 'pays', 'kept', 'processing', 'evicted')
return {tonumber(c[1] or '0'), tonumber(c[2] or '0'), tonumber(c[3] or '0'),
  tonumber(redis.call('GET', ARGV[1] .. 'pay:version') or '0')}
`;

/**
 * ARGV: prefix, max, visibility (ms), the caller's real now (ms), the new claim token. Virtual now is real now plus
 * the epoch's clock (redis-clock-state.ts). Answers the earliest due time left ('' for none), then the uuids claimed:
 * those of lapsed claims first, then the due ones, earliest first.
 */
export const claimDueScript = `${prelude}${claimDueLua}
local taken, nextDue = claimDue(p .. 'settling', p .. 'due', tonumber(ARGV[2]), tonumber(ARGV[4]), tonumber(ARGV[3]))
for _, u in ipairs(taken) do redis.call('HSET', p .. 'pay:claim', u, ARGV[5]) end
table.insert(taken, 1, nextDue)
return taken
`;

/**
 * ARGV: prefix, uuid, `<outcome> <at> <status>` of the settlement, claim token ('' for none: the control API), the
 * deliveries' finished and pending caps, then the settlement's webhook deliveries, eight arguments each as the
 * delivery enqueue step takes them (redis-delivery-scripts.ts). Only a settlement made now enqueues them, in the same
 * step, so a settled payment never lacks its deliveries whatever replica dies when. Answers the payment's JSON and
 * settlement part as they stand after the call (a refused or repeated settle changes nothing), or nil for a uuid not
 * kept.
 */
export const settleScript = `${prelude}${enqueueDeliveryLua}
local u = ARGV[2]
local json = redis.call('HGET', p .. 'pay', u)
if not json then return false end
local st = redis.call('HGET', p .. 'pay:st', u)
if not processing(st) then return {json, st} end
if ARGV[4] ~= '' then
  local held = redis.call('ZSCORE', p .. 'settling', u) and redis.call('HGET', p .. 'pay:claim', u) == ARGV[4]
  if not held then return {json, st} end
end
redis.call('HSET', p .. 'pay:st', u, ARGV[3])
redis.call('HDEL', p .. 'pay:claim', u)
redis.call('ZREM', p .. 'due', u)
redis.call('ZREM', p .. 'settling', u)
redis.call('ZADD', p .. 'settled:' .. redis.call('HGET', p .. 'pay:c', u), count('settled', 1), u)
count('processing', -1)
changed()
local finished, pendingCap = tonumber(ARGV[5]), tonumber(ARGV[6])
for i = 7, #ARGV - 7, 8 do
  enqueueDelivery(ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], ARGV[i + 5], ARGV[i + 6],
    ARGV[i + 7], finished, pendingCap)
end
return {json, ARGV[3]}
`;

/**
 * The payment part of the sandbox's reset, as a Lua function of the prefix and the epoch being left: unlinks every
 * payment key of that epoch (a bounded number: a few per client) and moves the version on. Run by the token reset
 * script (redis-token-state.ts), which starts the next epoch.
 */
export const paymentResetLua = `
local function resetPayments(prefix, epoch)
  local q = prefix .. epoch .. ':'
  for _, c in ipairs(redis.call('SMEMBERS', q .. 'pay:clients')) do
    redis.call('UNLINK', q .. 'card:' .. c, q .. 'cards:' .. c, q .. 'pays:' .. c, q .. 'settled:' .. c)
  end
  redis.call('UNLINK', q .. 'pay', q .. 'pay:st', q .. 'pay:c', q .. 'pay:claim', q .. 'history', q .. 'due',
    q .. 'settling', q .. 'pays', q .. 'pay:clients')
  redis.call('INCR', prefix .. 'pay:version')
end
`;

/** The scripts as ioredis `defineCommand`s (each declares the epoch key). */
export const paymentScripts = {
  pckPayRegisterCard: { lua: registerCardScript, numberOfKeys: 1 },
  pckPayAccept: { lua: acceptScript, numberOfKeys: 1 },
  pckPayCard: { lua: cardScript, numberOfKeys: 1 },
  pckPayRead: { lua: paymentScript, numberOfKeys: 1 },
  pckPayPage: { lua: pageScript, numberOfKeys: 1 },
  pckPayCounts: { lua: countsScript, numberOfKeys: 1 },
  pckPayClaimDue: { lua: claimDueScript, numberOfKeys: 1 },
  pckPaySettle: { lua: settleScript, numberOfKeys: 1 },
} as const;

type Args = readonly (string | number)[];

/** The client methods {@link paymentScripts} define. */
export interface PaymentScriptClient {
  pckPayRegisterCard(...args: Args): Promise<number>;
  pckPayAccept(...args: Args): Promise<[number, number, number]>;
  pckPayCard(...args: Args): Promise<string | null>;
  pckPayRead(...args: Args): Promise<[string, string, string] | null>;
  pckPayPage(...args: Args): Promise<string[]>;
  pckPayCounts(...args: Args): Promise<[number, number, number, number]>;
  pckPayClaimDue(...args: Args): Promise<string[]>;
  pckPaySettle(...args: Args): Promise<[string, string] | null>;
}
