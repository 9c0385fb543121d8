/**
 * `npm run bench`: the mock against its references, in one run, as ratios.
 *
 * For every workload it starts the mock, the workload's references and reference (a) (bare node:http, the limit every
 * figure is paired with) as separate child processes pinned to the server core(s), pins itself (the autocannon load
 * generator) to the remaining core, checks one answer of each and warms each up. Then it runs many short rounds in
 * passes: pass r runs round r of every workload (its servers in a balanced order), reading each server's CPU time,
 * the CPU other processes took on its core, and its peak RSS, then one cold start of each server (paired run by run).
 * Every figure is the median of per-round ratios against (a) in the same round, with its spread (report.ts,
 * paired.ts). Then the payment latency at 1, 10 and 100 connections, and the mock's memory while it processes
 * payments. Prints the tables with the targets, writes bench/results/latest-<date>.json (raw, ignored by
 * git) and, for a full run of every workload, bench/results/summary.json and summary.md (committed; which runs
 * write them, summary-files.ts).
 *
 * Flags: --quick (a few minutes), --only <workload,...>, --servers <id,...> (reference (a) always runs), --rounds N,
 * --seconds S, --connections N, --no-latency-curve, --no-in-process, --no-proxy-latency,
 * --payments N, --no-shared-store (the mock on Redis, one and two replicas, beside it on memory), --no-cold-start, --no-memory, --strict (exit 1 when a target fails), --profile (Node servers run
 * with --cpu-prof; one profile per server and workload in .tmp/bench/profiles, named by pid, summarised by `tsx bench/profile-summary.ts`),
 * --baseline <dir> (the built CLI of another checkout runs beside the mock in every workload and cold start, so a
 * change is compared with the code before it in one run; a full such run writes the summary files too, without the
 * baseline's rows).
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type ColdStartRun, ColdStarts } from './cold-start.ts';
import { type InProcessResult, measureInProcess } from './in-process.ts';
import { type LatencyPoint, measureLatencyCurve } from './latency-curve.ts';
import { runLoad } from './load.ts';
import { coreCount, cpuModel, hostLoad } from './machine.ts';
import type { PairedRatio } from './paired.ts';
import { measurePaymentMemory } from './payments-memory.ts';
import {
  coresBusySeconds,
  pinSelf,
  planCores,
  procCpuSeconds,
  type ServerProcess,
  startServer,
  waitIdle,
} from './processes.ts';
import { measureProxyLatency } from './proxy-latency.ts';
import {
  type ColdStart,
  type MemoryResult,
  REFERENCE,
  type RoundResult,
  renderMarkdown,
  renderText,
  type ServerRun,
  summarize,
  type WorkloadRun,
} from './report.ts';
import { defaultRewarmRule, type RewarmOutcome, rewarm } from './rewarm.ts';
import { roundOrder } from './round-order.ts';
import {
  buildReferences,
  isProxyServer,
  mockEntry,
  profileDir,
  root,
  type ServerId,
  serverCommand,
  serverLabels,
  setBaseline,
  steadyNodeFlags,
} from './servers.ts';
import { settingsLine } from './settings-line.ts';
import { measureSharedStore } from './shared-store.ts';
import type { SharedStoreResult } from './shared-store-report.ts';
import { FULL_RUN, withoutBaseline, writesSummary } from './summary-files.ts';
import { generateToken, openSession, type Workload, type WorkloadLoad, workloads } from './workloads.ts';

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string' },
    payments: { type: 'string' },
    'no-cold-start': { type: 'boolean', default: false },
    'no-memory': { type: 'boolean', default: false },
    'no-latency-curve': { type: 'boolean', default: false },
    'no-in-process': { type: 'boolean', default: false },
    'no-proxy-latency': { type: 'boolean', default: false },
    'no-shared-store': { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    baseline: { type: 'string' },
    servers: { type: 'string' },
  },
});

const quick = flags.quick;
// Many short rounds: the host switches speed for tens of seconds at a time, so each pair (a server and (a) in the
// same round) should sit inside one speed; the median of many pairs is the figure (decision 0002).
const settings = {
  rounds: Number(flags.rounds ?? (quick ? 3 : FULL_RUN.rounds)),
  seconds: Number(flags.seconds ?? (quick ? 0.5 : FULL_RUN.seconds)),
  warmupSeconds: quick ? 0.5 : 2,
  /** Unmeasured slices right before each measured round, until CPU per request settles (bench/rewarm.ts). */
  rewarmSliceSeconds: quick ? 0.1 : 0.2,
  rewarmRule: quick ? { minSlices: 1, maxSlices: 1, tolerance: 0.05 } : defaultRewarmRule,
  connections: Number(flags.connections ?? FULL_RUN.connections),
  coldRuns: quick
    ? { mock: 2, 'rest-token': 2, prism: 1, yoga: 1, apollo: 1 }
    : { mock: 12, 'rest-token': 12, prism: 12, yoga: 12, apollo: 12 },
  payments: Number(flags.payments ?? (quick ? 20_000 : FULL_RUN.payments)),
  paymentChunks: quick ? 4 : 10,
  /** Soft budget for the throughput rounds; later rounds are skipped (each server keeps at least one). */
  roundsBudgetSeconds: quick ? 60 : 900,
  /** Connection counts of the payment latency curve. */
  latencyConnections: quick ? [1, 10] : [1, 10, 100],
};

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const loadAtStart = hostLoad();

const selected = flags.only ? workloads.filter((w) => flags.only!.split(',').includes(w.id)) : [...workloads];
if (selected.length === 0) throw new Error(`[payment-contract-kit] bench: --only matched no workload.`);

const machineCores = coreCount();
const cores = planCores();
const pinned = cores ? pinSelf(cores.load) : false;
const serverCpus = pinned ? cores?.server : undefined;
const pinning = `${
  pinned
    ? `servers on core ${cores!.server}, load generator on core ${cores!.load} (taskset)`
    : 'no core pinning (needs taskset and 2 cores)'
}; servers under load run with ${steadyNodeFlags.join(' ')} (decision 0038)`;
log(pinning);

await buildReferences();
const entry = mockEntry();
const withMock = entry !== undefined;
if (flags.baseline !== undefined) {
  if (!withMock) throw new Error('[payment-contract-kit] bench: --baseline needs the mock under test built.');
  setBaseline(flags.baseline);
  log(`baseline: the built CLI in ${flags.baseline}`);
}
/** Servers that run beside the mock wherever it runs. */
const besideMock: readonly ServerId[] = flags.baseline !== undefined ? ['baseline'] : [];
/** The servers that run in place of `server`: the mock with those beside it (none when unbuilt), else itself. */
const inPlaceOf = (server: ServerId): ServerId[] =>
  server !== 'mock' ? [server] : withMock ? [server, ...besideMock] : [];
/** `--servers mock,yoga`: run only these of each workload's servers (reference (a) always runs). */
const onlyServers = flags.servers?.split(',').map((s) => s.trim());
/** A workload's servers, with reference (a) added where the workload does not list it: every figure pairs with it. */
const serversOf = (workload: Workload): ServerId[] => {
  const servers = workload.servers
    .filter((s) => onlyServers === undefined || onlyServers.includes(s))
    .flatMap(inPlaceOf);
  return servers.includes(REFERENCE) ? servers : [...servers, REFERENCE];
};
// The round budget was set for the plain server list; servers added beside the mock get their share on top, so the
// last workload of a --baseline run is not left with one round.
const plainServers = selected.reduce((n, w) => n + w.servers.length, 0);
const roundsBudgetSeconds =
  (settings.roundsBudgetSeconds * selected.reduce((n, w) => n + serversOf(w).length, 0)) / plainServers;
const mockVia =
  entry === 'cli'
    ? 'mock started with its built CLI (`mock --port 0 --quiet`)'
    : 'mock started with startMockServer() (no CLI built)';
if (!withMock) log('neither the built CLI nor src/mock exists: running the references only.');
else log(mockVia);

const benchStarted = performance.now();
const elapsed = () => (performance.now() - benchStarted) / 1000;

function roundFrom(
  sample: Awaited<ReturnType<typeof runLoad>>,
  cpuSeconds: number | null,
  otherCpuSeconds: number | null,
  proxyCpuSeconds?: number | null,
): RoundResult {
  const { rps, p50, p99, requests, non2xx, errors, failures, seconds } = sample;
  const perSecond = (cpu: number | null) => (cpu === null || seconds <= 0 ? null : cpu / seconds);
  return {
    rps,
    p50,
    p99,
    requests,
    non2xx,
    errors,
    failures,
    serverCpu: perSecond(cpuSeconds),
    otherCpu: perSecond(otherCpuSeconds),
    ...(proxyCpuSeconds === undefined ? {} : { proxyCpu: perSecond(proxyCpuSeconds) }),
  };
}

/** The pid of the proxy process inside the proxy-in-front server (it prints `proxy process <pid>`), if known. */
function proxyPidOf(proc: ServerProcess): number | undefined {
  const match = /proxy process (\d+)/.exec(proc.output());
  return match ? Number(match[1]) : undefined;
}

/** Starts a server, retrying twice: another engineer's build may be rewriting dist/ for a moment. */
async function startWithRetry(server: ServerId): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServer(await serverCommand(server, { steady: true, profile: flags.profile }), {
        cpus: serverCpus,
      });
    } catch (error) {
      if (attempt >= 3) throw error;
      log(`${server} did not start (attempt ${attempt}), retrying: ${(error as Error).message.split('\n')[0]}`);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
  }
}

/**
 * What a server is sent in a workload. Reference (a) answers its fixed JSON to anything, so where a workload does not
 * list it, it gets the workload's own requests without their answer checks (which expect GraphQL data).
 */
function referenceLoad(workload: Workload, server: ServerId, session: Parameters<Workload['load']>[1]): WorkloadLoad {
  const load = workload.load(server, session);
  if (server !== REFERENCE || workload.servers.includes(REFERENCE)) return load;
  return { requests: load.requests.map(({ onResponse: _o, setupRequest: _s, ...plain }) => plain) };
}

/** One workload's servers, started, checked and warmed up, run round by round between other workloads' rounds. */
interface OpenWorkload {
  readonly workload: Workload;
  /** Runs round `round` of every live server, in the balanced order of that round. */
  runRound(round: number): Promise<void>;
  /** Checks every server's answer again, stops them all and returns the workload's rounds. */
  finish(): Promise<WorkloadRun>;
}

/** Starts a workload's servers, checks one answer of each and warms each up. */
async function openWorkload(workload: Workload): Promise<OpenWorkload> {
  const servers = serversOf(workload);
  const procs = new Map<ServerId, ServerProcess>();
  const rounds = new Map<ServerId, RoundResult[]>(servers.map((s) => [s, []]));
  const problems = new Map<ServerId, string>();
  const peak = new Map<ServerId, number | null>();
  const stopAll = () => Promise.all([...procs.values()].map((p) => p.stop()));
  const live = () => servers.filter((s) => procs.has(s) && !problems.has(s));
  const once = async (server: ServerId, seconds: number) => {
    const proc = procs.get(server)!;
    const session = await openSession(server, proc.url);
    const { requests, failures } = referenceLoad(workload, server, session);
    return runLoad({
      url: proc.url,
      requests,
      connections: settings.connections,
      seconds,
      ...(failures ? { failures } : {}),
    });
  };
  const check = async (server: ServerId, when: string) => {
    const proc = procs.get(server)!;
    try {
      if (server === REFERENCE && !workload.servers.includes(REFERENCE)) await generateToken(proc.url);
      else await workload.check(server, proc.url, await openSession(server, proc.url));
    } catch (error) {
      problems.set(server, `answer check ${when} failed: ${(error as Error).message.slice(0, 200)}`);
      log(`${workload.id} ${server}: ${problems.get(server)}`);
    }
  };
  const roundOf = async (server: ServerId, round: number) => {
    const proc = procs.get(server)!;
    const proxyPid = isProxyServer(server) ? proxyPidOf(proc) : undefined;
    // A server has slept through the other workloads' rounds since its last one: unmeasured slices take its
    // after-idle cost first, as many as it needs.
    const warm = await rewarm(async () => {
      const before = proc.cpuSeconds();
      const slice = await once(server, settings.rewarmSliceSeconds);
      const after = proc.cpuSeconds();
      return { cpuSeconds: before === null || after === null ? null : after - before, requests: slice.requests };
    }, settings.rewarmRule);
    rewarms.push({ ...warm, server });
    const proxyBefore = proxyPid === undefined ? null : procCpuSeconds(proxyPid);
    const cpuBefore = proc.cpuSeconds();
    const coreBefore = serverCpus === undefined ? null : coresBusySeconds(serverCpus);
    const sample = await once(server, settings.seconds);
    const cpuAfter = proc.cpuSeconds();
    const coreAfter = serverCpus === undefined ? null : coresBusySeconds(serverCpus);
    const proxyAfter = proxyPid === undefined ? null : procCpuSeconds(proxyPid);
    const spent = (before: number | null, after: number | null) =>
      before === null || after === null ? null : after - before;
    const cpu = spent(cpuBefore, cpuAfter);
    const core = spent(coreBefore, coreAfter);
    // What the core did besides this server: the other processes' share (ticks, so a little below 0 is rounding).
    const others = core === null || cpu === null ? null : Math.max(0, core - cpu);
    const result = roundFrom(sample, cpu, others, isProxyServer(server) ? spent(proxyBefore, proxyAfter) : undefined);
    rounds.get(server)!.push(result);
    peak.set(server, proc.peakRssKb());
    // Let deferred work (settlements) finish before the next server's round starts on the same core.
    await waitIdle(proc);
    log(
      `${workload.id} ${server} round ${round + 1} (after ${warm.slices} slice(s)${warm.settled ? '' : ', unsettled'}): ` +
        `${sample.rps.toFixed(0)} req/s, p99 ${sample.p99} ms, ` +
        `server CPU ${cpu === null ? '?' : ((cpu / sample.seconds) * 100).toFixed(0)}%` +
        (result.otherCpu ? `, others took ${(result.otherCpu * 100).toFixed(0)}% of the core` : '') +
        (sample.non2xx + sample.errors + sample.failures > 0
          ? `, ${sample.non2xx} non-2xx, ${sample.errors} errors, ${sample.failures} failed checks`
          : ''),
    );
  };
  try {
    for (const server of servers) {
      try {
        const proc = await startWithRetry(server);
        procs.set(server, proc);
        if (flags.profile) log(`${workload.id}: ${server} pid ${proc.pid} profiles to ${profileDir}`);
      } catch (error) {
        problems.set(server, `did not start: ${(error as Error).message.split('\n')[0]}`);
      }
    }
    for (const server of live()) await check(server, 'before the rounds');
    for (const server of live()) {
      await once(server, settings.warmupSeconds);
      await waitIdle(procs.get(server)!);
    }
  } catch (error) {
    await stopAll();
    throw error;
  }
  return {
    workload,
    async runRound(round) {
      // A balanced design, not a rotation: no server always runs first or last, or always right after the same one.
      for (const server of roundOrder(live(), round)) await roundOf(server, round);
    },
    async finish() {
      try {
        for (const server of live()) await check(server, 'after the rounds');
      } finally {
        await stopAll();
      }
      const runs: ServerRun[] = servers.map((server) => {
        const note =
          workload.notes?.[server] ??
          (server === REFERENCE && !workload.servers.includes(REFERENCE)
            ? 'the reference; answers its fixed JSON'
            : undefined);
        const problem = problems.get(server);
        return {
          server,
          label: serverLabels[server],
          ...(note ? { note } : {}),
          rounds: rounds.get(server)!,
          peakRssKb: peak.get(server) ?? null,
          ...(problem ? { problem } : {}),
        };
      });
      return { id: workload.id, title: workload.title, runs };
    },
  };
}

// Every workload's servers stay up for the whole run and the rounds go in passes: pass r runs round r of every
// workload, then one cold start of each server. A figure's rounds are then spread over the run's whole span, not
// packed into the minute its workload happened to get, so the host's slow drift (minutes) lands inside each figure's
// spread instead of between two runs' medians (decision 0002).
const opened: OpenWorkload[] = [];
/** Every measured round's rewarm and its server, for the settings line. */
const rewarms: (RewarmOutcome & { readonly server: ServerId })[] = [];
/** Passes run before the round budget stopped them (cold starts it cut short still run). */
let roundsRun = 0;
const coldRuns = flags['no-cold-start']
  ? undefined
  : new ColdStarts(
      Object.fromEntries(
        Object.entries(settings.coldRuns).flatMap(([server, count]) =>
          inPlaceOf(server as ServerId).map((s) => [s, count]),
        ),
      ) as Partial<Record<ServerId, number>>,
      serverCpus,
      log,
    );
const workloadRuns: WorkloadRun[] = [];
try {
  for (const workload of selected) {
    log(`workload ${workload.id}: ${workload.title}: starting, checking and warming up its servers`);
    opened.push(await openWorkload(workload));
  }
  let pass = 0;
  for (; pass < settings.rounds; pass++) {
    if (pass > 0 && elapsed() > roundsBudgetSeconds) {
      log(`time budget reached: ${pass} round(s) kept of every workload`);
      break;
    }
    for (const open of opened) await open.runRound(pass);
    await coldRuns?.pass(pass);
  }
  roundsRun = pass;
  // Cold starts the round budget cut short still run, one server after another.
  for (; coldRuns !== undefined && pass < coldRuns.passes; pass++) await coldRuns.pass(pass);
} finally {
  for (const open of opened) workloadRuns.push(await open.finish());
}

const coldStart: Record<
  string,
  { label: string; runsMs: number[]; listeningMs: number[]; tokenMs?: number[]; otherCpuShares: (number | null)[] }
> = {};
for (const [server, runs] of Object.entries(coldRuns?.result() ?? {}) as [ServerId, ColdStartRun[]][]) {
  const tokenMs = runs.flatMap((r) => (r.tokenMs === undefined ? [] : [r.tokenMs]));
  coldStart[server] = {
    label: serverLabels[server],
    runsMs: runs.map((r) => r.totalMs),
    listeningMs: runs.map((r) => r.listeningMs),
    ...(tokenMs.length > 0 ? { tokenMs } : {}),
    otherCpuShares: runs.map((r) => r.otherCpuShare ?? null),
  };
}

let latencyCurve: LatencyPoint[] | undefined;
if (withMock && !flags['no-latency-curve']) {
  latencyCurve = await measureLatencyCurve({
    connections: settings.latencyConnections,
    seconds: quick ? 1 : 3,
    cpus: serverCpus,
    log,
  });
}

let inProcess: InProcessResult | undefined;
if (withMock && !flags['no-in-process']) {
  if (entry !== 'cli') log('in-process workloads need the built package (npm run build): skipped');
  else inProcess = await measureInProcess({ quick, log });
}

let proxyLatency: PairedRatio | undefined;
const proxyRan = workloadRuns.some((w) => w.runs.some((r) => r.server === 'proxy' && r.problem === undefined));
if (proxyRan && !flags['no-proxy-latency']) {
  proxyLatency = await measureProxyLatency({ pairs: quick ? 6 : 30, slice: quick ? 100 : 200, cpus: serverCpus });
  log(`proxy: adds ${proxyLatency.median.toFixed(3)} ms to a fee list's p50 (${proxyLatency.pairs} pairs)`);
}

// The mock on Redis beside the mock on memory: its own redis-server, skipped with a line without one.
let sharedStore: SharedStoreResult | undefined;
if (withMock && !flags['no-shared-store']) {
  sharedStore = await measureSharedStore({
    rounds: settings.rounds,
    seconds: settings.seconds,
    warmupSeconds: settings.warmupSeconds,
    connections: settings.connections,
    countRequests: quick ? 300 : 3_000,
    only: flags.only?.split(','),
    cpus: serverCpus,
    log,
  });
}

let memory: MemoryResult | undefined;
if (withMock && !flags['no-memory']) {
  memory = await measurePaymentMemory({
    total: settings.payments,
    chunks: settings.paymentChunks,
    connections: settings.connections,
    cpus: serverCpus,
    timeLimitSeconds: quick ? 30 : 150,
    log,
  });
}

const now = new Date();
/** The run's context, its settings line counting the rewarms of `servers`' rounds. */
const contextOf = (servers: (server: ServerId) => boolean) => ({
  date: now.toISOString(),
  cpu: cpuModel(),
  cores: machineCores,
  node: process.version,
  pinning: withMock ? `${pinning}; ${mockVia}` : pinning,
  settings: settingsLine({
    ran: roundsRun,
    asked: settings.rounds,
    seconds: settings.seconds,
    rewarms: rewarms.filter((r) => servers(r.server)),
    sliceSeconds: settings.rewarmSliceSeconds,
    rule: settings.rewarmRule,
    warmupSeconds: settings.warmupSeconds,
    connections: settings.connections,
    quick,
  }),
  loadAtStart,
});
const measured = {
  workloads: workloadRuns,
  coldStart: coldStart as ColdStart,
  memory,
  latencyCurve,
  inProcess,
  proxyLatency,
  sharedStore,
};
const summary = summarize(
  contextOf(() => true),
  measured,
);

const resultsDir = join(root, 'bench', 'results');
mkdirSync(resultsDir, { recursive: true });
const stamp = now.toISOString().replaceAll(':', '-').replace(/\..*$/, '');
const rawPath = join(resultsDir, `latest-${stamp}.json`);
writeFileSync(rawPath, `${JSON.stringify({ settings, summary }, null, 2)}\n`);
const complete = writesSummary(flags, withMock);
if (complete) {
  // The committed summary reads as the same run without --baseline would; the baseline's rows stay in the raw file.
  const committed = summarize(
    contextOf((server) => !besideMock.includes(server)),
    withoutBaseline(measured),
  );
  writeFileSync(join(resultsDir, 'summary.json'), `${JSON.stringify(committed, null, 2)}\n`);
  writeFileSync(join(resultsDir, 'summary.md'), renderMarkdown(committed));
}

process.stdout.write(`\n${renderText(summary)}\n`);
const written = `; summary: bench/results/summary.{json,md}${besideMock.length > 0 ? ' (without the baseline build)' : ''}`;
log(`raw results: ${rawPath}${complete ? written : ' (partial or quick run: summary files left as they were)'}`);
log(`took ${elapsed().toFixed(0)} s`);
if (flags.strict && summary.targets.some((t) => t.pass !== true)) process.exitCode = 1;
