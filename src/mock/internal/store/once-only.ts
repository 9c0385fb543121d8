/**
 * Once-only work on a shared state store: what the settlement (and the webhooks' progress) asks of the store to run
 * a payment's settlement in exactly one process, with its outcome fenced by the claim.
 *
 * @module
 */
import type { RecordBody } from './records.ts';

/**
 * Once-only work with a state store: `work` runs in the one process that wins the claim on `key`; a
 * loser re-checks `needed` after the lease and claims again, which is how a survivor takes over a dead process's
 * work. `holdWhile` keeps the claim renewed after the work (its webhook is still being delivered).
 */
export interface OnceOnly {
  // biome-ignore lint/suspicious/noConfusingVoidType: work with no fenced outcome returns nothing.
  run(key: string, job: { needed(): boolean; work(): FencedWork | undefined | void; holdWhile?(): boolean }): void;
}

/**
 * Once-only work whose outcome is fenced (decision 0033): `records` go to the store only while the claim is still
 * this process's; `commit` then changes the view and starts the side effects (the webhook). A holder that stalled
 * past its lease is refused and never commits: no local change, nothing sent.
 */
export interface FencedWork {
  readonly records: readonly RecordBody[];
  commit(): void;
}
