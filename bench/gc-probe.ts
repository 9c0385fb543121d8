/**
 * Preloaded (`node --expose-gc --import gc-probe.mjs`) into the mock's process for the memory measurement only: on
 * SIGUSR2 it runs two full garbage collections and prints one line `pck-bench-gc {"heapUsedKb":…,"rssKb":…}` to
 * standard error. Heap after a full collection is what the mock retains; RSS alone swings with the collector's
 * timing. The mock's own code is not touched.
 *
 * @module
 */
const gc = (globalThis as { gc?: () => void }).gc;

process.on('SIGUSR2', () => {
  if (gc) {
    gc();
    gc();
  }
  const { heapUsed, rss } = process.memoryUsage();
  const line = { heapUsedKb: Math.round(heapUsed / 1024), rssKb: Math.round(rss / 1024), gc: gc !== undefined };
  process.stderr.write(`pck-bench-gc ${JSON.stringify(line)}\n`);
});
