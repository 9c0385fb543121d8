/**
 * The usage error of the commands whose flags come from an option table (`mock`, `proxy`, `verify`): its message
 * carries the library prefix and is printed as one line; exit code 2. The values themselves are read by the kinds of
 * `src/internal/option-table.ts`.
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
