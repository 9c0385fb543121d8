/**
 * The static server the browser tests open their pages from: fixed files by path, and a webhook receiver at `/hook`
 * that keeps each posted JSON body. It listens on 127.0.0.1, port 0: a secure context, so service workers run there.
 *
 * @module
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running page server. */
export interface PageServer {
  readonly origin: string;
  /** The JSON bodies posted to `/hook`, in arrival order; tests may empty it. */
  readonly hooks: unknown[];
  close(): Promise<void>;
}

/** Serves `files` (path → [content type, body]); `/favicon.ico` is empty, anything else 404. */
export async function startPageServer(files: Record<string, [string, string | Buffer]>): Promise<PageServer> {
  const hooks: unknown[] = [];
  const served: Record<string, [string, string | Buffer]> = { '/favicon.ico': ['image/x-icon', ''], ...files };
  const server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/hook') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        hooks.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(204).end();
      });
      return;
    }
    const file = served[req.url ?? ''];
    if (file === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hooks,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
