/**
 * Journal entries a store could not keep (decision 0024): counted for `control.store()`, logged as they go.
 *
 * @module
 */
import { kitMessage } from '../../../internal/messages.ts';

/** Counts and logs journal entries (deferred records) lost to a failed write: their requests had been answered. */
export function lossCounter(log: (line: string) => void) {
  let total = 0;
  return {
    total: () => total,
    count(lost: number, reason: string): void {
      if (lost <= 0) return;
      total += lost;
      log(
        kitMessage(
          `${lost} journal entr${lost === 1 ? 'y' : 'ies'} could not be written to the state store (${reason}): their requests had been answered; other replicas and a restart will not list them (${total} so far). Nothing else was lost.`,
        ),
      );
    },
  };
}
