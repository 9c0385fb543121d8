/**
 * The Redis state store (`redis://` / `rediss://`, Node only): any number of mock processes share one sandbox
 * through one Redis, which holds the sandbox's state itself (decision 0040): each part reads and changes it through
 * its port, one Lua script or pipeline per step (redis-sandbox-state.ts). The client, ioredis, is an optional peer
 * dependency loaded only here.
 *
 * While Redis is down every call rejects at once with {@link StoreUnavailableError} (no offline queue, no resend: a
 * change is acknowledged only by Redis itself); the client reconnects by itself and the same store object works
 * again once Redis answers. Redis's own persistence decides what survives its restart (`appendfsync always` keeps
 * every acknowledged change).
 *
 * @module
 */
import type { Redis as RedisClient, RedisOptions } from 'ioredis';
import { clause, errorLine, kitMessage } from '../../../internal/messages.ts';
import { type SandboxStateClient, sandboxStatePorts, sandboxStateScripts } from './redis-sandbox-state.ts';
import type { SharedStateStore } from './sandbox-store.ts';
import { StoreSetupError, StoreUnavailableError } from './store-errors.ts';

/** Options of {@link createRedisStore}. */
export interface RedisStoreOptions {
  /**
   * Prefix of every key the store writes (default `pck:`, or the URL's `?prefix=` parameter): several sandboxes
   * share one Redis under different prefixes and never see each other's state or counters.
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

type ScriptedClient = RedisClient & SandboxStateClient;

/** The counter key `name` of the sandbox under `prefix` (the boot number). */
export function redisCounterKey(prefix: string, name: string): string {
  return `${prefix}counter:${name}`;
}

/**
 * Creates the Redis store for `storeUrl` (`redis://[user:password@]host:port[/db][?prefix=name:]`, or `rediss://`
 * for TLS). Nothing connects until `open()`.
 *
 * @example
 * const store = createRedisStore('redis://127.0.0.1:6379', { keyPrefix: 'staging:' });
 * await store.open();
 */
export function createRedisStore(storeUrl: string, options: RedisStoreOptions = {}): SharedStateStore {
  checkUrl(storeUrl);
  const { url, prefix: urlPrefix } = splitPrefix(storeUrl);
  const prefix = options.keyPrefix ?? urlPrefix ?? defaultRedisKeyPrefix;
  const where = redactUrl(url);
  let client: ScriptedClient | undefined;
  let lastError: unknown;
  let closed = false;

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

  /**
   * A port's step. `write`: a script sent on a ready connection may have run, and a dropped connection or a time-out
   * cannot tell whether Redis applied it before it died. Not ready: ioredis refuses at once (no offline queue), so
   * nothing was sent.
   */
  async function run<T>(work: (redis: ScriptedClient) => Promise<T>, write = false): Promise<T> {
    const redis = connected();
    const sent = write && redis.status === 'ready';
    // A caller's misuse (a value JSON cannot hold) is not an outage.
    return work(redis).catch((error: unknown) => {
      throw error instanceof TypeError ? error : unavailable(error, sent);
    });
  }

  return {
    kind: 'redis',
    async open() {
      if (client) return;
      client = await connectClient(url, options, (error) => {
        lastError = error;
      }).catch((error: unknown) => {
        throw unavailable(error);
      });
    },
    increment(name) {
      return run((redis) => redis.incr(redisCounterKey(prefix, name)));
    },
    ...sandboxStatePorts(run, prefix),
    async close() {
      if (closed) return;
      closed = true;
      const redis = client;
      client = undefined;
      if (redis) await closeClient(redis);
    },
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
    // Fail fast while disconnected: a queued change would be acknowledged late or twice.
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 2000,
    connectTimeout: 5000,
    retryStrategy: (attempt) => Math.min(50 * attempt, maxDelay),
    // RESP2: the replies the store parses are the same on every Redis it supports.
    protocol: 2,
    scripts: sandboxStateScripts,
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

/** The journal's stream reads with an exclusive XRANGE start, new in Redis 6.2; say so at open rather than fail later. */
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
