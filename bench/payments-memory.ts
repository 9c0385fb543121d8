/**
 * "Memory after 100,000 processed payments": one fresh mock process, driven with valid processPaymentRequest calls
 * in equal chunks; after each chunk its RSS, peak RSS, heap after a full collection (bench/gc-probe.ts) and the
 * payments its control API says it keeps. Every answer is checked, so only accepted payments count. Shows whether
 * the per-client state stays bounded.
 *
 * @module
 */
import { runLoad } from './load.ts';
import { type ServerProcess, startServer, waitIdle } from './processes.ts';
import type { MemoryCheckpoint, MemoryResult } from './report.ts';
import { serverCommand } from './servers.ts';
import { checkedPaymentRequest, openSession } from './workloads.ts';

/** Payments the mock keeps, from its control API (`GET /__pck/payments`: its counters, or the whole list of older builds), or null when it does not say. */
export async function storedPayments(url: string): Promise<number | null> {
  try {
    const res = await fetch(`${url}/__pck/payments`);
    if (!res.ok) return null;
    const body = (await res.json()) as unknown;
    if (Array.isArray(body)) return body.length;
    if (body && typeof body === 'object') {
      const { payments, count, counts } = body as { payments?: unknown; count?: unknown; counts?: { kept?: unknown } };
      if (typeof count === 'number') return count;
      // A paged list answers one page and the history's counters.
      if (typeof counts?.kept === 'number') return counts.kept;
      if (Array.isArray(payments)) return payments.length;
    }
    return null;
  } catch {
    return null;
  }
}

/** The mock's heap after two full collections, from bench/gc-probe.ts (SIGUSR2), in KiB; null if it did not answer. */
export async function heapAfterGc(proc: ServerProcess): Promise<number | null> {
  const answer = proc.nextOutput(/pck-bench-gc (\{[^\n]*\})/, 5_000);
  proc.signal('SIGUSR2');
  const match = await answer;
  if (!match) return null;
  const line = JSON.parse(match[1]!) as { heapUsedKb: number; gc: boolean };
  return line.gc ? line.heapUsedKb : null;
}

/** Options of {@link measurePaymentMemory}. */
export interface PaymentMemoryOptions {
  /** Payments to process in all. */
  readonly total: number;
  /** Equal chunks, one checkpoint after each. */
  readonly chunks: number;
  readonly connections: number;
  readonly cpus: string | undefined;
  /** Stop early (and say so) once this many seconds have passed. */
  readonly timeLimitSeconds: number;
  readonly log: (line: string) => void;
}

/** Runs the measurement on a fresh mock process. */
export async function measurePaymentMemory(options: PaymentMemoryOptions): Promise<MemoryResult> {
  const proc = await startServer(await serverCommand('mock', { gcProbe: true }), { cpus: options.cpus });
  const started = performance.now();
  try {
    const checkpoints: MemoryCheckpoint[] = [];
    const point = async (payments: number): Promise<MemoryCheckpoint> => {
      // Settlements of the last payments come due a second after them; let them run before measuring.
      await waitIdle(proc, 3_000);
      const rssKb = proc.rssKb();
      const peakRssKb = proc.peakRssKb();
      const probe = await heapAfterGc(proc);
      // Asked last: listing the kept payments allocates, and must not show in this checkpoint's numbers.
      const stored = await storedPayments(proc.url);
      return { payments, rssKb, peakRssKb, heapAfterGcKb: probe, storedPayments: stored };
    };
    checkpoints.push(await point(0));
    let processed = 0;
    let failures = 0;
    let problem: string | undefined;
    const chunk = Math.ceil(options.total / options.chunks);
    while (processed < options.total) {
      if ((performance.now() - started) / 1000 > options.timeLimitSeconds) {
        problem = `stopped after ${options.timeLimitSeconds} s`;
        break;
      }
      // A fresh token per chunk: a long run must not outlive the 10 minute token.
      const session = await openSession('mock', proc.url);
      let failed = 0;
      const sample = await runLoad({
        url: proc.url,
        connections: options.connections,
        amount: Math.min(chunk, options.total - processed),
        requests: [checkedPaymentRequest(session, () => failed++)],
        failures: () => failed,
      });
      const bad = sample.failures + sample.errors;
      failures += bad;
      processed += Math.max(0, sample.requests - bad);
      checkpoints.push(await point(processed));
      options.log(
        `memory: ${processed} payments, RSS ${((checkpoints.at(-1)?.rssKb ?? 0) / 1024).toFixed(0)} MB, ${sample.rps.toFixed(0)} req/s`,
      );
      if (bad > sample.requests / 2) {
        problem = 'most payments failed';
        break;
      }
    }
    return { target: options.total, checkpoints, failures, ...(problem ? { problem } : {}) };
  } finally {
    await proc.stop();
  }
}
