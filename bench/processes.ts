/**
 * Child processes of the benchmark: every server runs in its own process, pinned to the server core when `taskset`
 * is available, so its memory is its own and the load generator (this process) never shares its core.
 *
 * Every child is registered and killed when this process exits, however it exits.
 *
 * @module
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';

/** Which cores the servers and the load generator use; `undefined` when pinning is not possible. */
export interface CorePlan {
  /** `taskset -c` list for server processes. */
  readonly server: string;
  /** `taskset -c` list for this process (the load generator). */
  readonly load: string;
}

let tasksetPath: string | null | undefined;

/** The path of `taskset` (util-linux), or null when it is not installed. */
export function taskset(): string | null {
  if (tasksetPath === undefined) {
    try {
      tasksetPath = execFileSync('which', ['taskset'], { encoding: 'utf8' }).trim() || null;
    } catch {
      tasksetPath = null;
    }
  }
  return tasksetPath;
}

/**
 * Splits the cores between servers and the load generator: the last core for the load generator, the others for
 * servers. Needs `taskset` and at least two cores.
 */
export function planCores(): CorePlan | undefined {
  const cores = availableParallelism();
  if (cores < 2 || !taskset()) return undefined;
  return { server: cores === 2 ? '0' : `0-${cores - 2}`, load: String(cores - 1) };
}

/** Pins every thread of this process to `cpus` (a `taskset -c` list). Returns false when that failed. */
export function pinSelf(cpus: string): boolean {
  const bin = taskset();
  if (!bin) return false;
  try {
    execFileSync(bin, ['-a', '-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Pins every thread of another process (one this process started) to `cpus`. Returns false when that failed. */
export function pinPid(pid: number, cpus: string): boolean {
  const bin = taskset();
  if (!bin || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    execFileSync(bin, ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** How to start one server. */
export interface ServerCommand {
  /** Executable (a path or a name on PATH). */
  readonly command: string;
  readonly args: readonly string[];
  /** Extra environment variables. */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * How the server tells its address: `stdout` waits for the first `http://127.0.0.1:<port>` on stdout or stderr;
   * a number is a port chosen beforehand, polled until it accepts connections.
   */
  readonly address: 'stdout' | number;
}

/** A running server child. */
export interface ServerProcess {
  /** Base URL without a trailing slash, such as `http://127.0.0.1:40123`. */
  readonly url: string;
  readonly pid: number;
  /** `performance.now()` just before the spawn, for cold start timing. */
  readonly spawnedAt: number;
  /** Milliseconds from spawn until the address was known. */
  readonly readyMs: number;
  /**
   * Peak resident set size so far in KiB (`VmHWM`), or null when /proc is not readable. Summed over the process and
   * its descendants: some servers (Prism) run the HTTP server in a child process of their CLI.
   */
  peakRssKb(): number | null;
  /** Current resident set size in KiB (`VmRSS`), summed like {@link ServerProcess.peakRssKb}, or null. */
  rssKb(): number | null;
  /** CPU time (user + system) used so far by the process and its live descendants, in seconds, or null. */
  cpuSeconds(): number | null;
  /** Last lines the child wrote, for error messages. */
  output(): string;
  /** Resolves with the first match of `pattern` in output written from now on, or null after `timeoutMs`. */
  nextOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray | null>;
  /** Sends a signal to the server process. */
  signal(signal: NodeJS.Signals): void;
  /** Stops the child (SIGTERM, then SIGKILL after a grace period) and waits for it to exit. */
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();
let exitHooked = false;

/**
 * Kills `child` and everything it started: each server leads its own process group (`detached`), so a wrapper's own
 * children (the mock behind the proxy-in-front reference) go with it instead of living on after the bench.
 */
function killTree(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', () => {
    for (const child of children) killTree(child);
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      for (const child of children) killTree(child);
      process.exit(130);
    });
  }
}

/** Reads one `kB` field (such as `VmHWM`) of /proc/<pid>/status, or null. */
export function procStatusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** The process and its descendants, from the parent pids in /proc/<pid>/stat. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [root];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // the process ended while we looked
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]!) ?? []));
  return out;
}

function sumOverTree(root: number, read: (pid: number) => number | null): number | null {
  const own = read(root);
  if (own === null) return null;
  let sum = own;
  for (const pid of processTree(root).slice(1)) sum += read(pid) ?? 0;
  return sum;
}

/**
 * On-core time of a process in seconds, summed over its live threads from /proc/<pid>/task/<tid>/schedstat
 * (nanoseconds, where /proc/<pid>/stat counts 10 ms ticks: a 1 s round at 40 % CPU is 40 ticks, so a tick is 2.5 % of
 * the figure), or null when schedstat is not readable. A thread that ended is not counted; Node's threads live as
 * long as the process.
 */
export function procRunSeconds(pid: number): number | null {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  let run = 0;
  let read = 0;
  for (const tid of tasks) {
    try {
      run += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      read++;
    } catch {
      // the thread ended while we looked
    }
  }
  return read === 0 ? null : run / 1e9;
}

/** The core numbers of a `taskset -c` list such as `0`, `0-2` or `0,3`. */
export function coreList(cpus: string): number[] {
  return cpus.split(',').flatMap((part) => {
    const [from, to] = part.split('-').map(Number);
    if (from === undefined || !Number.isInteger(from)) return [];
    const last = to === undefined || !Number.isInteger(to) ? from : to;
    return Array.from({ length: last - from + 1 }, (_, i) => from + i);
  });
}

/**
 * Time the given cores were busy (everything but idle and I/O wait), summed, in seconds, from /proc/stat, or null
 * when it is not readable. Less the server's own CPU over a round, it is what other processes took from the
 * server's core.
 */
export function coresBusySeconds(cpus: string): number | null {
  const wanted = new Set(coreList(cpus).map((n) => `cpu${n}`));
  let text: string;
  try {
    text = readFileSync('/proc/stat', 'utf8');
  } catch {
    return null;
  }
  let busy = 0;
  let found = 0;
  for (const line of text.split('\n')) {
    const fields = line.split(/\s+/);
    if (!wanted.has(fields[0]!)) continue;
    // user nice system idle iowait irq softirq steal (guest time is inside user already)
    const [user, nice, system, , , irq, softirq, steal] = fields.slice(1, 9).map(Number);
    busy += (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0);
    found++;
  }
  return found === 0 ? null : busy / ticksPerSecond();
}

let clockTicks: number | undefined;

/** The kernel's clock ticks per second (`getconf CLK_TCK`, 100 where that fails). */
function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/**
 * CPU time (user + system) of a process in seconds, or null: from schedstat (nanoseconds) where the kernel has it,
 * else from the 10 ms ticks of /proc/<pid>/stat.
 */
export function procCpuSeconds(pid: number): number | null {
  const run = procRunSeconds(pid);
  if (run !== null) return run;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at state; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond();
  } catch {
    return null;
  }
}

/** A free TCP port on 127.0.0.1, for servers that cannot report the port they bound (small race, accepted). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const ADDRESS = /http:\/\/127\.0\.0\.1:(\d+)/;

/**
 * Spawns a server child (pinned to `cpus` when given) and resolves once its address is known. Rejects, after
 * killing the child, when it exits first or `timeoutMs` passes.
 */
export function startServer(
  spec: ServerCommand,
  options: { cpus?: string | undefined; timeoutMs?: number } = {},
): Promise<ServerProcess> {
  hookExit();
  const timeoutMs = options.timeoutMs ?? 30_000;
  const bin = taskset();
  const [command, args] =
    options.cpus && bin ? [bin, ['-c', options.cpus, spec.command, ...spec.args]] : [spec.command, [...spec.args]];
  const started = performance.now();
  // taskset execs the command, so the child's pid is the server's own pid (its /proc/<pid>/status is the server's).
  const child = spawn(command, args, {
    // Every server runs as in production (graphql-js skips its development-only instanceOf checks, Apollo and yoga
    // their development features): each one's best case, and the same environment for all.
    env: { ...process.env, NODE_ENV: 'production', ...spec.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  children.add(child);
  let tail = '';
  let exited = false;
  // Output waiters: each sees only what arrives after it was added.
  const waiters = new Set<{ pattern: RegExp; seen: string; resolve: (m: RegExpExecArray | null) => void }>();
  const exitedPromise = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      children.delete(child);
      resolve();
    });
  });

  const handle = (url: string): ServerProcess => {
    const readyMs = performance.now() - started;
    const pid = child.pid!;
    return {
      url,
      pid,
      spawnedAt: started,
      readyMs,
      peakRssKb: () => sumOverTree(pid, (p) => procStatusKb(p, 'VmHWM')),
      rssKb: () => sumOverTree(pid, (p) => procStatusKb(p, 'VmRSS')),
      cpuSeconds: () => sumOverTree(pid, procCpuSeconds),
      output: () => tail,
      nextOutput(pattern, timeoutMs) {
        return new Promise((resolve) => {
          const waiter = {
            pattern,
            seen: '',
            resolve: (m: RegExpExecArray | null) => {
              clearTimeout(timer);
              waiters.delete(waiter);
              resolve(m);
            },
          };
          const timer = setTimeout(() => waiter.resolve(null), timeoutMs);
          waiters.add(waiter);
        });
      },
      signal(signal) {
        if (!exited) child.kill(signal);
      },
      async stop() {
        if (exited) return;
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
        await exitedPromise;
        clearTimeout(timer);
      },
    };
  };

  return new Promise<ServerProcess>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | undefined, url?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        killTree(child);
        reject(error);
      } else resolve(handle(url!));
    };
    const timer = setTimeout(
      () => finish(new Error(`${spec.command} ${spec.args.join(' ')}: no address within ${timeoutMs} ms.\n${tail}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      // Keep reading forever (a full pipe would block a chatty server), remember only the tail.
      const text = chunk.toString('utf8');
      tail = (tail + text).slice(-4_000);
      for (const waiter of waiters) {
        waiter.seen = (waiter.seen + text).slice(-4_000);
        const match = waiter.pattern.exec(waiter.seen);
        if (match) waiter.resolve(match);
      }
      if (spec.address === 'stdout') {
        const match = ADDRESS.exec(tail);
        if (match) finish(undefined, `http://127.0.0.1:${match[1]}`);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', (error) => finish(error));
    child.once('exit', (code, signal) =>
      finish(new Error(`${spec.command} exited (${signal ?? code}) before it was ready.\n${tail}`)),
    );
    if (typeof spec.address === 'number') {
      const port = spec.address;
      void waitForPort(port, () => settled || exited).then((ok) => {
        if (ok) finish(undefined, `http://127.0.0.1:${port}`);
      });
    }
  });
}

/**
 * Waits until a server is idle (under `threshold` of a core over 100 ms), at most `maxMs`: deferred work of one
 * round (the mock settles payments a second after accepting them) must not run during the next server's round.
 * Resolves to the milliseconds waited.
 */
export async function waitIdle(proc: ServerProcess, maxMs = 3_000, threshold = 0.05): Promise<number> {
  const started = performance.now();
  let last = proc.cpuSeconds();
  if (last === null) return 0;
  while (performance.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = proc.cpuSeconds();
    if (now === null) break;
    const busy = (now - last) / 0.1;
    last = now;
    if (busy < threshold) break;
  }
  return performance.now() - started;
}

async function waitForPort(port: number, stop: () => boolean): Promise<boolean> {
  while (!stop()) {
    try {
      await fetch(`http://127.0.0.1:${port}/`, { method: 'HEAD' });
      return true;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  return false;
}
