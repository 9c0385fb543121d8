/**
 * What the soak drives and measures: the real CLI mock as its own process (`dist/cli/index.js mock --port 0`, so
 * `npm run build` comes first), a keep-alive HTTP client for it, its RSS read from the system, its standard error
 * counted line by line, and a webhook receiver whose port refuses connections until it is brought up.
 *
 * @module
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const cliPath = join(root, 'dist/cli/index.js');

/** An answer: status and body text. */
export interface Answer {
  readonly status: number;
  readonly text: string;
}

/** The mock process and a client for it. */
export interface SoakMock {
  readonly url: string;
  readonly child: ChildProcess;
  /** Sends one request over a keep-alive connection (at most `sockets` of them). */
  call(method: string, path: string, headers?: Readonly<Record<string, string>>, body?: string): Promise<Answer>;
  /** Resident set size now and its peak so far, in MB, as the system counts them for the mock's process. */
  rss(): { readonly nowMb: number; readonly peakMb: number };
  /** Standard error lines so far, and those about the pending cap (kept; the others are only counted). */
  readonly log: { lines: number; readonly capLines: string[] };
  /** Whether the process exited (a crash, during the soak). */
  exited(): boolean;
  stop(): Promise<void>;
}

/** Starts `payment-contract-kit mock --port 0 ...args` from `dist/` and resolves once it printed its URL. */
export async function startSoakMock(args: readonly string[], sockets: number): Promise<SoakMock> {
  if (!existsSync(cliPath))
    throw new Error(`[payment-contract-kit] ${cliPath} is missing: run \`npm run build\` before the soak.`);
  // NODE_OPTIONS of the test runner must not reach the mock: the soak measures the CLI as users start it.
  // PCK_SOAK_NODE_ARGS gives the mock Node flags (say --heap-growing-percent=0, V8's default, to compare).
  const nodeArgs = (process.env.PCK_SOAK_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
  const child = spawn(process.execPath, [...nodeArgs, cliPath, 'mock', '--port', '0', ...args], {
    cwd: root,
    env: { ...process.env, NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let exit = false;
  const exited = new Promise<void>((resolve) =>
    child.on('exit', () => {
      exit = true;
      resolve();
    }),
  );
  const log = { lines: 0, capLines: [] as string[] };
  let partial = '';
  let firstLines = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      log.lines += 1;
      if (log.lines <= 5) firstLines += `${line}\n`;
      if (line.includes('pending-cap')) log.capLines.push(line);
    }
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const m = /http:\/\/[\d.]+:\d+/.exec(stdout);
      if (m) resolve(m[0]);
    });
    exited.then(() =>
      reject(new Error(`[payment-contract-kit] the mock exited before printing its URL:\n${firstLines}${partial}`)),
    );
  });
  const { port } = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const call = (method: string, path: string, headers: Readonly<Record<string, string>> = {}, body?: string) =>
    new Promise<Answer>((resolve, reject) => {
      const sized =
        body === undefined
          ? {}
          : { 'content-type': 'application/json', 'content-length': `${Buffer.byteLength(body)}` };
      const req = request(
        { host: '127.0.0.1', port, method, path, agent, headers: { ...headers, ...sized } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => {
            text += d;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return {
    url,
    child,
    call,
    rss: () => processRss(child.pid!),
    log,
    exited: () => exit,
    async stop() {
      agent.destroy();
      if (!exit) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** RSS of `pid` in MB: now and peak (`VmRSS`, `VmHWM` of /proc), or `ps` where there is no /proc (peak = now). */
function processRss(pid: number): { nowMb: number; peakMb: number } {
  const mb = (kb: number) => Math.round(kb / 102.4) / 10;
  if (existsSync(`/proc/${pid}/status`)) {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { nowMb: mb(field('VmRSS')), peakMb: mb(field('VmHWM')) };
  }
  const kb = Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim());
  return { nowMb: mb(kb), peakMb: mb(kb) };
}

/** A webhook receiver on a port that refuses connections until `up()`, then answers 204 to every POST. */
export interface SoakReceiver {
  readonly url: string;
  /** Deliveries answered since `up()`. */
  received(): number;
  up(): Promise<void>;
  close(): Promise<void>;
}

/** Reserves a free port (listen on 0, then close it) and returns a receiver that is down until `up()`. */
export async function downReceiver(): Promise<SoakReceiver> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  let received = 0;
  let server: Server | undefined;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received: () => received,
    async up() {
      server = createServer((req, res) => {
        req.resume().on('end', () => {
          received += 1;
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, '127.0.0.1', resolve);
      });
    },
    async close() {
      server?.closeAllConnections();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    },
  };
}
