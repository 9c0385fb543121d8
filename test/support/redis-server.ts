/**
 * A real Debian `redis-server` for tests: a free port on 127.0.0.1, its own temporary directory, killed and removed
 * in teardown. `.ci/run` installs the package when it is missing; a machine without it fails here with a message
 * that says how to install it, never with a skipped test.
 *
 * @module
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How a test's Redis persists: none (fastest), or an append-only file fsynced on every write. */
export interface RedisServerOptions {
  /** `always`: every acknowledged write is on disk (the restart tests); default: no persistence at all. */
  readonly appendfsync?: 'always';
}

/** A running (or stopped, between `stop` and `start`) test Redis. */
export interface TestRedisServer {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** Its data directory (the append-only file lives here). */
  readonly dir: string;
  /** Stops it with `signal` (SIGKILL: a crash) and waits for the process to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port and directory (a restart keeps what its persistence kept). */
  start(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open, nothing answers; `resume` (SIGCONT) thaws it. */
  pause(): void;
  resume(): void;
  /** Stops it and removes its directory (teardown). */
  close(): Promise<void>;
}

const binary = 'redis-server';
// A child that has not said "Ready" by then is stuck: fail the setup clearly rather than hang the test file.
const readyTimeoutMs = 20_000;

/**
 * Starts `redis-server` on a free port in a fresh temporary directory.
 *
 * @example
 * const redis = await startRedisServer();
 * try { ... redis.url ... } finally { await redis.close(); }
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<TestRedisServer> {
  assertInstalled();
  const dir = await mkdtemp(join(tmpdir(), 'pck-redis-'));
  let port = 0;
  let child: ChildProcess | undefined;
  // A free port can be taken between the probe and the bind by another test file; try a fresh one then.
  for (let attempt = 0; ; attempt += 1) {
    port = await freePort();
    try {
      child = await spawnRedis(port, dir, options);
      break;
    } catch (error) {
      if (attempt >= 4 || !String(error).includes('Address already in use')) {
        await rm(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }
  const server: TestRedisServer = {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      const running = child;
      child = undefined;
      if (running) await kill(running, signal);
    },
    async start() {
      if (child) return;
      child = await spawnRedis(port, dir, options);
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
    async close() {
      server.resume();
      await server.stop('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    },
  };
  return server;
}

function assertInstalled(): void {
  const probe = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      'redis-server is not installed: the Redis store tests need a real server. Install it with "apt-get install -y redis-server" (bash .ci/run does it when it is missing).',
    );
  }
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP port from the probe server');
  return address.port;
}

/** Spawns the server and resolves once it logs that it accepts connections (after loading its file). */
function spawnRedis(port: number, dir: string, options: RedisServerOptions): Promise<ChildProcess> {
  const persistence =
    options.appendfsync === 'always' ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    ...persistence,
    '--daemonize',
    'no',
    '--loglevel',
    'notice',
  ];
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`redis-server did not start in time:\n${output}`)), readyTimeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        // Keep draining its output so a chatty server never blocks on a full pipe.
        child.stdout?.resume();
        resolve(child);
      }
    };
    function fail(error: Error) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`redis-server exited with ${code} before it was ready:\n${output}`)));
  });
}

function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
