/**
 * Polling for a condition that nothing signals, for the suites of replicas sharing a store: they wait on real leases
 * and real store round trips, which tell no one when they are done (see test/architecture/no-sleeps.test.ts).
 * Anything with a signal waits on it instead (test/support/changes.ts).
 *
 * @module
 */

/**
 * Resolves once `done()` holds (it may answer a promise), checked now and every 10 ms; rejects after `ms` real ms,
 * naming `what`.
 *
 * @example
 * await waitUntil(async () => (await app.control.deliveries()).length === 2, 'both deliveries made');
 */
export async function waitUntil(done: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
