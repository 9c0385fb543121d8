/**
 * The Lua scripts of the Redis store: each runs atomically on the server, so a claim, a renewal or a compaction can
 * never interleave with another process's command.
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

/** Deletes `KEYS[1]` only while owner `ARGV[1]` holds it (a lapsed claim taken by another stays theirs). */
export const releaseScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * Compaction. KEYS: the stream, a scratch stream, the compaction hash. ARGV[1]: the id compacted up to (inclusive);
 * ARGV[2..]: the snapshot records (JSON). Builds a new stream holding the snapshot under ids `0-1`..`0-n` and then
 * every entry after ARGV[1] under its own id (positions readers hold stay valid), keeps the old stream's last id
 * (new ids stay above every id ever given), swaps it in and bumps the generation. Returns the new generation.
 */
export const compactScript = `
local log, scratch, meta, upTo = KEYS[1], KEYS[2], KEYS[3], ARGV[1]
local n = #ARGV - 1
local function parse(id)
  local ms, seq = string.match(id, '^(%d+)-(%d+)$')
  return tonumber(ms), tonumber(seq)
end
local function less(a, b)
  local am, as = parse(a)
  local bm, bs = parse(b)
  return am < bm or (am == bm and as < bs)
end
redis.call('DEL', scratch)
for i = 1, n do redis.call('XADD', scratch, '0-' .. i, 'r', ARGV[i + 1]) end
local last = nil
if redis.call('EXISTS', log) == 1 then
  local tail = redis.call('XRANGE', log, '(' .. upTo, '+')
  for _, entry in ipairs(tail) do
    if n > 0 and not less('0-' .. n, entry[1]) then
      return redis.error_reply('PCK_COMPACT_OVERLAP entries after the compaction point sit among snapshot ids')
    end
    redis.call('XADD', scratch, entry[1], unpack(entry[2]))
  end
  local info = redis.call('XINFO', 'STREAM', log)
  for i = 1, #info, 2 do
    if info[i] == 'last-generated-id' then last = info[i + 1] end
  end
end
if redis.call('EXISTS', scratch) == 1 then
  if last and (n == 0 or less('0-' .. n, last)) then redis.call('XSETID', scratch, last) end
  redis.call('RENAME', scratch, log)
else
  redis.call('DEL', log)
end
local generation = redis.call('HINCRBY', meta, 'generation', 1)
redis.call('HSET', meta, 'upTo', upTo)
return generation
`;
