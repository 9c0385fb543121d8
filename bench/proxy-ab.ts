/**
 * Paired A/B of proxy builds: one mock of this checkout's build; in front of it, each named proxy (the
 * built CLI of any checkout, or `floor`, the bare passthrough of bench/references); rounds of autocannon alternate
 * over the mock alone and every proxy (order reversed every other round), and each process's own CPU per request
 * is read from `/proc`. Prints medians, per-round values, and the paired per-round ratios of every two proxies, which
 * hold up on a busy host far better than req/s. Servers run on core 0, the load generator on core 1 (`taskset`).
 *
 * Usage (after `npm run build` here and in the other checkout):
 * ROUNDS=12 SECS=2 WL=fees-list,process-payment npx tsx bench/proxy-ab.ts old=/path/to/other/dist/cli/index.js
 * new=dist/cli/index.js floor=floor
 *
 * @module
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { median } from './paired.ts';
import { procCpuSeconds } from './processes.ts';
import { buildReferences, root } from './servers.ts';
import { openSession, type Workload, workloads } from './workloads.ts';

const rounds = Number(process.env.ROUNDS ?? 8);
const seconds = Number(process.env.SECS ?? 2);
const workloadIds = (process.env.WL ?? 'fees-list,process-payment').split(',');
const floorScript = join(root, '.tmp', 'bench', 'references', 'bare-passthrough.mjs');

const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGTERM');
});

interface Target {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
}

/** Starts one Node script on core 0 and resolves with the first loopback URL it prints. */
function start(args: string[]): Promise<Omit<Target, 'name'>> {
  return new Promise((resolve, reject) => {
    const child = spawn('taskset', ['-c', '0', process.execPath, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    children.push(child);
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = /http:\/\/127\.0\.0\.1:(\d+)/.exec(seen);
      if (match) resolve({ url: `http://127.0.0.1:${match[1]}`, pid: child.pid! });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${seen.slice(-500)}`)));
  });
}

const ratio = (a: readonly number[], b: readonly number[]) => {
  const r = a.map((x, i) => x / b[i]!).filter(Number.isFinite);
  return `${median(r).toFixed(2)} (${Math.min(...r).toFixed(2)}–${Math.max(...r).toFixed(2)}, ${r.length} pairs)`;
};

/** One workload: a warm-up second per target, then the rounds; prints the figures. */
async function measure(
  workload: Workload,
  targets: readonly Target[],
  session: Awaited<ReturnType<typeof openSession>>,
) {
  const requests = workload.load('mock', session).requests;
  const cpu: Record<string, number[]> = Object.fromEntries(targets.map((t) => [t.name, []]));
  const rps: Record<string, number[]> = Object.fromEntries(targets.map((t) => [t.name, []]));
  for (const t of targets) await autocannon({ url: t.url, connections: 8, duration: 1, requests });
  for (let round = 0; round < rounds; round++) {
    for (const t of round % 2 ? [...targets].reverse() : targets) {
      const before = procCpuSeconds(t.pid) ?? 0;
      const result = await autocannon({ url: t.url, connections: 8, duration: seconds, requests });
      const used = (procCpuSeconds(t.pid) ?? 0) - before;
      if (result.non2xx + result.errors > 0)
        console.error(`${t.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      cpu[t.name]!.push((used * 1e6) / result.requests.total);
      rps[t.name]!.push(result.requests.total / seconds);
    }
  }
  const load = execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).trim();
  console.log(`\n== ${workload.id}: ${rounds} rounds of ${seconds} s; load average ${load}`);
  for (const t of targets)
    console.log(
      `${t.name}: own CPU µs/request ${median(cpu[t.name]!).toFixed(1)} [${cpu[t.name]!.map((x) => x.toFixed(0)).join(' ')}], req/s ${median(rps[t.name]!).toFixed(0)}`,
    );
  for (const a of targets)
    for (const b of targets)
      if (a !== b && (b.name === 'mock' || (a.name !== 'mock' && a.name > b.name)))
        console.log(`${a.name} ÷ ${b.name}: own CPU per request ${ratio(cpu[a.name]!, cpu[b.name]!)}`);
}

await buildReferences();
execFileSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
const mockCli = join(root, 'dist', 'cli', 'index.js');
const mock = await start([mockCli, 'mock', '--port', '0', '--quiet']);
const targets: Target[] = [{ name: 'mock', ...mock }];
for (const arg of process.argv.slice(2)) {
  const [name, cli] = arg.split('=') as [string, string];
  const args =
    cli === 'floor'
      ? [floorScript, mock.url]
      : [cli, 'proxy', '--upstream', mock.url, '--port', '0', '--host', '127.0.0.1', '--quiet'];
  targets.push({ name, ...(await start(args)) });
}
const session = await openSession('mock', mock.url);
for (const id of workloadIds) await measure(workloads.find((w) => w.id === id)!, targets, session);
process.exit(0);
