/**
 * What the sync layer counts and logs of what the store refused or lost (decision 0024's journal entries, 0033's
 * fenced records): counted for `control.store()`, logged once each.
 *
 * @module
 */
import { kitMessage } from '../../../internal/messages.ts';

/** A batch's fenced records the store refused: their claims, and whether any was already applied to the view. */
export interface FenceLoss {
  readonly keys: ReadonlySet<string>;
  readonly records: number;
  readonly applied: boolean;
}

/** Counts and logs journal entries (deferred records) lost to a failed append: their requests had been answered. */
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

/** Claims whose refusal is remembered, so a work's later refused records are not counted or logged again. */
const FENCE_LOSSES_REMEMBERED = 1024;

/**
 * Handles what a fenced append refused (decision 0033): the claims are no longer renewed (`lost`), a view that
 * already held the refused records (a delivery's outcome) is rebuilt from the store (`rebuild`), and the work is
 * counted and logged once per claim, however many of its records (a delivery's change and its end may come in two
 * batches).
 */
export function fenceLossCounter(
  log: (line: string) => void,
  lost: (key: string) => void,
  rebuild: () => Promise<void>,
) {
  let total = 0;
  const reported = new Set<string>();
  return {
    total: () => total,
    count(loss: FenceLoss): void {
      for (const key of loss.keys) lost(key);
      if (loss.applied) void rebuild().catch(() => undefined);
      const fresh = [...loss.keys].filter((k) => !reported.has(k));
      if (fresh.length === 0) return;
      for (const k of fresh) {
        reported.add(k);
        // Oldest first out: a Set iterates in insertion order.
        if (reported.size > FENCE_LOSSES_REMEMBERED) reported.delete(reported.values().next().value as string);
      }
      total += fresh.length;
      log(
        kitMessage(
          `this process lost its claim on ${fresh.join(', ')} (it stalled past its lease, e.g. a long GC pause or a stopped process) and another replica took the work over: the store refused its record${loss.records === 1 ? '' : 's'} of that work and this process dropped ${loss.records === 1 ? 'it' : 'them'}${loss.applied ? ', rebuilding its state from the store' : ''}. Nothing is recorded twice; a webhook attempt already sent may reach the receiver again from the other replica (receivers de-duplicate by uuid and status). If this repeats, raise store.leaseMs.`,
        ),
      );
    },
  };
}
