/**
 * The validating proxy in front of the mock, as one benchmark server: starts the built CLI's mock, then the built
 * CLI's `proxy --upstream <mock>` (checks on, log off), and prints the proxy's pid and address. With `--floor`, the
 * proxy is bench/references/bare-passthrough.ts instead (forwarding alone, no checks): the floor of any Node proxy. Both children
 * inherit this process's core pinning (the server core: proxy and mock share it, as the mock alone has it to itself),
 * and the benchmark reads CPU over the whole process tree (what the pair costs per request) and over the proxy's pid
 * (what the proxy alone costs, the figure for a proxy on a core of its own).
 *
 * Usage: node proxy-in-front.mjs <path of the built CLI> [--floor]
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { stopWithParent } from './listen.ts';

const cli = process.argv[2];
if (!cli) throw new Error('[payment-contract-kit] bench: pass the path of the built CLI as argument 1.');

const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** Spawns one Node script (the CLI, or the passthrough) and resolves with the first loopback URL it prints. */
function start(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    // stdin a pipe: the passthrough stops when it closes (this process exits), as every reference does.
    // This process's Node flags go on (the benchmark's steady flags reach the mock and the proxy, as they reach every
    // server it starts).
    const child = spawn(process.execPath, [...process.execArgv, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    children.push(child);
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = /http:\/\/127\.0\.0\.1:(\d+)/.exec(seen);
      if (match) resolve(`http://127.0.0.1:${match[1]}`);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}: ${seen.slice(-500)}`)));
  });
}

const upstream = await start([cli, 'mock', '--port', '0', '--quiet']);
const proxy = process.argv.includes('--floor')
  ? await start([join(import.meta.dirname, 'bare-passthrough.mjs'), upstream])
  : await start([cli, 'proxy', '--upstream', upstream, '--port', '0', '--host', '127.0.0.1', '--quiet']);
// The benchmark reads the pair's CPU over this process tree, and the proxy's own from this pid (printed first: the
// address line is what it waits for).
process.stdout.write(`proxy process ${children[1]!.pid}\nproxy listening on ${proxy}\n`);
stopWithParent();
