/**
 * Once-only work with a file store: what the settlement (and the webhooks' progress) hands the store's layer, so a
 * payment's settlement runs once its replay is done and changes the view only once its outcome is durable.
 *
 * @module
 */
import type { RecordBody } from './records.ts';

/**
 * Once-only work with a file store: `work` runs after the log's replay (at once when it is done), when `needed`
 * still says so; a store fault tries it again later.
 */
export interface OnceOnly {
  // biome-ignore lint/suspicious/noConfusingVoidType: work with no outcome to make durable returns nothing.
  run(job: { needed(): boolean; work(): FencedWork | undefined | void }): void;
}

/**
 * Once-only work whose outcome goes to the log first: `records` are appended, and only once they are durable does
 * `commit` change the view and start the side effects (the webhook). A failed append changes nothing.
 */
export interface FencedWork {
  readonly records: readonly RecordBody[];
  commit(): void;
}
