/**
 * The kit's CLI as a child process for tests: spawned from the sources through tsx (so a test does not depend on
 * a fresh build), its output collected, its base URL read from the "listening on" line, and every child killed by
 * {@link CliProcesses.killAll} in teardown.
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

/** The project root (where `src/cli/main.ts` lives). */
export const projectRoot = resolve(import.meta.dirname, '../..');

/** One CLI run: the child, its URL once printed, its exit code, and what it printed so far. */
export interface CliRun {
  readonly child: ChildProcess;
  /** The URL of its "listening on" line; rejects if it exits first (never unhandled when not awaited). */
  readonly url: Promise<string>;
  readonly exited: Promise<number | null>;
  out(): string;
  err(): string;
}

/** The spawner of one test file; call `killAll` in `afterEach`. */
export interface CliProcesses {
  spawnCli(args: readonly string[], env?: Record<string, string>): CliRun;
  killAll(): void;
}

/**
 * A spawner whose children are tracked so a test file's teardown can end them all. `from: 'build'` runs the built CLI
 * (dist/cli/index.js, as `npm run build` leaves it) instead of the sources: a long run that restarts the mock
 * thousands of times then starts each in a fraction of tsx's time.
 */
export function cliProcesses(from: 'sources' | 'build' = 'sources'): CliProcesses {
  const cli =
    from === 'build'
      ? [join(projectRoot, 'dist/cli/index.js')]
      : ['--import', 'tsx', join(projectRoot, 'src/cli/main.ts')];
  const children = new Set<ChildProcess>();
  return {
    spawnCli(args, env = {}) {
      const child = spawn(process.execPath, [...cli, ...args], {
        cwd: projectRoot,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.add(child);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => {
        stdout += d;
      });
      child.stderr.on('data', (d) => {
        stderr += d;
      });
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      const url = new Promise<string>((resolveUrl, reject) => {
        child.stdout.on('data', () => {
          const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(stdout);
          if (m) resolveUrl(m[1]!);
        });
        exited.then(() => reject(new Error(`exited before printing a URL: ${stderr}`)));
      });
      // Commands that fail on purpose never print a URL; only a test that awaits `url` should see that rejection.
      url.catch(() => {});
      return { child, url, exited, out: () => stdout, err: () => stderr };
    },
    killAll() {
      for (const c of children) c.kill('SIGKILL');
      children.clear();
    },
  };
}
