/**
 * What every reference server shares: listen on 127.0.0.1 port 0, print the address as one line, and stop by
 * itself when the benchmark goes away (stdin closes) or after a safety lifetime; and how a JSON answer is written.
 *
 * @module
 */
import type { Server, ServerResponse } from 'node:http';

/** Longest a reference server lives, whatever happens to its parent. */
const MAX_LIFETIME_MS = 20 * 60 * 1000;

/** Listens on an ephemeral port, prints `listening on http://127.0.0.1:<port>` and arms the stop conditions. */
export function listenAndReport(server: Server, name: string): void {
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    process.stdout.write(`${name} listening on http://127.0.0.1:${port}\n`);
  });
  stopWithParent();
}

/** Exits when stdin ends (the parent closed it or died) or after {@link MAX_LIFETIME_MS}. */
export function stopWithParent(): void {
  process.stdin.on('end', () => process.exit(0));
  process.stdin.on('error', () => process.exit(0));
  process.stdin.resume();
  // Exit through process.exit on SIGTERM, so `--cpu-prof` (bench --profile) gets to write its profile.
  process.once('SIGTERM', () => process.exit(0));
  setTimeout(() => process.exit(0), MAX_LIFETIME_MS).unref();
}

/** Answers `json` with `status`: JSON content type and its byte length as the headers, as the mock sends them. */
export function answerJson(res: ServerResponse, status: number, json: string): void {
  res.writeHead(status, [
    'content-type',
    'application/json; charset=utf-8',
    'content-length',
    String(Buffer.byteLength(json)),
  ]);
  res.end(json);
}

/** The path of schema.graphql, passed as the first argument. */
export function schemaPathArg(): string {
  const path = process.argv[2];
  if (!path) throw new Error('[payment-contract-kit] bench reference: pass the path of schema.graphql as argument 1.');
  return path;
}
