/**
 * The Redis state store (`redis://` / `rediss://`, Node only): any number of mock processes share one
 * sandbox through one Redis. Records go to a stream (`XADD`, read with an exclusive `XRANGE`), claims are keys set
 * with `NX PX` and renewed or released by their owner only (Lua), counters are `INCR`, and `watch` blocks on
 * `XREAD` over a connection of its own. The client, ioredis, is an optional peer dependency loaded only here.
 *
 * While Redis is down every call rejects at once with {@link StoreUnavailableError} (no offline queue, no resend:
 * an append is acknowledged only by Redis itself); the client reconnects by itself and the same store object works
 * again once Redis answers. Redis's own persistence decides what survives its restart (`appendfsync always` keeps
 * every acknowledged append).
 *
 * @module
 */
import type { Redis as RedisClient, RedisOptions } from 'ioredis';
import { clause, errorLine, kitMessage } from '../../../internal/messages.ts';
import { backlogMeter } from './redis-backlog.ts';
import { type SandboxStateClient, sandboxStatePorts, sandboxStateScripts } from './redis-sandbox-state.ts';
import {
  appendFencedScript,
  claimScript,
  compactScript,
  readScript,
  releaseScript,
  renewScript,
} from './redis-scripts.ts';
import { createRedisWatcher } from './redis-watch.ts';
import {
  type CompactOptions,
  type FencedAppendResult,
  type PositionedRecord,
  type SandboxStore,
  type StoreRecord,
  StoreSetupError,
  StoreUnavailableError,
} from './sandbox-store.ts';

/** Options of {@link createRedisStore}. */
export interface RedisStoreOptions {
  /**
   * Prefix of every key the store writes (default `pck:`, or the URL's `?prefix=` parameter): several sandboxes
   * share one Redis under different prefixes and never see each other's records, claims or counters.
   */
  readonly keyPrefix?: string;
  /** A command with no answer after this many ms fails as unavailable (default 2000; a hung server, not a slow one). */
  readonly commandTimeoutMs?: number;
  /** Longest wait between two reconnection attempts while Redis is down (default 500 ms). */
  readonly maxReconnectDelayMs?: number;
  /** How the client module is loaded (tests pass a failing loader to see the message when it is not installed). */
  readonly loadClient?: () => Promise<RedisClientModule>;
}

/** What the store needs of the ioredis module: its client class. */
export interface RedisClientModule {
  readonly default: new (url: string, options: RedisOptions) => RedisClient;
}

/** The default key prefix. */
export const defaultRedisKeyPrefix = 'pck:';

interface ScriptedClient extends RedisClient, SandboxStateClient {
  pckClaim(key: string, owner: string, leaseMs: number): Promise<number>;
  pckRelease(key: string, owner: string): Promise<number>;
  pckRenew(key: string, owner: string, leaseMs: number): Promise<number>;
  pckAppendFenced(keyCount: number, ...keysAndArgs: string[]): Promise<[string, number[]]>;
  pckCompact(...keysAndArgs: string[]): Promise<number>;
  pckRead(...keysAndArgs: string[]): Promise<ReadReply>;
}

/** The read script's reply (redis-scripts.ts). */
type ReadReply = [string, string, string, string, number, number, number, string[], [string, string[]][]];

/** The keys of one sandbox under its prefix. */
export interface RedisStoreKeys {
  /** The prefix itself, under which the sandbox state keeps its keys (redis-sandbox-state.ts). */
  readonly prefix: string;
  readonly log: string;
  /** The snapshot list of the last compaction (one JSON record per element). */
  readonly snapshot: string;
  /** Where a compactor uploads its snapshot before the swap (`id`: its own, so two never share one). */
  scratch(id: string): string;
  readonly compaction: string;
  claim(key: string): string;
  counter(name: string): string;
}

/** The keys of the sandbox under `prefix`. */
export function redisStoreKeys(prefix: string): RedisStoreKeys {
  return {
    prefix,
    log: `${prefix}log`,
    snapshot: `${prefix}snapshot`,
    scratch: (id) => `${prefix}snapshot:building:${id}`,
    compaction: `${prefix}compaction`,
    claim: (key) => `${prefix}claim:${key}`,
    counter: (name) => `${prefix}counter:${name}`,
  };
}

/**
 * Creates the Redis store for `storeUrl` (`redis://[user:password@]host:port[/db][?prefix=name:]`, or `rediss://`
 * for TLS). Nothing connects until `open()`.
 *
 * @example
 * const store = createRedisStore('redis://127.0.0.1:6379', { keyPrefix: 'staging:' });
 * await store.open();
 */
export function createRedisStore(storeUrl: string, options: RedisStoreOptions = {}): SandboxStore {
  checkUrl(storeUrl);
  const { url, prefix } = splitPrefix(storeUrl);
  const keys = redisStoreKeys(options.keyPrefix ?? prefix ?? defaultRedisKeyPrefix);
  const where = redactUrl(url);
  let client: ScriptedClient | undefined;
  let lastError: unknown;
  let closed = false;
  let watcher: ReturnType<typeof createRedisWatcher> | undefined;
  // Origins of the records this object appended: `watch` stays quiet about them.
  const ownOrigins = new Set<string>();
  // Listeners added before open, started by it (with their removal, for an unsubscribe called after open).
  const early = new Set<() => void>();
  const unwatchers = new Map<() => void, () => void>();
  const seen = backlogMeter();

  function follow(redis: ScriptedClient, onAppend: () => void): () => void {
    watcher ??= createRedisWatcher(redis, keys.log, (record) => !ownOrigins.has(record.o));
    return watcher.add(onAppend);
  }

  function unavailable(error: unknown, mayHaveApplied = false): StoreUnavailableError {
    if (error instanceof StoreUnavailableError) return error;
    const cause = error ?? lastError;
    // A clause the mock's messages quote: each says what comes next (at start the mock exits, later it recovers).
    return new StoreUnavailableError(
      `the Redis store at ${where} did not answer (${errorLine(cause)}); check that Redis is running and reachable`,
      { cause, mayHaveApplied },
    );
  }

  function connected(): ScriptedClient {
    if (closed) throw new StoreUnavailableError(`the Redis store at ${where} is closed`);
    if (!client) throw new StoreUnavailableError(`the Redis store at ${where} is not open: call open() first`);
    return client;
  }

  /** A port's step. `write`: as with an append, a script sent on a ready connection may have run (see `sending`). */
  async function run<T>(work: (redis: ScriptedClient) => Promise<T>, write = false): Promise<T> {
    const redis = connected();
    const sent = write && redis.status === 'ready';
    // A caller's misuse (a position this store never gave, a record JSON cannot hold) is not an outage.
    return work(redis).catch((error: unknown) => {
      throw error instanceof TypeError ? error : unavailable(error, sent);
    });
  }

  /**
   * An append. Not ready: ioredis refuses at once (no offline queue), so nothing was sent. Ready: the command went out,
   * and a dropped connection or a time-out cannot tell whether Redis applied it before it died.
   */
  function sending<T>(records: readonly StoreRecord[], send: (redis: ScriptedClient) => Promise<T>): Promise<T> {
    const redis = connected();
    const sent = redis.status === 'ready';
    for (const record of records) ownOrigins.add(record.o);
    return send(redis).catch((error: unknown) => {
      throw error instanceof TypeError ? error : unavailable(error, sent);
    });
  }

  return {
    kind: 'redis',
    shared: true,
    async open() {
      if (client) return;
      const redis = await connectClient(url, options, (error) => {
        lastError = error;
      }).catch((error: unknown) => {
        throw unavailable(error);
      });
      client = redis;
      for (const listener of early) unwatchers.set(listener, follow(redis, listener));
      early.clear();
    },
    async append(records) {
      if (records.length === 0) return;
      return sending(records, (redis) => appendBatch(redis, keys.log, records));
    },
    appendFenced(records, fences, owner) {
      return sending(records, (redis) => appendFencedBatch(redis, keys, records, fences, owner));
    },
    readAfter(position, limit) {
      return run((redis) => readAfter(redis, keys, position, limit, seen));
    },
    compact(snapshot, upTo, options) {
      return run((redis) => compact(redis, keys, snapshot, upTo, options));
    },
    backlog: () => seen.backlog(),
    ...claimMethods(run, keys),
    increment(name) {
      return run((redis) => redis.incr(keys.counter(name)));
    },
    ...sandboxStatePorts(run, keys.prefix),
    watch(onAppend) {
      // Never throws (best effort): before open the listener waits for it, after close it is never called.
      if (closed) return () => {};
      if (!client) {
        early.add(onAppend);
        return () => {
          early.delete(onAppend);
          unwatchers.get(onAppend)?.();
        };
      }
      return follow(client, onAppend);
    },
    async close() {
      if (closed) return;
      closed = true;
      watcher?.stop();
      const redis = client;
      client = undefined;
      if (redis) await closeClient(redis);
    },
  };
}

/** Claims, renewals and releases: one script each, owner-checked on the server. */
function claimMethods(
  run: <T>(work: (redis: ScriptedClient) => Promise<T>) => Promise<T>,
  keys: RedisStoreKeys,
): Pick<SandboxStore, 'claim' | 'renew' | 'release'> {
  const lease = (ms: number) => Math.max(1, Math.ceil(ms));
  return {
    claim: (key, owner, leaseMs) =>
      run(async (redis) => (await redis.pckClaim(keys.claim(key), owner, lease(leaseMs))) === 1),
    renew: (key, owner, leaseMs) =>
      run(async (redis) => (await redis.pckRenew(keys.claim(key), owner, lease(leaseMs))) === 1),
    release: (key, owner) =>
      run(async (redis) => {
        await redis.pckRelease(keys.claim(key), owner);
      }),
  };
}

/** A connected client on a server the store can use; every connection error goes to `onError` as well. */
async function connectClient(
  url: string,
  options: RedisStoreOptions,
  onError: (error: unknown) => void,
): Promise<ScriptedClient> {
  const module = await loadClientModule(options.loadClient);
  const redis = new module.default(url, clientOptions(options)) as ScriptedClient;
  // Without a listener ioredis prints every connection error; the store reports them through its rejections.
  redis.on('error', onError);
  try {
    await redis.connect();
    await checkServer(redis);
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  return redis;
}

/** QUIT waits for answers in flight; a Redis that is down gets a plain disconnect instead. */
async function closeClient(redis: RedisClient): Promise<void> {
  try {
    if (redis.status === 'ready') await redis.quit();
  } catch {
    // Already gone: nothing to flush.
  } finally {
    redis.disconnect();
  }
}

function clientOptions(options: RedisStoreOptions): RedisOptions {
  const maxDelay = options.maxReconnectDelayMs ?? 500;
  return {
    lazyConnect: true,
    // Fail fast while disconnected: a queued append would be acknowledged late or twice.
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 2000,
    connectTimeout: 5000,
    retryStrategy: (attempt) => Math.min(50 * attempt, maxDelay),
    // RESP2: the replies the store parses are the same on every Redis it supports.
    protocol: 2,
    scripts: {
      pckClaim: { lua: claimScript, numberOfKeys: 1 },
      pckRelease: { lua: releaseScript, numberOfKeys: 1 },
      pckRenew: { lua: renewScript, numberOfKeys: 1 },
      // The number of claim keys varies per batch: given as the first argument.
      pckAppendFenced: { lua: appendFencedScript },
      pckCompact: { lua: compactScript, numberOfKeys: 5 },
      pckRead: { lua: readScript, numberOfKeys: 3 },
      ...sandboxStateScripts,
    },
  };
}

async function loadClientModule(load: RedisStoreOptions['loadClient']): Promise<RedisClientModule> {
  try {
    if (load) return await load();
    return (await import('ioredis')) as unknown as RedisClientModule;
  } catch (error) {
    throw new StoreSetupError(missingClientMessage(error), { cause: error });
  }
}

/** The two ways Node says a module is not installed: require's and import's. */
const notFoundCodes = new Set(['MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND']);

/**
 * Why the client module did not load, as one line: the install command and the other stores. Node's own text is left
 * out when ioredis is simply not installed (it carries a require stack of the kit's files), and otherwise cut to its
 * first line, which names what went wrong inside ioredis.
 */
function missingClientMessage(error: unknown): string {
  const first = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim();
  const absent = notFoundCodes.has(String((error as { code?: unknown }).code)) && first.includes("'ioredis'");
  const why = absent ? 'that is not installed' : `that could not be loaded (${clause(first)})`;
  return kitMessage(
    `A redis:// store needs the Redis client ioredis, an optional peer dependency ${why}. Install it next to the kit with "npm install --save-dev ioredis", or start with another store: --store memory: (the default, this process only) or --store file:<path> (one process, kept over restarts).`,
  );
}

/** Streams with an exclusive XRANGE start and XSETID need Redis 6.2; say so at open rather than fail later. */
async function checkServer(redis: RedisClient): Promise<void> {
  const info = await redis.info('server');
  const version = /redis_version:(\d+)\.(\d+)/.exec(info);
  if (!version) return;
  const [major, minor] = [Number(version[1]), Number(version[2])];
  if (major < 6 || (major === 6 && minor < 2)) {
    throw new StoreUnavailableError(
      `the Redis store needs Redis 6.2 or newer, and the server runs ${major}.${minor}: upgrade Redis`,
    );
  }
}

function checkUrl(url: string): void {
  if (!/^rediss?:\/\//.test(url)) {
    throw new TypeError(
      kitMessage(
        `A Redis store URL starts with redis:// or rediss:// (got "${redactUrl(url)}"): e.g. redis://127.0.0.1:6379.`,
      ),
    );
  }
}

/**
 * The kit's own `prefix` query parameter, taken off the URL (the client would read it as one of its options); the
 * URL's other parameters go to the client as they are.
 */
function splitPrefix(storeUrl: string): { url: string; prefix: string | undefined } {
  const query = storeUrl.indexOf('?');
  if (query < 0) return { url: storeUrl, prefix: undefined };
  const params = new URLSearchParams(storeUrl.slice(query + 1));
  const prefix = params.get('prefix') ?? undefined;
  params.delete('prefix');
  const rest = params.toString();
  return { url: storeUrl.slice(0, query) + (rest ? `?${rest}` : ''), prefix };
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  return url.replace(/^(rediss?:\/\/[^:@/]*:)[^@/]*@/, '$1***@');
}

/** A record as JSON; a value JSON cannot hold (a BigInt, a cycle) is the caller's bug, said as a TypeError. */
function serialize(record: StoreRecord): string {
  try {
    return JSON.stringify(record);
  } catch (error) {
    throw new TypeError(kitMessage(`A store record of type "${record.t}" is not JSON: ${errorLine(error)}.`));
  }
}

/** One MULTI transaction adding `records` to the stream `log`, in order; resolves with the last one's id. */
async function appendBatch(redis: ScriptedClient, log: string, records: readonly StoreRecord[]): Promise<string> {
  const batch = redis.multi();
  for (const record of records) batch.xadd(log, '*', 'r', serialize(record));
  return String(checkExec(await batch.exec()).at(-1));
}

/** One script call appending `records` in order, each fenced one only while `owner` holds its claim. */
async function appendFencedBatch(
  redis: ScriptedClient,
  keys: RedisStoreKeys,
  records: readonly StoreRecord[],
  fences: readonly (string | undefined)[],
  owner: string,
): Promise<FencedAppendResult> {
  const claimKeys: string[] = [];
  const indexOf = new Map<string, number>();
  const args: string[] = [owner];
  records.forEach((record, i) => {
    const fence = fences[i];
    let k = 0;
    if (fence !== undefined) {
      k = indexOf.get(fence) ?? 0;
      if (k === 0) {
        claimKeys.push(keys.claim(fence));
        k = claimKeys.length;
        indexOf.set(fence, k);
      }
    }
    args.push(String(k), serialize(record));
  });
  const [last, lost] = await redis.pckAppendFenced(1 + claimKeys.length, keys.log, ...claimKeys, ...args);
  return { position: last === '' ? undefined : last, lost: lost.map((n) => n - 1) };
}

/** The replies of a MULTI, or its first error. */
function checkExec(results: [Error | null, unknown][] | null): unknown[] {
  // null: the transaction was discarded (the connection dropped under it).
  if (results === null) throw new Error('the MULTI transaction was discarded');
  for (const [error] of results) if (error) throw error;
  return results.map(([, reply]) => reply);
}

/** A position: a stream id, and for the snapshot's `0-n` ids the compaction generation that wrote them. */
interface ParsedPosition {
  readonly id: string;
  readonly generation?: number;
}

const positionPattern = /^(\d+)-(\d+)(?::(\d+))?$/;

function parsePosition(position: string): ParsedPosition {
  const match = positionPattern.exec(position);
  if (!match) {
    throw new TypeError(
      kitMessage(`"${position}" is not a position of the Redis store: pass one that readAfter returned.`),
    );
  }
  const id = `${match[1]}-${match[2]}`;
  return match[3] === undefined ? { id } : { id, generation: Number(match[3]) };
}

function compareIds(a: string, b: string): number {
  const [am = 0n, as = 0n] = a.split('-').map(BigInt);
  const [bm = 0n, bs = 0n] = b.split('-').map(BigInt);
  if (am !== bm) return am < bm ? -1 : 1;
  return as === bs ? 0 : as < bs ? -1 : 1;
}

/** Snapshot records uploaded per command while compacting (a bounded argument list per round trip). */
const UPLOAD_CHUNK = 500;
/** A scratch list a compactor died uploading expires after this long (ms); the stream was never touched. */
const SCRATCH_TTL_MS = 600_000;

/**
 * Compaction: the snapshot goes to a scratch list of this compaction's own (in chunks, pipelined), then one script
 * checks the fence and the compaction point, swaps it in and trims the stream (redis-scripts.ts). A compactor that
 * dies while uploading leaves an expiring scratch list and the store as it was.
 */
async function compact(
  redis: ScriptedClient,
  keys: RedisStoreKeys,
  snapshot: readonly StoreRecord[],
  upTo: string,
  options: CompactOptions = {},
): Promise<boolean> {
  const point = parsePosition(upTo).id;
  const covers = options.covers ? parsePosition(options.covers.upTo).id : '';
  const scratch = keys.scratch(globalThis.crypto.randomUUID());
  const upload = redis.pipeline();
  for (let i = 0; i < snapshot.length; i += UPLOAD_CHUNK) {
    upload.rpush(scratch, ...snapshot.slice(i, i + UPLOAD_CHUNK).map(serialize));
    if (i === 0) upload.pexpire(scratch, SCRATCH_TTL_MS);
  }
  if (snapshot.length > 0) checkExec(await upload.exec());
  const fence = options.fence;
  const answer = await redis.pckCompact(
    ...[keys.log, keys.snapshot, keys.compaction, scratch, fence ? `${keys.claim(fence.key)}` : keys.compaction],
    ...[point, covers ? (options.covers?.origin ?? '') : '', covers, fence?.owner ?? ''],
    String(Math.max(0, Math.floor(options.keepMs ?? 0))),
    String(Math.max(0, Math.floor(options.keepMax ?? 0))),
  );
  return answer > 0;
}

/**
 * Reads after `position` in one script (atomic against a compaction). A position a compaction made stale starts
 * over from the snapshot, its first record marked `start`: the reader rebuilds its view. Positions: a stream id; a
 * snapshot entry `0-<n>:<generation>`; a stream id read through a snapshot, while its covered records may follow,
 * `<id>:<generation>` (those records, already in the snapshot, come back as a `snap.covered` record of no module).
 */
async function readAfter(
  redis: ScriptedClient,
  keys: RedisStoreKeys,
  position: string | undefined,
  limit: number,
  seen: ReturnType<typeof backlogMeter>,
): Promise<readonly PositionedRecord[]> {
  const count = Math.max(1, Math.floor(limit));
  const parsed = position === undefined ? undefined : parsePosition(position);
  const snapIndex = parsed?.generation !== undefined && parsed.id.startsWith('0-') ? parsed.id.slice(2) : undefined;
  const args =
    parsed === undefined
      ? ['start', '0', '']
      : snapIndex !== undefined
        ? ['snap', snapIndex, String(parsed.generation)]
        : ['after', parsed.id, parsed.generation === undefined ? '' : String(parsed.generation)];
  const reply = await redis.pckRead(keys.log, keys.snapshot, keys.compaction, ...args, String(count));
  const [generation, , origin, covers, length, restarted, index, snapEntries, tail] = reply;
  seen.saw(length, tail);
  const out: PositionedRecord[] = [];
  const first = Number(index);
  snapEntries.forEach((json, i) => {
    const start = i === 0 && restarted === 1;
    out.push({
      position: `0-${first + i + 1}:${generation}`,
      record: parseEntry(json),
      snapshot: start ? 'start' : true,
    });
  });
  if (restarted === 1 && snapEntries.length === 0) {
    // An empty snapshot still empties the view of a reader whose position was compacted away.
    out.push({ position: `0-0:${generation}`, record: { t: 'snap.empty', o: '' }, snapshot: 'start' });
  }
  const through = first >= 0 || parsed?.generation !== undefined;
  for (const [id, fields] of tail) {
    const covered = through && covers !== '' && compareIds(id, covers) <= 0;
    const record = parseEntry(fields[1]);
    // A settlement (`set`) goes to the store before its writer's view changes (decision 0033), so a snapshot taken
    // meanwhile can cover it without holding it: it is always passed on (applying it twice changes nothing).
    const skip = covered && record.o === origin && record.t !== 'set';
    out.push({
      position: covered ? `${id}:${generation}` : id,
      record: skip ? { t: 'snap.covered', o: origin } : record,
    });
  }
  return out;
}

function parseEntry(json: string | undefined): StoreRecord {
  return JSON.parse(json ?? 'null') as StoreRecord;
}
