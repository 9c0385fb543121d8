// The web platform's webhook transport: an answer becomes the same PostResult an HTTP POST gives, and a fetch that
// rejects becomes a failed attempt whose code says why, so the dispatcher's retry rules apply unchanged.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchTransport } from '../../../support/mock-internals/webhooks.ts';

const seen: { method?: string; headers: Record<string, unknown>; body: string }[] = [];
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => {
    body += c.toString('utf8');
  });
  req.on('end', () => {
    seen.push({ method: req.method, headers: req.headers, body });
    res.writeHead(503, { 'retry-after': '7', date: 'Wed, 25 Nov 2026 10:00:00 GMT' }).end('x'.repeat(1000));
  });
});
let url: URL;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('createFetchTransport', () => {
  it('posts the body and headers a browser may set, and maps status, Retry-After, Date and the first 256 bytes', async () => {
    const headers = {
      'content-type': 'application/json',
      'x-client-id': 'c',
      'content-length': '2',
      'user-agent': 'k',
    };
    const result = await createFetchTransport().send(url, headers, '{}', new AbortController().signal);
    expect(result).toEqual({
      status: 503,
      retryAfter: '7',
      date: 'Wed, 25 Nov 2026 10:00:00 GMT',
      bodySnippet: 'x'.repeat(256),
    });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', body: '{}', headers: { 'x-client-id': 'c' } });
    // The browser sets these itself; the transport never passes them (a page would have them refused).
    expect(seen.at(-1)!.headers['user-agent']).not.toBe('k');
  });

  it('turns a rejected fetch into a failed attempt that names the usual causes', async () => {
    const refusing = (() => Promise.reject(new TypeError('Failed to fetch'))) as unknown as typeof fetch;
    const attempt = createFetchTransport(refusing).send(url, {}, '{}', new AbortController().signal);
    await expect(attempt).rejects.toMatchObject({
      name: 'PostError',
      code: expect.stringMatching(/^fetch-failed: .*Failed to fetch.*CORS.*webhookReceivers/),
    });
  });

  it('reports an aborted attempt by its reason (the attempt timeout), not as a fetch failure', async () => {
    const controller = new AbortController();
    controller.abort('timeout');
    const hanging = ((_: unknown, init: { signal: AbortSignal }) =>
      Promise.reject(init.signal.reason)) as unknown as typeof fetch;
    await expect(createFetchTransport(hanging).send(url, {}, '{}', controller.signal)).rejects.toMatchObject({
      code: 'timeout',
    });
  });
});
