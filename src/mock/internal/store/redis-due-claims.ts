/**
 * How a Redis store hands out work due on the sandbox clock (decision 0040): settlements and webhook attempts alike.
 * A part keeps a zset of due work (score: the virtual time it is due) and one of work in flight (score: the real-time
 * deadline of its claim); a claim takes lapsed claims first (their replica stalled or died), then due work, and moves
 * each to the in-flight set with a fresh deadline, in the one script the part runs. One definition for both parts,
 * so they cannot drift apart in what a lapsed claim or a due time means.
 *
 * @module
 */
import { clockOffsetLua } from './redis-clock-state.ts';

/**
 * A Lua function `claimDue(inFlight, due, max, real, visibility)` for a script that has set its epoch prefix `p`:
 * `real` is the caller's real now (ms), virtual now is it plus the epoch's clock offset. Answers the ids taken,
 * lapsed ones first, then the due ones, earliest first, each now in `inFlight` until `real + visibility`; and the
 * virtual time the earliest work still due is due at ('' for none). Times go to Redis with 17 digits, as Lua prints
 * only 14 of a number by itself.
 */
export const claimDueLua = `
local function claimDue(inFlight, due, max, real, visibility)
  local now = real + tonumber(${clockOffsetLua('p')})
  local taken = {}
  if max > 0 then
    taken = redis.call('ZRANGEBYSCORE', inFlight, '-inf', string.format('%.17g', real), 'LIMIT', 0, max)
    if #taken < max then
      local ready = redis.call('ZRANGEBYSCORE', due, '-inf', string.format('%.17g', now), 'LIMIT', 0, max - #taken)
      for _, id in ipairs(ready) do
        redis.call('ZREM', due, id)
        taken[#taken + 1] = id
      end
    end
  end
  local deadline = string.format('%.17g', real + visibility)
  for _, id in ipairs(taken) do redis.call('ZADD', inFlight, deadline, id) end
  return taken, redis.call('ZRANGE', due, 0, 0, 'WITHSCORES')[2] or ''
end
`;
