/**
 * What every subcommand shares: where it writes, the usage error it throws for a bad flag, and the step that turns
 * the arguments into flags or into an exit code (help printed: 0; a usage mistake printed as one line: 2).
 *
 * @module
 */

/** Where a command writes; tests may capture it. */
export interface CommandIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
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
