/**
 * The real CLI mock as a child process (from `dist/`, so `npm run build` comes first), its standard error captured,
 * plus a keep-alive HTTP client that reports a reset or closed connection as a value instead of throwing, and a
 * webhook receiver on port 0 that keeps every body it is sent.
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../../..');
const cliPath = join(root, 'dist/cli/index.js');

/** A running mock process. */
export interface MockProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything written to standard error so far. */
  stderr(): string;
  /** Exit code (or signal) once the process ended; `undefined` while it runs. */
  exited(): { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/** Starts `payment-contract-kit mock --port 0 ...args` and resolves once it printed its URL. */
export async function startMockProcess(args: readonly string[]): Promise<MockProcess> {
  if (!existsSync(cliPath))
    throw new Error(`[payment-contract-kit] ${cliPath} is missing: run \`npm run build\` before the fuzz tests.`);
  const child = spawn(process.execPath, [cliPath, 'mock', '--port', '0', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exitedPromise = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      resolve();
    }),
  );
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const m = /http:\/\/[\d.]+:\d+/.exec(stdout);
      if (m) resolve(m[0]);
    });
    exitedPromise.then(() =>
      reject(new Error(`[payment-contract-kit] the mock exited before printing a URL: ${stderr}`)),
    );
  });
  return {
    url,
    child,
    stderr: () => stderr,
    exited: () => exit,
    async stop() {
      if (exit === undefined) child.kill('SIGTERM');
      await exitedPromise;
    },
  };
}

/** What one request gave: an answer, or a transport failure (reset, closed, refused). */
export type HttpOutcome =
  | { readonly ok: true; readonly status: number; readonly contentType: string; readonly body: string }
  | { readonly ok: false; readonly error: string };

/** A keep-alive client with at most `sockets` connections. */
export function createClient(base: string, sockets: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const { hostname, port } = new URL(base);
  return {
    send(
      method: string,
      path: string,
      headers: Record<string, string>,
      body?: string,
      encoding: 'utf8' | 'latin1' = 'utf8',
    ): Promise<HttpOutcome> {
      return new Promise((resolve) => {
        const payload = body === undefined ? undefined : Buffer.from(body, encoding);
        const req = request(
          {
            agent,
            hostname,
            port,
            method,
            path,
            headers: { ...headers, ...(payload ? { 'content-length': String(payload.length) } : {}) },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({
                ok: true,
                status: res.statusCode ?? 0,
                contentType: String(res.headers['content-type'] ?? ''),
                body: Buffer.concat(chunks).toString('utf8'),
              }),
            );
            res.on('error', (e: NodeJS.ErrnoException) => resolve({ ok: false, error: e.code ?? e.message }));
          },
        );
        req.on('error', (e: NodeJS.ErrnoException) => resolve({ ok: false, error: e.code ?? e.message }));
        req.end(payload);
      });
    },
    close() {
      agent.destroy();
    },
  };
}

/** A webhook receiver answering 204 and keeping every body. */
export async function startReceiver(): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    bodies,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
