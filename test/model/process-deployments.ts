/**
 * The deployments with a process or a socket (integration tier): the CLI mock over real HTTP, the CLI on a `file:`
 * store SIGKILLed and restarted, and the validating proxy in front of the mock (webhooks through it as well). Their
 * clocks run with real time, so the model reads each answer's window; the settle delay is long (60 s) so that only
 * the control API settles a payment within a run.
 *
 * @module
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer } from '../../src/mock/index.ts';
import { startProxy } from '../../src/proxy/index.ts';
import { type CliRun, cliProcesses } from '../support/cli-process.ts';
import {
  checkedSender,
  createReceiver,
  type Deployment,
  modelMockOptions,
  type Receiver,
  serveReceiver,
} from './deployment.ts';

/** Long enough that real time never settles a payment within one sequence. */
export const processSettleDelayMs = 60_000;

const httpSender = (base: () => string) => checkedSender((path, init) => fetch(`${base()}${path}`, init));

/**
 * The CLI mock as a child process over HTTP; with `store`, restartable (SIGKILL, then the same flags again). `from`
 * says which CLI runs: the sources through tsx (tests) or the build (long runs, see cliProcesses).
 */
export async function cliDeployment(store?: 'file', from: 'sources' | 'build' = 'sources'): Promise<Deployment> {
  const receiver = createReceiver();
  const served = await serveReceiver(receiver);
  const dir = await mkdtemp(join(tmpdir(), 'pck-model-'));
  const config = join(dir, 'mock.config.json');
  await writeFile(config, JSON.stringify({ clients: modelMockOptions.clients }));
  const args = ['mock', '--port', '0', '--quiet', '--config', config, '--settle-delay', String(processSettleDelayMs)];
  args.push('--webhook-url', served.url);
  if (store === 'file') args.push('--store', `file:${join(dir, 'sandbox.store')}`);
  const processes = cliProcesses(from);
  let run: CliRun = processes.spawnCli(args);
  let base = await run.url;
  const restart = async () => {
    run.child.kill('SIGKILL');
    await run.exited;
    run = processes.spawnCli(args);
    base = await run.url;
  };
  return {
    name: store === 'file' ? 'CLI on a file: store, SIGKILLed and restarted' : 'CLI over HTTP',
    send: httpSender(() => base),
    wallNow: () => Date.now(),
    frozenClock: false,
    settleDelayMs: processSettleDelayMs,
    receiver,
    ...(store === 'file' ? { restart } : {}),
    async close() {
      processes.killAll();
      await served.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A receiver stand-in that hands every webhook on to a URL known only later (the proxy's webhook path). */
function relayTo(target: () => string): Receiver {
  const inner = createReceiver();
  return {
    ...inner,
    handle: async (request) => {
      const body = await request.arrayBuffer();
      const answer = await fetch(target(), { method: 'POST', headers: request.headers, body });
      return new Response(null, { status: answer.status });
    },
  };
}

/** The validating proxy in front of the mock (both in this process): requests through it, webhooks through it. */
export async function proxyDeployment(): Promise<Deployment & { proxyDrifts(): readonly { kind: string }[] }> {
  const receiver = createReceiver();
  const served = await serveReceiver(receiver);
  let proxyUrl = '';
  const relay = await serveReceiver(relayTo(() => `${proxyUrl}/webhooks`));
  const mock = await startMockServer({
    ...modelMockOptions,
    port: 0,
    settleDelayMs: processSettleDelayMs,
    webhookUrls: [relay.url],
  });
  const proxy = await startProxy({ upstream: mock.url, port: 0, forwardWebhooks: [served.url], log: false });
  proxyUrl = proxy.url;
  return {
    name: 'through the proxy',
    send: httpSender(() => proxy.url),
    wallNow: () => Date.now(),
    frozenClock: false,
    settleDelayMs: processSettleDelayMs,
    receiver,
    proxyDrifts: () => proxy.report().drifts,
    async close() {
      await proxy.close();
      await mock.close();
      await relay.close();
      await served.close();
    },
  };
}

/**
 * Replicas of the CLI mock on one Redis (`redis://`): each request goes to a replica picked by a seeded generator,
 * and the restart command SIGKILLs one of them and starts it again. A short run is in the integration tier
 * (replicas.test.ts); `npm run test:model -- --replicas` runs long ones.
 */
export async function replicaDeployment(replicas: number, redisUrl: string, seed: number): Promise<Deployment> {
  const receiver = createReceiver();
  const served = await serveReceiver(receiver);
  const dir = await mkdtemp(join(tmpdir(), 'pck-model-'));
  const config = join(dir, 'mock.config.json');
  await writeFile(config, JSON.stringify({ clients: modelMockOptions.clients }));
  const args = ['mock', '--port', '0', '--quiet', '--config', config, '--settle-delay', String(processSettleDelayMs)];
  args.push('--webhook-url', served.url, '--store', redisUrl);
  const processes = cliProcesses();
  const runs: CliRun[] = [];
  const bases: string[] = [];
  for (let i = 0; i < replicas; i += 1) {
    runs.push(processes.spawnCli(args));
    bases.push(await (runs[i] as CliRun).url);
  }
  // A small seeded generator (mulberry32), so a seed replays the same replica choices.
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const restart = async () => {
    const i = Math.floor(next() * replicas);
    (runs[i] as CliRun).child.kill('SIGKILL');
    await (runs[i] as CliRun).exited;
    runs[i] = processes.spawnCli(args);
    bases[i] = await (runs[i] as CliRun).url;
  };
  return {
    name: `${replicas} replicas on one Redis`,
    send: httpSender(() => bases[Math.floor(next() * replicas)] as string),
    wallNow: () => Date.now(),
    frozenClock: false,
    settleDelayMs: processSettleDelayMs,
    receiver,
    restart,
    async close() {
      processes.killAll();
      await served.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
