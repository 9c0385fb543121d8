/**
 * The request journal of a Redis store (decision 0040, step 7), each call one script in the current epoch:
 * - `P<e>:jr` a stream with one entry per answered request, its id `<seq>-0`, its one field `a` the entry as
 *   {@link journalArray} writes it; trimmed to the capacity exactly as each entry is added;
 * - `P<e>:jr:n` the latest sequence number handed out since the reset.
 * The ids are the sequence numbers, so a page's cursor is a stream range bound and nothing else is indexed. A reset
 * (the token reset script, which starts the next epoch) unlinks both keys.
 *
 * @module
 */
import { type JournalEntry, type JournalFilter, journalArray, journalRecordOf } from '../history/journal-entry.ts';
import type { JournalStatePort } from './journal-state.ts';

const prelude = `
local e = redis.call('GET', KEYS[1]) or '0'
local p = ARGV[1] .. e .. ':'
`;

/** ARGV: prefix, capacity, the entry's JSON array. Answers its sequence number. */
export const journalAppendScript = `${prelude}
local seq = redis.call('INCR', p .. 'jr:n')
redis.call('XADD', p .. 'jr', 'MAXLEN', ARGV[2], seq .. '-0', 'a', ARGV[3])
return seq
`;

/** ARGV: prefix, since. Answers sequence number and JSON of each entry above `since`, oldest first. */
export const journalEntriesScript = `${prelude}
local out = {}
for _, item in ipairs(redis.call('XRANGE', p .. 'jr', '(' .. ARGV[2] .. '-0', '+')) do
  out[#out + 1] = string.match(item[1], '^%d+')
  out[#out + 1] = item[2][2]
end
return out
`;

/**
 * ARGV: prefix, limit, cursor kind ('before', 'after' or ''), cursor, then the filters method, path, status,
 * operationName and clientId, each `=<value>` or '' when not given. Answers the next cursor ('' for none), then
 * sequence number and JSON per entry. Walks the stream newest first (after a cursor `after`, oldest first) in
 * batches, as history/page.ts walks the ring: the entries it returns, those a filter skips, and one more match that
 * says a next page exists.
 */
export const journalPageScript = `${prelude}
local limit, kind, cursor = tonumber(ARGV[2]), ARGV[3], ARGV[4]
local want, at, filtered = {}, {1, 2, 3, 6, 8}, false
for i = 1, 5 do
  if ARGV[4 + i] ~= '' then want[i], filtered = string.sub(ARGV[4 + i], 2), true end
end
local function matches(json)
  if not filtered then return true end
  local a = cjson.decode(json)
  for i = 1, 5 do
    local v = a[at[i]]
    if want[i] and (v == nil or v == cjson.null or tostring(v) ~= want[i]) then return false end
  end
  return true
end
local key, asc, out = p .. 'jr', kind == 'after', {''}
-- Nothing numbers below 1, and 0-0 is no bound an exclusive range takes.
if kind == 'before' and tonumber(cursor) < 1 then return out end
local lo, hi = '-', '+'
if asc then lo = '(' .. cursor .. '-0' elseif kind == 'before' then hi = '(' .. cursor .. '-0' end
local n = filtered and 200 or (limit + 1)
local found, last = 0, nil
while true do
  local batch
  if asc then batch = redis.call('XRANGE', key, lo, hi, 'COUNT', n)
  else batch = redis.call('XREVRANGE', key, hi, lo, 'COUNT', n) end
  for _, item in ipairs(batch) do
    local seq, json = string.match(item[1], '^%d+'), item[2][2]
    if asc then lo = '(' .. item[1] else hi = '(' .. item[1] end
    if matches(json) then
      if found == limit then
        out[1] = last
        return out
      end
      out[#out + 1] = seq
      out[#out + 1] = json
      found, last = found + 1, seq
    end
  end
  if #batch < n then return out end
end
`;

/** ARGV: prefix. Answers the entries kept and the latest sequence number. */
export const journalCountsScript = `${prelude}
return {redis.call('XLEN', p .. 'jr'), tonumber(redis.call('GET', p .. 'jr:n') or '0')}
`;

/** The journal part of the sandbox's reset, as a Lua function of the prefix and the epoch being left. */
export const journalResetLua = `
local function resetJournal(prefix, epoch)
  redis.call('UNLINK', prefix .. epoch .. ':jr', prefix .. epoch .. ':jr:n')
end
`;

/** The scripts as ioredis `defineCommand`s (each declares the epoch key). */
export const journalScripts = {
  pckJournalAppend: { lua: journalAppendScript, numberOfKeys: 1 },
  pckJournalEntries: { lua: journalEntriesScript, numberOfKeys: 1 },
  pckJournalPage: { lua: journalPageScript, numberOfKeys: 1 },
  pckJournalCounts: { lua: journalCountsScript, numberOfKeys: 1 },
} as const;

type Args = readonly (string | number)[];

/** The client methods {@link journalScripts} define. */
export interface JournalScriptClient {
  pckJournalAppend(...args: Args): Promise<number>;
  pckJournalEntries(...args: Args): Promise<string[]>;
  pckJournalPage(...args: Args): Promise<string[]>;
  pckJournalCounts(...args: Args): Promise<[number, number]>;
}

/** Sequence number and JSON pairs from `from` on, as entries. */
function entriesOf(reply: readonly string[], from: number): JournalEntry[] {
  const out: JournalEntry[] = [];
  for (let i = from; i + 1 < reply.length; i += 2) {
    out.push({ seq: Number(reply[i]), ...journalRecordOf(JSON.parse(reply[i + 1]!) as unknown[]) });
  }
  return out;
}

/** A filter value as the page script takes it: `=<value>`, or '' when not given. */
const given = (value: string | number | undefined): string => (value === undefined ? '' : `=${String(value)}`);

/**
 * The journal under `prefix`, over the store's `run` (which turns a Redis failure into `StoreUnavailableError`).
 *
 * @example
 * const journal = redisJournalState((work) => run(work), 'pck:');
 * const seq = await journal.append(entry, 1000);
 */
export function redisJournalState(
  run: <T>(work: (redis: JournalScriptClient) => Promise<T>) => Promise<T>,
  prefix: string,
): JournalStatePort {
  const epochKey = `${prefix}epoch`;
  return {
    append: (entry, capacity) =>
      run((r) =>
        r.pckJournalAppend(epochKey, prefix, Math.max(1, Math.floor(capacity)), JSON.stringify(journalArray(entry))),
      ),
    entries: (since) => run(async (r) => entriesOf(await r.pckJournalEntries(epochKey, prefix, since), 0)),
    page: (query, filter: JournalFilter) =>
      run(async (r) => {
        const [kind, at] =
          query.after !== undefined
            ? ['after', query.after]
            : query.before !== undefined
              ? ['before', query.before]
              : ['', ''];
        const { method, path, status, operationName, clientId } = filter;
        const reply = await r.pckJournalPage(
          ...[epochKey, prefix, query.limit, kind, at],
          ...[given(method), given(path), given(status), given(operationName), given(clientId)],
        );
        return {
          items: entriesOf(reply, 1),
          order: query.after === undefined ? 'newest-first' : 'oldest-first',
          next: reply[0] === '' || reply[0] === undefined ? null : Number(reply[0]),
        };
      }),
    counts: () =>
      run(async (r) => {
        const [kept, cursor] = await r.pckJournalCounts(epochKey, prefix);
        return { kept, cursor };
      }),
  };
}
