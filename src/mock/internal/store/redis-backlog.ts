/**
 * What a Redis store's reads saw of its stream: its length and its records' size, so the sync layer knows when to
 * compact without a round trip of its own.
 *
 * @module
 */
import type { StoreBacklog } from './sandbox-store.ts';

/** What the reads saw of the stream's length and its records' size: when to compact, without a round trip. */
export function backlogMeter() {
  let records = 0;
  let bytesRead = 0;
  let entriesRead = 0;
  return {
    saw(length: number, entries: readonly [string, string[]][]) {
      records = length;
      for (const [, fields] of entries) bytesRead += (fields[1]?.length ?? 0) + 24;
      entriesRead += entries.length;
    },
    backlog(): StoreBacklog {
      return { records, bytes: entriesRead === 0 ? 0 : Math.round((records * bytesRead) / entriesRead) };
    },
  };
}
