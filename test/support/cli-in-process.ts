/**
 * The kit's CLI commands in process for tests, through their `run` functions: output captured, and for the server
 * commands (mock, proxy) a process of their own (the variables given, stop signals the test emits, an exit that
 * ends nothing), the base URL read from the "listening on" line, and every server still running stopped by
 * {@link InProcessServers.stopAll} in teardown. No child process: the commands run in the test's worker.
 *
 * @module
 */
import { EventEmitter } from 'node:events';
import type { CommandIo, CommandProcess, StopSignal } from '../../src/cli/command-line.ts';

/** A command's output, captured. */
export interface CapturedIo {
  readonly io: CommandIo;
  out(): string;
  err(): string;
}

/** Output streams that keep what is written, for one command run. */
export function captureIo(onOut: (text: string) => void = () => {}): CapturedIo {
  let stdout = '';
  let stderr = '';
  return {
    io: {
      stdout: {
        write: (text: string) => {
          stdout += text;
          onOut(stdout);
          return true;
        },
      },
      stderr: {
        write: (text: string) => {
          stderr += text;
          return true;
        },
      },
    },
    out: () => stdout,
    err: () => stderr,
  };
}

/** A process for one command: the variables given, signals only the test sends, and an exit that is only counted. */
export interface TestProcess extends CommandProcess {
  /** Delivers a stop signal, as `kill -TERM` would to the CLI's process. */
  signal(name: StopSignal): void;
  /** The exit codes the command forced (its guard against a stray handle), in order. */
  readonly exits: readonly (number | undefined)[];
}

/** A {@link TestProcess} with `env` as its whole environment (nothing of the test's own `PCK_*` variables). */
export function testProcess(env: NodeJS.ProcessEnv = {}): TestProcess {
  const signals = new EventEmitter();
  const exits: (number | undefined)[] = [];
  return {
    env,
    on: (signal, listener) => signals.on(signal, listener),
    off: (signal, listener) => signals.off(signal, listener),
    exit: (code) => {
      exits.push(code);
    },
    signal: (name) => {
      signals.emit(name);
    },
    exits,
  };
}

/** One server command running in process: its URL once printed, its exit code, and what it printed so far. */
export interface ServerRun {
  /** The URL of its "listening on" line; rejects if it ends first (never unhandled when not awaited). */
  readonly url: Promise<string>;
  readonly exited: Promise<number | undefined>;
  readonly process: TestProcess;
  out(): string;
  err(): string;
}

/** Starts a server command with captured output and its own process. */
export type ServerCommand = (io: CommandIo, process: TestProcess) => Promise<number | undefined>;

/** The server commands of one test file; call `stopAll` in `afterEach`. */
export interface InProcessServers {
  start(command: ServerCommand, env?: NodeJS.ProcessEnv): ServerRun;
  /** Sends SIGTERM to every command still running (once it listens) and waits until each has stopped. */
  stopAll(): Promise<void>;
}

/** A starter whose commands are tracked so a test file's teardown can stop them all. */
export function inProcessServers(): InProcessServers {
  const running = new Set<ServerRun>();
  return {
    start(command, env = {}) {
      const process = testProcess(env);
      let listening: (url: string) => void = () => {};
      const url = new Promise<string>((resolve) => {
        listening = resolve;
      });
      const captured = captureIo((stdout) => {
        const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(stdout);
        if (m) listening(m[1]!);
      });
      const exited = command(captured.io, process);
      const run: ServerRun = {
        url: Promise.race([
          url,
          exited.then(
            (code) => Promise.reject(new Error(`exited (${code}) before printing a URL: ${captured.err()}`)),
            (error: unknown) => Promise.reject(error),
          ),
        ]),
        exited,
        process,
        out: captured.out,
        err: captured.err,
      };
      // Commands that fail on purpose never print a URL; only a test that awaits `url` should see that rejection.
      run.url.catch(() => {});
      running.add(run);
      exited.then(
        () => running.delete(run),
        () => running.delete(run),
      );
      return run;
    },
    async stopAll() {
      const all = [...running];
      // A command listens for its stop signals once it has printed its URL; a signal sent before would be lost.
      await Promise.allSettled(all.map((run) => run.url));
      for (const run of all) run.process.signal('SIGTERM');
      await Promise.allSettled(all.map((run) => run.exited));
      running.clear();
    },
  };
}
