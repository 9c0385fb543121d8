/**
 * Whether this process is the kit's single executable (`npm run build:binary`): its entry marks it before the CLI
 * runs, so the few places that differ (what `verify` can run) ask here instead of probing `node:sea`, which the
 * Node 20 releases before 20.12 do not have.
 *
 * @module
 */

let active = false;

/** Marks this process as the single executable (its entry calls it first); `false` undoes it, for tests. */
export function markSingleExecutable(value = true): void {
  active = value;
}

/**
 * Whether this process is the single executable.
 *
 * @example
 * if (isSingleExecutable()) console.error('dynamic verification needs the npm package');
 */
export function isSingleExecutable(): boolean {
  return active;
}
