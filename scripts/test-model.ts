/**
 * `npm run test:model`: long runs of the model-based tests (test/model/) outside vitest. Every deployment but the
 * replicas by default; `--replicas` runs two and three replicas of the CLI mock on one Redis instead (on demand:
 * the replication the kit has today does not hold). A failing run prints fast-check's report: its seed, its path
 * and the shrunk command list with its `replayPath`; `--seed S --path P --replay-path R` replays exactly that.
 *
 *   npm run test:model -- --runs 10000 --seed 38
 *   npm run test:model -- --deployment msw --runs 500
 *   npm run test:model -- --deployment browser-worker --runs 100 --seed 38
 *   npm run test:model -- --replicas --runs 50
 *
 * @module
 */
import { parseArgs } from 'node:util';
import { type BrowserWorkerDeployment, browserWorkerDeployment } from '../test/model/browser-deployment.ts';
import type { Deployment } from '../test/model/deployment.ts';
import { inProcessDeployment, mswDeployment } from '../test/model/deployments.ts';
import { cliDeployment, proxyDeployment, replicaDeployment } from '../test/model/process-deployments.ts';
import { runModel } from '../test/model/run-model.ts';
import { startRedisServer } from '../test/support/redis-server.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '200' },
    seed: { type: 'string' },
    path: { type: 'string' },
    'replay-path': { type: 'string' },
    'max-commands': { type: 'string', default: '40' },
    deployment: { type: 'string', multiple: true },
    replicas: { type: 'boolean', default: false },
  },
});

// fast-check replays a shrunk command list only with its replayPath: with the path alone it finds no sequence and
// the run would report 0 disagreements.
if (values.path !== undefined && values['replay-path'] === undefined) {
  console.error(
    '[payment-contract-kit] test:model: --path needs --replay-path too: the replayPath="…" printed beside the counterexample.',
  );
  process.exit(2);
}

const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const numRuns = Number(values.runs);
const maxCommands = Number(values['max-commands']);

const deployments: Record<string, () => Promise<Deployment>> = {
  'in-process': inProcessDeployment,
  msw: mswDeployment,
  cli: () => cliDeployment(),
  file: () => cliDeployment('file'),
  proxy: proxyDeployment,
  'browser-worker': browserWorkerDeployment,
};

async function runOne(name: string, make: () => Promise<Deployment>): Promise<boolean> {
  const deployment = await make();
  const started = Date.now();
  try {
    const summary = await runModel(deployment, {
      numRuns,
      seed,
      maxCommands,
      path: values.path,
      replayPath: values['replay-path'],
    });
    const took = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `${name}: ${summary.sequences} sequences, ${summary.commands} commands, ${summary.payments} payments, ${summary.webhooks} webhooks awaited, 0 disagreements (seed ${seed}, ${took} s)${trafficOf(deployment)}`,
    );
    return true;
  } catch (error) {
    console.log(`${name}: DISAGREEMENT (seed ${seed})\n${error instanceof Error ? error.message : String(error)}`);
    if (error instanceof Error && error.cause instanceof Error) console.log(`cause: ${error.cause.message}`);
    return false;
  } finally {
    await deployment.close();
  }
}

/** A deployment that reaches its mock through a page says how many requests crossed in how many round trips. */
function trafficOf(deployment: Deployment): string {
  if (!('traffic' in deployment)) return '';
  const { requests, roundTrips } = (deployment as BrowserWorkerDeployment).traffic();
  return `; ${requests} requests in ${roundTrips} page round trips`;
}

let ok = true;
if (values.replicas) {
  const redis = await startRedisServer();
  try {
    for (const replicas of [2, 3])
      ok = (await runOne(`${replicas} replicas`, () => replicaDeployment(replicas, redis.url, seed))) && ok;
  } finally {
    await redis.close();
  }
} else {
  const names = values.deployment ?? Object.keys(deployments);
  for (const name of names) {
    const make = deployments[name];
    if (!make) throw new Error(`--deployment: "${name}" is not one of ${Object.keys(deployments).join(', ')}`);
    ok = (await runOne(name, make)) && ok;
  }
}
process.exit(ok ? 0 : 1);
