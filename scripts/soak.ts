/**
 * `npm run soak`: the soak of the test run (test/soak/run-soak.ts), longer: 300,000 payments over two simulated
 * days with the webhook receiver down, then back up, against the CLI mock as its own process (`npm run build`
 * first). Prints every figure as JSON. `PCK_SOAK_PAYMENTS` and `PCK_SOAK_DAYS` change the size;
 * `PCK_SOAK_NODE_ARGS` passes Node flags to the mock (`--heap-growing-percent=0` runs it with V8's default heap
 * growth, to compare).
 *
 * @module
 */
import { runSoak } from '../test/soak/run-soak.ts';

async function main(): Promise<void> {
  const payments = Number(process.env.PCK_SOAK_PAYMENTS ?? 300_000);
  const days = Number(process.env.PCK_SOAK_DAYS ?? 2);
  const figures = await runSoak({
    payments,
    outageMs: days * 86_400_000,
    batch: 1_000,
    concurrency: 16,
    afterPayments: 5_000,
    checkpoints: [30_000, 100_000, payments].filter((n) => n <= payments),
    progress: (line) => console.error(line),
  });
  console.log(JSON.stringify(figures, null, 2));
}

void main();
