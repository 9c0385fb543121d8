/**
 * The mock's listener: `startMockServer(options)` creates the app and listens (port 0 picks a free port, so parallel
 * test workers never collide), and returns `{ url, close, control }`. Each call is independent: no module state.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { restErrorBody } from '../contract/error-shapes.ts';
import { kitMessage } from '../internal/messages.ts';
import { createMockApp } from './app.ts';
import type { MockServer } from './control-types.ts';
import { controlTokenRefusal } from './internal/http/guards.ts';
import { defaultMockOptions, type MockOptions } from './options.ts';

/**
 * Starts the mock on `options.host:options.port` (default 127.0.0.1:4010; pass `port: 0` in tests). A host other
 * machines can reach (`0.0.0.0` included) needs `controlToken`: without one this rejects with a `TypeError` saying
 * how to set it.
 *
 * @example
 * const mock = await startMockServer({ port: 0 });
 * const res = await fetch(`${mock.url}/api/v2/accounting/token/generate-token`, {
 *   method: 'POST',
 *   headers: { 'x-client-id': 'test-client', 'x-api-key': 'test-api-key' },
 * });
 * await mock.close();
 */
export async function startMockServer(options: MockOptions = {}): Promise<MockServer> {
  // Before anything is built: a control plane open to other machines is refused, not started and then closed.
  const refusal = controlTokenRefusal(options.host ?? defaultMockOptions.host, options.controlToken);
  if (refusal !== undefined) throw new TypeError(refusal);
  const app = createMockApp(options);
  // A state store is opened and replayed before the port opens: a store that cannot be used fails start.
  try {
    await app.ready();
  } catch (error) {
    await app.close();
    throw error;
  }
  const server: Server = createServer({ keepAliveTimeout: 60_000 }, app.handle);
  // Malformed HTTP never reaches the app; answer it in the 7.1 shape rather than node's bare 400.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const body = JSON.stringify(restErrorBody(kitMessage('Malformed HTTP request.')));
    socket.end(
      `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  const { host, port } = app.options;
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              kitMessage(
                `Port ${port} on ${host} is already in use: stop what listens there, or pick another port (--port / port option; 0 picks a free one).`,
              ),
            )
          : error,
      );
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  // An 'error' with no listener would end the process; once listening, log it instead (e.g. EMFILE on accept).
  server.on('error', (error) => {
    app.logLine(kitMessage(`the mock's listener reported an error (it keeps serving): ${String(error)}`));
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    control: app.control,
    options: app.options,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        await app.close();
        const file = app.options.coverageFile;
        if (file !== undefined) writeCoverageFile(file, app.control.coverage());
      })();
      return closing;
    },
  };
}

/** Writes a coverage report as JSON, creating the file's folder; a failure names the file and the fix. */
function writeCoverageFile(file: string, report: unknown): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  } catch (error) {
    throw new Error(
      kitMessage(`cannot write the coverage report to ${file} (${String(error)}): give a path the mock can write.`),
      { cause: error },
    );
  }
}
