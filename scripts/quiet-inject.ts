/**
 * postject's `inject` without the warnings LIEF, the binary library compiled into it, prints while it rewrites Node's
 * ELF binary: "warning: Can't find string offset for section name '.note.100'", nine or so per build, about note
 * sections of Node's binary that have no name in its string table. They change nothing in the executable (the
 * single executable tests run what was built), and postject offers no option to turn them off: its WebAssembly
 * module writes them through `console.warn`, so that is filtered for the length of the call, this message only.
 *
 * @module
 */
import { inject } from 'postject';

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
