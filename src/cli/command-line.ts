/**
 * What every subcommand shares: where it writes, what a server command takes from its process, the usage error it
 * throws for a bad flag, strict flag parsing, and the step that turns the arguments into flags or into an exit code (help printed: 0; a
 * usage mistake printed as one line: 2).
 *
 * @module
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';

/** Where a command writes; tests may capture it. */
export interface CommandIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/** The signals that stop a server command. */
export type StopSignal = 'SIGINT' | 'SIGTERM';

/**
 * What a server command (`mock`, `proxy`) takes from its process besides its output: the variables its flags fall
 * back on, the signals that stop it, and the exit it forces should a stray handle keep the event loop alive after a
 * clean stop. `process` itself is the default; a test passes its own to run the command in process, stop it by
 * emitting "SIGTERM", and keep its worker alive.
 */
export interface CommandProcess {
  readonly env: NodeJS.ProcessEnv;
  on(signal: StopSignal, listener: () => void): unknown;
  off(signal: StopSignal, listener: () => void): unknown;
  /** Without a code, `process.exit` ends with `process.exitCode`. */
  exit(code?: number): void;
}

/**
 * Resolves at the first SIGINT or SIGTERM `host` emits, and stops listening for both then, so a second Ctrl-C gets
 * Node's default (the process ends at once) while the first one's clean stop runs.
 *
 * @example
 * await stopSignal(process);
 * await server.close();
 */
export function stopSignal(host: CommandProcess): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      host.off('SIGINT', stop);
      host.off('SIGTERM', stop);
      resolve();
    };
    host.on('SIGINT', stop);
    host.on('SIGTERM', stop);
  });
}

/** A usage mistake: printed as its one-line message, and the command exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * Parses a command's arguments with `parse`. Answers the flags, or the exit code the command ends with when it asked
 * for help (0, help printed) or made a usage mistake (2, the message printed); any other error is thrown on.
 *
 * @example
 * const flags = parseCommandLine(() => parse(argv), help, io);
 * if (typeof flags === 'number') return flags;
 */
export function parseCommandLine<T extends { readonly help?: boolean }>(
  parse: () => T,
  help: string | (() => string),
  io: CommandIo,
): Exclude<T, { readonly help: true }> | number {
  let flags: T;
  try {
    flags = parse();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`${error.message}\n`);
    return 2;
  }
  if (flags.help) {
    io.stdout.write(typeof help === 'string' ? help : help());
    return 0;
  }
  return flags as Exclude<T, { readonly help: true }>;
}

/** What {@link parseFlags} answers: the flags given, by name, and the positional arguments. */
export interface ParsedFlags {
  readonly values: Record<string, string | boolean | string[] | undefined>;
  readonly positionals: string[];
}

/**
 * Strict `parseArgs` of a command's arguments. A mistake goes to `usage` in node:util's own words, which name the
 * flag, without its advice on positionals (a kit command says what it takes in its help).
 *
 * @example
 * const { values, positionals } = parseFlags(argv, { output: { type: 'string' } }, usage);
 */
export function parseFlags(
  argv: readonly string[],
  options: NonNullable<ParseArgsConfig['options']>,
  usage: (message: string) => never,
  allowPositionals = true,
): ParsedFlags {
  try {
    const { values, positionals } = parseArgs({ args: [...argv], strict: true, allowPositionals, options });
    return { values: values as ParsedFlags['values'], positionals };
  } catch (error) {
    return usage((error as Error).message.replace(/\. To specify.*$/s, '.'));
  }
}
