// The Node platform's webhook transport picks the protocol from the URL: plain HTTP over node:http, TLS over node:https,
// which it loads on the first https delivery (issue 22, cold start). A TCP listener that records the first bytes tells
// the two apart without a certificate: a TLS connection opens with a handshake record (0x16), HTTP with "POST".
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createAttemptAbort,
  createHttpTransport,
  type WebhookTransport,
} from '../../../support/mock-internals/webhooks.ts';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A TCP listener on port 0 that keeps the first chunk of each connection, then resets it. */
async function firstBytes(): Promise<{ port: number; chunks: Buffer[] }> {
  const chunks: Buffer[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once('data', (chunk: Buffer) => {
      chunks.push(chunk);
      socket.resetAndDestroy();
    });
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return { port: address.port, chunks };
}

function transport(): WebhookTransport {
  const t = createHttpTransport();
  closers.push(() => t.release());
  return t;
}

const headers = { 'content-type': 'application/json' };

describe('createHttpTransport', () => {
  it('sends an https URL over TLS (node:https loaded on first use) and a failed attempt becomes a PostError', async () => {
    const { port, chunks } = await firstBytes();
    const attempt = transport().send(new URL(`https://127.0.0.1:${port}/hook`), headers, '{}', createAttemptAbort());
    await expect(attempt).rejects.toMatchObject({ name: 'PostError', code: 'ECONNRESET' });
    expect(chunks).toHaveLength(1);
    // A TLS handshake record (content type 22), never the plain request line.
    expect(chunks[0]?.[0]).toBe(0x16);
    expect(chunks[0]?.toString('latin1')).not.toContain('POST');
  });

  it('writes the given headers in their order, then content-length, Host and Connection, then the body', async () => {
    const { port, chunks } = await firstBytes();
    const given = { 'content-type': 'application/json', 'x-client-id': 'c', 'x-delivery-id': 'whd_1' };
    await transport()
      .send(new URL(`http://127.0.0.1:${port}/hook?a=1`), given, '{"é":1}', createAttemptAbort())
      .catch(() => undefined);
    expect(chunks[0]?.toString('utf8')).toBe(
      'POST /hook?a=1 HTTP/1.1\r\ncontent-type: application/json\r\nx-client-id: c\r\nx-delivery-id: whd_1\r\n' +
        `content-length: 8\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n{"é":1}`,
    );
  });

  it('sends an http URL as plain HTTP, and two https deliveries share one loaded module and agent', async () => {
    const { port, chunks } = await firstBytes();
    const t = transport();
    const abort = createAttemptAbort();
    await expect(t.send(new URL(`http://127.0.0.1:${port}/hook`), headers, '{}', abort)).rejects.toMatchObject({
      code: 'ECONNRESET',
    });
    expect(chunks[0]?.toString('latin1')).toMatch(/^POST \/hook HTTP\/1\.1\r\n/);
    for (let i = 0; i < 2; i++)
      await expect(t.send(new URL(`https://127.0.0.1:${port}/hook`), headers, '{}', abort)).rejects.toMatchObject({
        code: 'ECONNRESET',
      });
    expect(chunks.slice(1).map((c) => c[0])).toEqual([0x16, 0x16]);
  });

  it('refuses an https attempt whose signal was aborted before the module loaded, and release() before any https', async () => {
    const { port, chunks } = await firstBytes();
    const t = createHttpTransport();
    // No https agent was made: releasing must not touch one.
    expect(() => t.release()).not.toThrow();
    const controller = createAttemptAbort();
    controller.abort('stopped');
    await expect(t.send(new URL(`https://127.0.0.1:${port}/hook`), headers, '{}', controller)).rejects.toMatchObject({
      name: 'PostError',
      code: 'stopped',
      message: 'aborted before sending',
    });
    expect(chunks).toEqual([]);
    t.release();
  });
});
