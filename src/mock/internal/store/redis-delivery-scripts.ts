/**
 * The Lua scripts of the delivery state on a Redis store (decision 0040, step 6); redis-delivery-state.ts runs them.
 * Every script reads the epoch (`KEYS[1]`, `P`epoch) first and works under `P<e>:`:
 * - `dlv` hash id → the delivery's JSON as enqueued (id, client, payment, URL, event type, payload, exact body,
 *   headers, enqueue time), never decoded here; `dlv:st` hash id → its state line `<state> <attempts made>
 *   <attempts dropped> <round start> <redeliveries> <next attempt> <delivered at> <reason> <error>` (`-` for none; the
 *   error, last since it may hold spaces, as `=<text>`); `dlv:att` hash id → the kept attempts, one JSON per line;
 * - `dlv:c`, `dlv:u`, `dlv:url` hashes id → client, payment uuid, URL (what a page filters on); `dlv:claim` hash
 *   id → the claim token that holds it; `dlv:byp` hash payment uuid → its delivery ids, one per line;
 * - `dlvs` zset id → sequence number (the pages of the whole sandbox), `dlvs:c:<client>` and `dlvs:url:<url>` the
 *   same per client and per URL (named in the sets `dlv:clients` and `dlv:urls`, so the reset finds them); `dlv:fin` zset
 *   id → finish number (the oldest finished is evicted first);
 * - `attempts` zset id → virtual time the next attempt is due, `sending` zset id → the claim's real-time deadline;
 * - `dlvn` hash of counters: one per state, `evicted`, `refused`, `changes`, and the numbers `seq` and `fin` hand out.
 *
 * Times the caller gives (due times, deliveredAt, attempts) are kept as the strings it sent: Lua reads numbers with 14
 * digits, so nothing it does not compute passes through a Lua number; what it computes (virtual now, the deadline)
 * is written back with 17.
 *
 * @module
 */
import { claimDueLua } from './redis-due-claims.ts';

/**
 * The state line and the moves several delivery scripts share, over the epoch's key prefix `p` of the script they
 * are part of (a delivery script's own, or the payment settle script's, which enqueues in the same step).
 */
const functionsLua = `
local PENDING = {queued = true, sending = true, ['retry-scheduled'] = true}
local function count(field, by) return redis.call('HINCRBY', p .. 'dlvn', field, by) end
local function pending()
  local c = redis.call('HMGET', p .. 'dlvn', 'queued', 'sending', 'retry-scheduled')
  return tonumber(c[1] or '0') + tonumber(c[2] or '0') + tonumber(c[3] or '0')
end
local function parse(st)
  local s, n, ad, rs, rd, na, da, r, er = string.match(st, '^(%S+) (%S+) (%S+) (%S+) (%S+) (%S+) (%S+) (%S+) (.*)$')
  return {s = s, n = tonumber(n), ad = tonumber(ad), rs = tonumber(rs), rd = tonumber(rd), na = na, da = da, r = r,
    e = er}
end
local function line(d)
  return table.concat({d.s, tostring(d.n), tostring(d.ad), tostring(d.rs), tostring(d.rd), d.na, d.da, d.r, d.e}, ' ')
end
local function lines(s)
  local out = {}
  for l in string.gmatch(s or '', '[^\\n]+') do out[#out + 1] = l end
  return out
end
local function drop(id)
  local d = parse(redis.call('HGET', p .. 'dlv:st', id))
  local c, u, url = redis.call('HGET', p .. 'dlv:c', id), redis.call('HGET', p .. 'dlv:u', id),
    redis.call('HGET', p .. 'dlv:url', id)
  for _, h in ipairs({'dlv', 'dlv:st', 'dlv:att', 'dlv:c', 'dlv:u', 'dlv:url', 'dlv:claim'}) do
    redis.call('HDEL', p .. h, id)
  end
  for _, z in ipairs({'dlvs', 'dlvs:c:' .. c, 'dlvs:url:' .. url, 'dlv:fin', 'attempts', 'sending'}) do
    redis.call('ZREM', p .. z, id)
  end
  local rest = {}
  for _, other in ipairs(lines(redis.call('HGET', p .. 'dlv:byp', u))) do
    if other ~= id then rest[#rest + 1] = other end
  end
  if #rest == 0 then redis.call('HDEL', p .. 'dlv:byp', u)
  else redis.call('HSET', p .. 'dlv:byp', u, table.concat(rest, '\\n')) end
  count(d.s, -1)
  count('evicted', 1)
end
local function move(id, d, state, maxFinished)
  local was = d.s
  count(was, -1)
  count(state, 1)
  count('changes', 1)
  d.s = state
  redis.call('HSET', p .. 'dlv:st', id, line(d))
  if PENDING[was] and not PENDING[state] then
    redis.call('ZADD', p .. 'dlv:fin', count('fin', 1), id)
    while redis.call('ZCARD', p .. 'dlv:fin') > maxFinished do
      local oldest = redis.call('ZRANGE', p .. 'dlv:fin', 0, 0)[1]
      if not oldest then break end
      drop(oldest)
    end
  elseif PENDING[state] and not PENDING[was] then
    redis.call('ZREM', p .. 'dlv:fin', id)
  end
end
local function read(id)
  local json = redis.call('HGET', p .. 'dlv', id)
  if not json then return false end
  return {json, redis.call('HGET', p .. 'dlv:st', id), redis.call('HGET', p .. 'dlv:att', id) or '',
    redis.call('ZSCORE', p .. 'dlvs', id)}
end
`;

/** The start of every delivery script: the epoch's key prefix `p`, then {@link functionsLua}. */
const prelude = `
local e = redis.call('GET', KEYS[1]) or '0'
local p = ARGV[1] .. e .. ':'
${functionsLua}`;

/** The enqueue step as a Lua function (arguments as {@link enqueueScript}'s ARGV from the id on). */
const enqueueFunctionLua = `function(id, c, u, url, json, due, reason, err, maxFinished, maxPending)
  local known = redis.call('ZSCORE', p .. 'dlvs', id)
  if known then return {0, 0, known} end
  local refused = 0
  if reason == '' and pending() >= maxPending then reason, refused = 'pending-cap', 1 end
  local seq = count('seq', 1)
  redis.call('HSET', p .. 'dlv', id, json)
  redis.call('HSET', p .. 'dlv:c', id, c)
  redis.call('HSET', p .. 'dlv:u', id, u)
  redis.call('HSET', p .. 'dlv:url', id, url)
  local ids = redis.call('HGET', p .. 'dlv:byp', u)
  redis.call('HSET', p .. 'dlv:byp', u, ids and (ids .. '\\n' .. id) or id)
  redis.call('ZADD', p .. 'dlvs', seq, id)
  redis.call('ZADD', p .. 'dlvs:c:' .. c, seq, id)
  redis.call('ZADD', p .. 'dlvs:url:' .. url, seq, id)
  redis.call('SADD', p .. 'dlv:clients', c)
  redis.call('SADD', p .. 'dlv:urls', url)
  local d = {s = 'queued', n = 0, ad = 0, rs = 0, rd = 0, na = '-', da = '-', r = '-', e = '-'}
  redis.call('HSET', p .. 'dlv:st', id, line(d))
  count('queued', 1)
  count('changes', 1)
  if refused == 1 then count('refused', 1) end
  if reason ~= '' then
    d.r = reason
    if err ~= '' then d.e = err end
    move(id, d, 'failed', maxFinished)
  else
    redis.call('ZADD', p .. 'attempts', due, id)
  end
  return {1, refused, seq}
end`;

/**
 * ARGV: prefix, id, client, payment uuid, URL, the delivery's JSON, due virtual time, the reason it is kept failed at
 * once ('' for none) and its error (`=<text>`, or '' for none), the finished cap, the pending cap. Answers whether it
 * was kept now (0: the id was known, nothing changed), whether the pending cap refused it, and its sequence number.
 */
export const enqueueScript = `${prelude}
local enqueue = ${enqueueFunctionLua}
return enqueue(ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8], ARGV[9], tonumber(ARGV[10]),
  tonumber(ARGV[11]))
`;

/**
 * For a script of another part (the payment settle script): defines `enqueueDelivery(id, client, uuid, url, json,
 * due, reason, error, finished cap, pending cap)`, as {@link enqueueScript} takes its ARGV, in a block of its own so
 * the delivery functions do not meet that script's, over the `p` it has already set.
 */
export const enqueueDeliveryLua = `
local enqueueDelivery
do
${functionsLua}
enqueueDelivery = ${enqueueFunctionLua}
end
`;

/** ARGV: prefix, id. Answers the delivery's JSON, state line, attempts and sequence number, or nil. */
export const deliveryScript = `${prelude}
return read(ARGV[2])
`;

/**
 * ARGV: prefix, limit, cursor kind ('before', 'after' or ''), cursor, then the filters state (a state or `pending`),
 * payment uuid, client and URL, each `=<value>` or '' when not given. Answers the next cursor ('' for none) and then,
 * per delivery, its JSON, state line, attempts and sequence number. Walks the narrowest index the filters allow (a
 * payment's few ids sorted here, else the URL's, the client's or the whole history, newest first or, after `after`,
 * oldest first) in batches, as history/page.ts walks the memory history: the deliveries it returns, those the
 * filters skip, and one more match that says a next page exists.
 */
export const pageScript = `${prelude}
local limit, kind, cursor = tonumber(ARGV[2]), ARGV[3], ARGV[4]
local function given(v) if v == '' then return nil end return string.sub(v, 2) end
local state, pay, client, url = given(ARGV[5]), given(ARGV[6]), given(ARGV[7]), given(ARGV[8])
local out = {''}
local function matches(id, st)
  if state then
    local s = string.match(st, '^%S+')
    if state == 'pending' then
      if not PENDING[s] then return false end
    elseif s ~= state then return false end
  end
  return (not pay or redis.call('HGET', p .. 'dlv:u', id) == pay)
    and (not client or redis.call('HGET', p .. 'dlv:c', id) == client)
    and (not url or redis.call('HGET', p .. 'dlv:url', id) == url)
end
local found, last = 0, nil
-- Answers true once the page is full and a further match was seen.
local function offer(id, seq)
  local st = redis.call('HGET', p .. 'dlv:st', id)
  if not matches(id, st) then return false end
  if found == limit then
    out[1] = last
    return true
  end
  out[#out + 1] = redis.call('HGET', p .. 'dlv', id)
  out[#out + 1] = st
  out[#out + 1] = redis.call('HGET', p .. 'dlv:att', id) or ''
  out[#out + 1] = seq
  found, last = found + 1, seq
  return false
end
local asc = kind == 'after'
if pay then
  local list = {}
  for _, id in ipairs(lines(redis.call('HGET', p .. 'dlv:byp', pay))) do
    local seq = redis.call('ZSCORE', p .. 'dlvs', id)
    local s = tonumber(seq)
    if kind == '' or (asc and s > tonumber(cursor)) or (kind == 'before' and s < tonumber(cursor)) then
      list[#list + 1] = {s, id, seq}
    end
  end
  table.sort(list, function(a, b) if asc then return a[1] < b[1] end return a[1] > b[1] end)
  for _, x in ipairs(list) do
    if offer(x[2], x[3]) then return out end
  end
  return out
end
local key = p .. (url and ('dlvs:url:' .. url) or client and ('dlvs:c:' .. client) or 'dlvs')
local bound = kind == '' and (asc and '-inf' or '+inf') or ('(' .. cursor)
local n = (state or (url and client)) and 200 or (limit + 1)
while true do
  local batch
  if asc then batch = redis.call('ZRANGEBYSCORE', key, bound, '+inf', 'WITHSCORES', 'LIMIT', 0, n)
  else batch = redis.call('ZREVRANGEBYSCORE', key, bound, '-inf', 'WITHSCORES', 'LIMIT', 0, n) end
  for i = 1, #batch, 2 do
    bound = '(' .. batch[i + 1]
    if offer(batch[i], batch[i + 1]) then return out end
  end
  if #batch < 2 * n then return out end
end
`;

/** ARGV: prefix. Answers the epoch, then the count of each state (queued to gone), evicted, refused and changes. */
export const countsScript = `${prelude}
local c = redis.call('HMGET', p .. 'dlvn', 'queued', 'sending', 'retry-scheduled', 'delivered', 'failed', 'gone',
  'evicted', 'refused', 'changes')
local out = {e}
for i = 1, 9 do out[i + 1] = c[i] or '0' end
return out
`;

/**
 * ARGV: prefix, max, visibility (ms), the caller's real now (ms), the new claim token. Virtual now is real now plus
 * the epoch's clock (redis-clock-state.ts). Moves each claimed delivery to `sending` and answers the earliest due
 * time left ('' for none), then per delivery its id, JSON and state line: those of lapsed claims first, then the due
 * ones, earliest first.
 */
export const claimDueScript = `${prelude}${claimDueLua}
local taken, nextDue = claimDue(p .. 'sending', p .. 'attempts', tonumber(ARGV[2]), tonumber(ARGV[4]),
  tonumber(ARGV[3]))
local out = {nextDue}
for _, id in ipairs(taken) do
  redis.call('HSET', p .. 'dlv:claim', id, ARGV[5])
  local d = parse(redis.call('HGET', p .. 'dlv:st', id))
  d.na = '-'
  move(id, d, 'sending', 0)
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', p .. 'dlv', id)
  out[#out + 1] = line(d)
end
return out
`;

/**
 * ARGV: prefix, id, claim token, the attempt's JSON, the verdict's state (delivered, retry-scheduled, failed, gone)
 * and its value (the time delivered, the time of the next attempt, the reason), attempts kept, the finished cap.
 * Answers whether it was recorded (0: the token no longer holds the delivery, nothing changed) and then the delivery
 * as read, as it stands after the call (nothing more when it is not kept).
 */
export const recordAttemptScript = `${prelude}
local id, token = ARGV[2], ARGV[3]
local st = redis.call('HGET', p .. 'dlv:st', id)
if not st then return {0} end
if not (redis.call('ZSCORE', p .. 'sending', id) and redis.call('HGET', p .. 'dlv:claim', id) == token) then
  local now = read(id)
  table.insert(now, 1, 0)
  return now
end
local d = parse(st)
local att = redis.call('HGET', p .. 'dlv:att', id)
att = att and (att .. '\\n' .. ARGV[4]) or ARGV[4]
d.n = d.n + 1
local kept, cap = #lines(att), tonumber(ARGV[7])
while kept > cap do
  local cut = string.find(att, '\\n', 1, true)
  if not cut then break end
  att = string.sub(att, cut + 1)
  kept, d.ad = kept - 1, d.ad + 1
end
redis.call('HSET', p .. 'dlv:att', id, att)
redis.call('HDEL', p .. 'dlv:claim', id)
redis.call('ZREM', p .. 'sending', id)
local state, v = ARGV[5], ARGV[6]
d.na, d.r = '-', '-'
if state == 'delivered' then d.da = v
elseif state == 'retry-scheduled' then
  d.na = v
  redis.call('ZADD', p .. 'attempts', v, id)
else d.r = v end
move(id, d, state, tonumber(ARGV[8]))
local now = read(id)
if not now then return {1} end
table.insert(now, 1, 1)
return now
`;

/**
 * ARGV: prefix, id, due virtual time, the pending cap. Answers `ok` and starts a new round (queued, due then), or
 * why not: `unknown`, `in-progress`, `unsendable` (no body: `payload-error`), `at-cap`.
 */
export const redeliverScript = `${prelude}
local id = ARGV[2]
local st = redis.call('HGET', p .. 'dlv:st', id)
if not st then return 'unknown' end
local d = parse(st)
if PENDING[d.s] then return 'in-progress' end
if d.r == 'payload-error' then return 'unsendable' end
if pending() >= tonumber(ARGV[4]) then return 'at-cap' end
d.rd, d.rs, d.na, d.da, d.r, d.e = d.rd + 1, d.n, '-', '-', '-', '-'
move(id, d, 'queued', 0)
redis.call('ZADD', p .. 'attempts', ARGV[3], id)
return 'ok'
`;

/**
 * The delivery part of the sandbox's reset, as a Lua function of the prefix and the epoch being left: unlinks every
 * delivery key of that epoch (a bounded number: a few, and one per client and per URL). Run by the token reset
 * script (redis-token-state.ts), which starts the next epoch; the counters' version moves with the epoch.
 */
export const deliveryResetLua = `
local function resetDeliveries(prefix, epoch)
  local q = prefix .. epoch .. ':'
  for _, c in ipairs(redis.call('SMEMBERS', q .. 'dlv:clients')) do redis.call('UNLINK', q .. 'dlvs:c:' .. c) end
  for _, url in ipairs(redis.call('SMEMBERS', q .. 'dlv:urls')) do redis.call('UNLINK', q .. 'dlvs:url:' .. url) end
  redis.call('UNLINK', q .. 'dlv', q .. 'dlv:st', q .. 'dlv:att', q .. 'dlv:c', q .. 'dlv:u', q .. 'dlv:url',
    q .. 'dlv:claim', q .. 'dlv:byp', q .. 'dlvs', q .. 'dlv:fin', q .. 'dlv:clients', q .. 'dlv:urls',
    q .. 'attempts', q .. 'sending', q .. 'dlvn')
end
`;

/** The scripts as ioredis `defineCommand`s (each declares the epoch key). */
export const deliveryScripts = {
  pckDlvEnqueue: { lua: enqueueScript, numberOfKeys: 1 },
  pckDlvRead: { lua: deliveryScript, numberOfKeys: 1 },
  pckDlvPage: { lua: pageScript, numberOfKeys: 1 },
  pckDlvCounts: { lua: countsScript, numberOfKeys: 1 },
  pckDlvClaimDue: { lua: claimDueScript, numberOfKeys: 1 },
  pckDlvRecordAttempt: { lua: recordAttemptScript, numberOfKeys: 1 },
  pckDlvRedeliver: { lua: redeliverScript, numberOfKeys: 1 },
} as const;

type Args = readonly (string | number)[];

/** A delivery as the scripts answer it: its JSON, state line, kept attempts (one JSON per line) and sequence. */
export type DeliveryReply = [string, string, string, string];

/** The client methods {@link deliveryScripts} define. */
export interface DeliveryScriptClient {
  pckDlvEnqueue(...args: Args): Promise<[number, number, string]>;
  pckDlvRead(...args: Args): Promise<DeliveryReply | null>;
  pckDlvPage(...args: Args): Promise<string[]>;
  pckDlvCounts(...args: Args): Promise<string[]>;
  pckDlvClaimDue(...args: Args): Promise<string[]>;
  pckDlvRecordAttempt(...args: Args): Promise<[number, ...string[]]>;
  pckDlvRedeliver(...args: Args): Promise<string>;
}
