/**
 * `npm run test:model`: long runs of the model-based tests (test/model/) outside vitest. Every deployment but the
 * replicas by default; `--replicas` runs two and three replicas of the CLI mock on one Redis instead (a short run of
 * them is in the integration tier: test/model/replicas.test.ts). A failing run prints fast-check's report: its seed, its path
 * and the shrunk command list with its `replayPath`; `--seed S --path P --replay-path R` replays exactly that.
 *
 *   npm run test:model -- --runs 10000 --seed 38
 *   npm run test:model -- --deployment msw --runs 500
 *   npm run test:model -- --deployment browser-worker --runs 100 --seed 38
 *   npm run test:model -- --replicas --runs 50
 *   npm run test:model -- --deployment file --runs 10000 --seed 49 --minutes 60   # as many as fit in an hour
 *   npm run build && npm run test:model -- --deployment file --built --runs 10000   # the built CLI: faster restarts
 *
 * `--from N` skips the seed's first N sequences: a run that stopped at a disagreement in sequence N (the first number
 * of its path) goes on past it with `--from N+1`, the same seed and the same `--runs`.
 *
 * `--minutes M` starts no sequence after M minutes (the summary counts those that ran); a progress line is printed
 * every 500 sequences, so a long run also shows its rate while it runs.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type BrowserWorkerDeployment, browserWorkerDeployment } from '../test/model/browser-deployment.ts';
import type { Deployment } from '../test/model/deployment.ts';
import { inProcessDeployment, mswDeployment } from '../test/model/deployments.ts';
import { cliDeployment, proxyDeployment, replicaDeployment } from '../test/model/process-deployments.ts';
import { runModel } from '../test/model/run-model.ts';

type ProxyDeployment = Awaited<ReturnType<typeof proxyDeployment>>;

import { startRedisServer } from '../test/support/redis-server.ts';

const usage = `Usage: npm run test:model -- [options]
  --runs N              sequences per deployment (default 200)
  --seed S              fast-check seed (default: random, printed)
  --deployment NAME     one of in-process, msw, cli, file, proxy, browser-worker (repeatable; default all but replicas)
  --replicas            two and three replicas of the CLI mock on one Redis instead
  --max-commands N      commands per sequence at most (default 40)
  --minutes M           start no sequence after M minutes
  --from N              skip the seed's first N sequences
  --path P --replay-path R   replay one shrunk failure, as printed
  --built               run dist/cli (after npm run build) instead of the sources`;

const options = {
  runs: { type: 'string', default: '200' },
  seed: { type: 'string' },
  path: { type: 'string' },
  'replay-path': { type: 'string' },
  'max-commands': { type: 'string', default: '40' },
  deployment: { type: 'string', multiple: true },
  replicas: { type: 'boolean', default: false },
  minutes: { type: 'string' },
  from: { type: 'string' },
  built: { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
} as const;

/** The options, or the usage and exit code 2 for an unknown or malformed one: never a stack trace. */
function parsed() {
  try {
    return parseArgs({ options }).values;
  } catch (error) {
    console.error(`[payment-contract-kit] test:model: ${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
}

const values = parsed();
if (values.help) {
  console.log(usage);
  process.exit(0);
}

// fast-check replays a shrunk command list only with its replayPath: with the path alone it finds no sequence and
// the run would report 0 disagreements.
if (values.path !== undefined && values['replay-path'] === undefined) {
  console.error(
    '[payment-contract-kit] test:model: --path needs --replay-path too: the replayPath="…" printed beside the counterexample.',
  );
  process.exit(2);
}

const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const from = values.from === undefined ? 0 : Number(values.from);
if (from > 0 && values.path !== undefined) {
  console.error('[payment-contract-kit] test:model: --from continues a seed, --path replays one failure: not both.');
  process.exit(2);
}
const numRuns = Number(values.runs) - from;
const maxCommands = Number(values['max-commands']);
const deadline = values.minutes === undefined ? undefined : Date.now() + Number(values.minutes) * 60_000;
const progressEvery = 500;

// `--built`: the CLI deployments run dist/cli (after `npm run build`), whose start takes a fraction of tsx's.
const cliFrom = values.built ? 'build' : 'sources';
if (values.built && !existsSync(join(import.meta.dirname, '../dist/cli/index.js'))) {
  console.error('[payment-contract-kit] test:model: --built runs dist/cli/index.js: run "npm run build" first.');
  process.exit(2);
}

const deployments: Record<string, () => Promise<Deployment>> = {
  'in-process': inProcessDeployment,
  msw: mswDeployment,
  cli: () => cliDeployment(undefined, cliFrom),
  file: () => cliDeployment('file', cliFrom),
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
      // A path of one number starts the seed's sequences there.
      path: from > 0 ? String(from) : values.path,
      replayPath: values['replay-path'],
      deadline,
      onSequence: (n) => {
        if (n % progressEvery === 0)
          console.log(`${name}: ${n} sequences, ${((Date.now() - started) / 1000).toFixed(0)} s`);
      },
    });
    // The proxy's own report judges the same exchanges: none of them may read as drift of the service there either.
    const reported = 'proxyDrifts' in deployment ? (deployment as ProxyDeployment).proxyDrifts() : undefined;
    const service = reported?.filter((d) => d.kind !== 'consumer') ?? [];
    if (service.length > 0)
      throw new Error(`the proxy's report calls the mock's answers drift of the service: ${JSON.stringify(service)}`);
    const took = ((Date.now() - started) / 1000).toFixed(1);
    const cut =
      deadline !== undefined && summary.sequences < numRuns ? ` (stopped at the ${values.minutes}-minute limit)` : '';
    const proxyReport =
      reported === undefined ? '' : `; the proxy's report: ${reported.length} drifts, all the consumer's`;
    console.log(
      `${name}: ${summary.sequences} sequences, ${summary.commands} commands, ${summary.payments} payments, ${summary.webhooks} webhooks awaited, 0 disagreements (seed ${seed}${from > 0 ? `, sequences ${from} to ${from + summary.sequences - 1}` : ''}, ${took} s)${cut}${trafficOf(deployment)}${proxyReport}`,
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
  // Every name is checked before the first run: a typo in the last one must not surface an hour in.
  const unknown = names.find((name) => !Object.hasOwn(deployments, name));
  if (unknown !== undefined) {
    console.error(
      `[payment-contract-kit] test:model: --deployment "${unknown}" is not one of ${Object.keys(deployments).join(', ')}.`,
    );
    process.exit(2);
  }
  for (const name of names) ok = (await runOne(name, deployments[name] as () => Promise<Deployment>)) && ok;
}
process.exit(ok ? 0 : 1);
