/**
 * How much V8 lets the heap of a long-running CLI server grow past its live data before the next full collection.
 *
 * Node's default lets the old generation grow to up to four times what survived the last full collection. A mock
 * that keeps bounded histories (decision 0013) makes most of its garbage in the old generation: payments and
 * deliveries live for minutes, then their cap evicts them, so with the default a long-running mock's RSS ends up
 * several times its live heap, the rest garbage V8 has not yet collected (decision 0026). A growth of a
 * quarter keeps RSS close to live data, at the price of more frequent (incremental, mostly concurrent) full
 * collections. The flag is read at each collection, so setting it at start-up takes effect.
 *
 * A user who sets it keeps their value: `node --heap-growing-percent=100 node_modules/.bin/payment-contract-kit mock`
 * (Node refuses the flag in `NODE_OPTIONS`). The programmatic API (`startMockServer`) leaves the host process's V8
 * alone: it is the host's to tune.
 *
 * @module
 */
import { setFlagsFromString } from 'node:v8';

/** Percent the old generation may grow past its live size after a full collection (V8 `--heap-growing-percent`). */
export const cliHeapGrowingPercent = 25;

/**
 * Sets V8's heap growth for a long-running CLI server unless the user gave it on Node's command line. Returns
 * whether it did.
 *
 * @example
 * limitHeapGrowth(); // first thing of `payment-contract-kit mock`
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  const given = execArgv.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg));
  if (given) return false;
  setFlagsFromString(`--heap-growing-percent=${cliHeapGrowingPercent}`);
  return true;
}
