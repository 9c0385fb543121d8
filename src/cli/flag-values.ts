/**
 * Values of command-line flags and `PCK_*` variables shared by the commands that take them (`mock`, `proxy`): whole
 * numbers within bounds and booleans, each refused with a usage error (exit code 2) that names the flag and the value.
 *
 * @module
 */
import { kitMessage } from '../internal/messages.ts';
import { UsageError as CommandUsageError } from './command-line.ts';

/** A usage mistake of a command: its message with the library prefix, printed as one line; exit code 2. */
export class UsageError extends CommandUsageError {
  constructor(message: string) {
    super(kitMessage(message));
  }
}

/**
 * `raw` as a whole number from `min` to `max`, or a {@link UsageError} naming `--<flag>`.
 *
 * @example
 * integer('port', '4010', 0, 65535); // 4010
 */
export function integer(flag: string, raw: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(
      `--${flag} must be a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}; got "${raw}".`,
    );
  return n;
}

/**
 * An environment variable read as a boolean (`1`/`true`/`yes`/`on` or `0`/`false`/`no`/`off`/empty), or a
 * {@link UsageError} naming the variable.
 *
 * @example
 * booleanEnv('PCK_QUIET', '1'); // true
 */
export function booleanEnv(name: string, raw: string): boolean {
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['', '0', 'false', 'no', 'off'].includes(v)) return false;
  throw new UsageError(`${name} must be true or false (1/0); got "${raw}".`);
}
