/**
 * The follow loop of the Redis store: `XREAD BLOCK` on a connection of its own (a blocked connection cannot serve
 * other commands), calling its listeners when another process appended. Best effort by design: the mock catches up
 * before each request anyway, so a missed wake-up only delays a background update.
 *
 * @module
 */
import type { Redis as RedisClient } from 'ioredis';
import type { StoreRecord } from './sandbox-store.ts';

/** How long one `XREAD` blocks before it asks again (bounds how late `stop` takes effect on the server). */
const blockMs = 1000;
/** Pause after a failed read (Redis down) before the next, so a dead server is not asked in a tight loop. */
const retryDelayMs = 250;
/**
 * Pause after a read that returned only this process's own entries. The stream wakes a blocked read on every entry,
 * its own included, so a busy replica would otherwise pay one round trip per append just to skip its own records;
 * nothing is missed (the next read goes on from the last id), another process's entry only waits this much longer.
 */
const ownOnlyPauseMs = 50;

/** A running follow loop. */
export interface RedisWatcher {
  /** Adds a listener; returns its removal (the loop stops with its last listener). */
  add(listener: () => void): () => void;
  /** Stops the loop and closes its connection. */
  stop(): void;
}

/**
 * Follows `streamKey` from its current end; listeners run when an entry for which `isForeign` holds arrives.
 *
 * @example
 * const watcher = createRedisWatcher(client, 'pck:log', (record) => record.o !== myId);
 * const stop = watcher.add(() => void catchUp());
 */
export function createRedisWatcher(
  client: RedisClient,
  streamKey: string,
  isForeign: (record: StoreRecord) => boolean,
): RedisWatcher {
  const listeners = new Set<() => void>();
  let connection: RedisClient | undefined;
  let running = false;

  function notify(): void {
    for (const listener of listeners) {
      try {
        listener();
      } catch {
        // A listener's failure is its own; the loop keeps following for the others.
      }
    }
  }

  async function loop(redis: RedisClient): Promise<void> {
    // `$` only on the first read: later reads go on from the last id seen, so nothing between two reads is missed.
    let lastId = '$';
    while (running && connection === redis) {
      try {
        const reply = (await redis.xread('COUNT', 256, 'BLOCK', blockMs, 'STREAMS', streamKey, lastId)) as
          | [string, [string, string[]][]][]
          | null;
        const entries = reply?.[0]?.[1] ?? [];
        const last = entries.at(-1);
        if (last) lastId = last[0];
        if (entries.some(([, fields]) => isForeign(parseRecord(fields)))) notify();
        else if (entries.length > 0) await new Promise((resolve) => setTimeout(resolve, ownOnlyPauseMs).unref());
      } catch {
        if (!running) return;
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs).unref());
      }
    }
  }

  function start(): void {
    running = true;
    // A blocking read must not time out on the client's command timeout; it has its own BLOCK bound.
    const redis = client.duplicate({ commandTimeout: undefined, enableOfflineQueue: true, lazyConnect: false });
    redis.on('error', () => {
      // Reconnection is the client's; the loop's failed reads wait and retry.
    });
    connection = redis;
    void loop(redis);
  }

  function stop(): void {
    running = false;
    const redis = connection;
    connection = undefined;
    redis?.disconnect();
  }

  return {
    add(listener) {
      listeners.add(listener);
      if (!running) start();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) stop();
      };
    },
    stop() {
      listeners.clear();
      stop();
    },
  };
}

function parseRecord(fields: string[]): StoreRecord {
  try {
    const value: unknown = JSON.parse(fields[1] ?? 'null');
    if (value !== null && typeof value === 'object') return value as StoreRecord;
  } catch {
    // Falls through below.
  }
  // Not one of ours: wake the listeners anyway, catching up will tell.
  return { t: 'unknown', o: '' };
}
