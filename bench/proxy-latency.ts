/**
 * The latency the validating proxy adds: one client, one keep-alive connection to each of a mock and the proxy in
 * front of another mock of the same build, slices of sequential fee-list requests alternating between the two; per pair of
 * slices, the proxy's median latency minus the mock's. Sub-millisecond resolution, which autocannon's whole
 * milliseconds do not give.
 *
 * @module
 */
import http from 'node:http';
import { median, type PairedRatio, pairedDifference } from './paired.ts';
import { startServer } from './processes.ts';
import { serverCommand } from './servers.ts';
import { AMOUNT, GRAPHQL_PATH, generateToken, queries } from './workloads.ts';

/** Options of {@link measureProxyLatency}. */
export interface ProxyLatencyOptions {
  readonly pairs: number;
  readonly slice: number;
  readonly cpus: string | undefined;
}

/** Milliseconds each of `count` sequential requests took. */
async function slice(url: URL, agent: http.Agent, token: string, count: number): Promise<number[]> {
  const body = JSON.stringify({ query: queries.fees, variables: { amount: AMOUNT } });
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: GRAPHQL_PATH,
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'content-length': Buffer.byteLength(body),
            'x-jwt-token': token,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`))));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    out.push(performance.now() - started);
  }
  return out;
}

/** Starts the proxy in front of a mock and a mock alone, and measures the p50 the proxy adds, in ms. */
export async function measureProxyLatency(options: ProxyLatencyOptions): Promise<PairedRatio> {
  const [mock, proxy] = await Promise.all([
    startServer(await serverCommand('mock', { steady: true }), { cpus: options.cpus }),
    startServer(await serverCommand('proxy', { steady: true }), { cpus: options.cpus }),
  ]);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const mockToken = (await generateToken(mock.url)).token;
    const proxyToken = (await generateToken(proxy.url)).token;
    await slice(new URL(mock.url), agent, mockToken, options.slice);
    await slice(new URL(proxy.url), agent, proxyToken, options.slice);
    const mockP50: number[] = [];
    const proxyP50: number[] = [];
    for (let i = 0; i < options.pairs; i++) {
      mockP50.push(median(await slice(new URL(mock.url), agent, mockToken, options.slice)));
      proxyP50.push(median(await slice(new URL(proxy.url), agent, proxyToken, options.slice)));
    }
    return pairedDifference(proxyP50, mockP50);
  } finally {
    agent.destroy();
    await Promise.all([mock.stop(), proxy.stop()]);
  }
}
