/**
 * The two steps of the single executable build that print on their own, made quiet about what needs no reader.
 *
 * Node's `--experimental-sea-config` writes "Wrote single executable preparation blob to <file>" to standard error on
 * every successful run, with no option to turn it off; the build says where the executable went itself, so that line
 * is dropped and anything else Node writes (a warning, an error) still shows.
 *
 * postject's `inject` without the warnings LIEF, the binary library compiled into it, prints while it rewrites Node's
 * ELF binary: "warning: Can't find string offset for section name '.note.100'", nine or so per build, about note
 * sections of Node's binary that have no name in its string table. They change nothing in the executable (the
 * single executable tests run what was built), and postject offers no option to turn them off: its WebAssembly
 * module writes them through `console.warn`, so that is filtered for the length of the call, this message only.
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import { inject } from 'postject';

/** Whether a line of standard error is Node's notice that it wrote the preparation blob. */
export function isSeaBlobNotice(line: string): boolean {
  return /^Wrote single executable preparation blob to .+$/.test(line);
}

/**
 * Node's standard error from `--experimental-sea-config` without its success notice: every other line, as written.
 *
 * @example
 * withoutSeaBlobNotice('Wrote single executable preparation blob to /tmp/sea-prep.blob\n') // ''
 */
export function withoutSeaBlobNotice(stderr: string): string {
  return stderr
    .split(/(?<=\n)/)
    .filter((line) => !isSeaBlobNotice(line.replace(/\r?\n$/, '')))
    .join('');
}

/**
 * Runs `node --experimental-sea-config <configFile>` with the Node running this script, passing on what it writes to
 * standard error except its success notice; throws, with that output, when Node fails.
 *
 * @example
 * prepareSeaBlobQuietly(join(work, 'sea-config.json'));
 */
export function prepareSeaBlobQuietly(configFile: string): void {
  const run = spawnSync(process.execPath, ['--experimental-sea-config', configFile], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  const rest = withoutSeaBlobNotice(run.stderr ?? '');
  if (run.error || run.status !== 0)
    throw new Error(
      `[payment-contract-kit] node --experimental-sea-config failed (${run.error?.message ?? `exit ${run.status}`}): ${rest}`,
    );
  if (rest) process.stderr.write(rest);
}

/** Whether a `console.warn` line is LIEF's warning about a note section without a name. */
export function isLiefNoteWarning(text: unknown): boolean {
  return typeof text === 'string' && /^warning: Can't find string offset for section name '\.note[^']*'$/.test(text);
}

/**
 * Runs `work` with LIEF's note-section warnings dropped from `console.warn`; every other warning goes through.
 *
 * @example
 * await withoutLiefNoteWarnings(() => inject(output, 'NODE_SEA_BLOB', blob, { sentinelFuse }));
 */
export async function withoutLiefNoteWarnings<T>(work: () => Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (args.length === 1 && isLiefNoteWarning(args[0])) return;
    warn(...args);
  };
  try {
    return await work();
  } finally {
    console.warn = warn;
  }
}

/** postject's `inject`, quiet about the note sections (see the module's comment). */
export function injectQuietly(...args: Parameters<typeof inject>): ReturnType<typeof inject> {
  return withoutLiefNoteWarnings(() => inject(...args));
}
