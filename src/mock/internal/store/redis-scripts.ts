/**
 * The Lua scripts of the Redis store: each runs atomically on the server, so a claim, a renewal, a read or the swap
 * of a compaction can never interleave with another process's command.
 *
 * @module
 */

/**
 * Claims `KEYS[1]` for owner `ARGV[1]` for `ARGV[2]` ms: `SET NX PX` when free, a renewal (`PEXPIRE`) when the owner
 * already holds it, 0 when someone else does. One script instead of `SET NX` then a renewal script, so a claim is
 * always one round trip.
 */
export const claimScript = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`;

/**
 * Renews `KEYS[1]` for `ARGV[2]` ms only while owner `ARGV[1]` still holds it (1), else 0. Unlike the claim script it
 * never takes a free key: a holder that stalled past its lease must learn it lost the claim, not quietly get it back
 * while another process may already have done the work (fencing, decision 0033).
 */
export const renewScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`;

/**
 * A fenced append (decision 0033). KEYS: the stream, then the claim keys the batch's records are fenced by. ARGV:
 * the owner, then per record the 1-based index of its claim among KEYS[2..] (0: not fenced) and its JSON. Appends,
 * in order, every record that is not fenced or whose claim the owner still holds; a record whose claim is gone
 * (lapsed, or taken by another process) is not appended. Returns the last id appended ('' for none) and the
 * 1-based indexes of the records refused.
 */
export const appendFencedScript = `
local owner = ARGV[1]
local held = {}
for i = 2, #KEYS do held[i - 1] = redis.call('GET', KEYS[i]) == owner end
local last = ''
local lost = {}
local n = 0
for i = 2, #ARGV, 2 do
  n = n + 1
  local k = tonumber(ARGV[i])
  if k == 0 or held[k] then
    last = redis.call('XADD', KEYS[1], '*', 'r', ARGV[i + 1])
  else
    lost[#lost + 1] = n
  end
end
return {last, lost}
`;

/** Deletes `KEYS[1]` only while owner `ARGV[1]` holds it (a lapsed claim taken by another stays theirs). */
export const releaseScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * The end of a compaction (the snapshot was uploaded to a scratch list first). KEYS: the stream, the snapshot list,
 * the compaction hash, the scratch list, the claim key. ARGV: the stream id compacted up to (inclusive), the
 * snapshot's covered origin and the id it covers up to ('' for none), the claim owner ('' for no fence), and how
 * many ms of entries before the id the stream keeps, and at most how many (a replica a little behind the compactor
 * reads on from its position instead of rebuilding from the snapshot; only one behind the kept part has to).
 *
 * Atomically: refuses (-1) when the claim is no longer the owner's (a compactor that stalled past its lease) and
 * (-2) when a newer compaction already went past the id (a snapshot built from an older view would lose records);
 * else swaps the scratch list in as the snapshot, trims the stream before the kept part (`XTRIM MINID`: the stream
 * keeps its last id, so new ids stay above every id given), notes the last id trimmed (a position before it is
 * stale) and bumps the generation, which it returns. A reader runs either before or after, never between: see the
 * read script.
 */
export const compactScript = `
local log, snap, meta, scratch, claim = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local upTo, origin, covers, owner = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local keepMs, keepMax = tonumber(ARGV[5]), tonumber(ARGV[6])
local function parse(id)
  local ms, seq = string.match(id, '^(%d+)-(%d+)$')
  return tonumber(ms), tonumber(seq)
end
local function less(a, b)
  local am, as = parse(a)
  local bm, bs = parse(b)
  return am < bm or (am == bm and as < bs)
end
local function next(id)
  local ms, seq = parse(id)
  return ms .. '-' .. (seq + 1)
end
if owner ~= '' and redis.call('GET', claim) ~= owner then
  redis.call('DEL', scratch)
  return -1
end
local current = redis.call('HGET', meta, 'upTo')
if current then
  local cm, cs = parse(current)
  local um, us = parse(upTo)
  if um < cm or (um == cm and us < cs) then
    redis.call('DEL', scratch)
    return -2
  end
end
redis.call('UNLINK', snap)
if redis.call('EXISTS', scratch) == 1 then
  redis.call('PERSIST', scratch)
  redis.call('RENAME', scratch, snap)
end
local ms, seq = parse(upTo)
local minId = ms .. '-' .. (seq + 1)
if keepMs > 0 and keepMax > 0 then
  minId = math.max(0, ms - keepMs) .. '-0'
  -- At most keepMax entries up to the compaction point stay, however many a busy lease brought.
  local last = redis.call('XREVRANGE', log, upTo, '-', 'COUNT', keepMax + 1)
  if #last > keepMax then
    local cap = last[#last][1]
    if not less(cap, minId) then minId = next(cap) end
  end
end
local trimmed = redis.call('XREVRANGE', log, '(' .. minId, '-', 'COUNT', 1)
if #trimmed > 0 then
  redis.call('HSET', meta, 'trimmed', trimmed[1][1])
  redis.call('XTRIM', log, 'MINID', minId)
end
-- The entries kept up to the compaction point are no backlog: the next compaction is due on what follows.
redis.call('HSET', meta, 'kept', #redis.call('XRANGE', log, '-', upTo))
local generation = redis.call('HINCRBY', meta, 'generation', 1)
redis.call('HSET', meta, 'upTo', upTo, 'origin', origin, 'covers', covers)
return generation
`;

/**
 * One read, atomic against a compaction. KEYS: the stream, the snapshot list, the compaction hash. ARGV: the mode
 * (`start`: a new reader, from the snapshot's start; `snap`: from snapshot entry ARGV[2] (0-based) of generation
 * ARGV[3]; `after`: after stream id ARGV[2], read through snapshot generation ARGV[3] or '' when not), then the
 * count.
 *
 * A position the last compaction made stale (a snapshot index or a covered tail id of an older generation, or a
 * stream id before the last one trimmed) reads from the snapshot's start. A snapshot read that runs out goes on with
 * the stream after the compaction point. Returns: the generation, the compaction point, the covered origin and id,
 * the stream's entries after the compaction point, whether the read started over, the first snapshot index read, the snapshot entries, the
 * stream entries.
 */
export const readScript = `
local log, snap, meta = KEYS[1], KEYS[2], KEYS[3]
local mode, at, through, count = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local m = redis.call('HMGET', meta, 'generation', 'upTo', 'origin', 'covers', 'trimmed', 'kept')
local generation = m[1] or '0'
local upTo = m[2]
local function less(a, b)
  local am, as = string.match(a, '^(%d+)-(%d+)$')
  local bm, bs = string.match(b, '^(%d+)-(%d+)$')
  am, as, bm, bs = tonumber(am), tonumber(as), tonumber(bm), tonumber(bs)
  return am < bm or (am == bm and as < bs)
end
local index = -1
local restarted = 0
if mode == 'start' then
  index = 0
elseif mode == 'snap' then
  if through == generation then index = tonumber(at) else index = 0 restarted = 1 end
elseif through ~= '' and through ~= generation then
  index = 0 restarted = 1
elseif m[5] and less(at, m[5]) then
  index = 0 restarted = 1
end
local snapEntries = {}
local from = at
if index >= 0 then
  snapEntries = redis.call('LRANGE', snap, index, index + count - 1)
  count = count - #snapEntries
  from = upTo or '0-0'
end
local tail = {}
if count > 0 then tail = redis.call('XRANGE', log, '(' .. from, '+', 'COUNT', count) end
local backlog = redis.call('XLEN', log) - tonumber(m[6] or '0')
return {generation, upTo or '', m[3] or '', m[4] or '', backlog, restarted, index, snapEntries, tail}
`;
