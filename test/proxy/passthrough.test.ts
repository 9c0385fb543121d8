import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.ts';
import { type ProxyServer, startProxy } from '../../src/proxy/index.ts';
import { createChanges } from '../support/changes.ts';
import { comparableHeaders, type RawAnswer, rawRequest, runFlows, type StandIn, startStandIn } from './support.ts';

// Two mocks with the same seed and a frozen clock answer the same requests with the same bytes: one is asked
// directly, the other through the proxy, so any byte the proxy changed shows up as a difference.
const frozen = () => Date.UTC(2026, 10, 25, 12, 0, 0);
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function mock(guide: 'current' | 'legacy', webhookUrls: string[]): Promise<MockServer> {
  const m = await startMockServer({ port: 0, guide, log: false, realNow: frozen, webhookUrls, settleDelayMs: 1000 });
  closers.push(() => m.close());
  return m;
}

/** Listens with `service` on a free port and starts the proxy in front of it; both close in teardown. */
async function proxyInFrontOf(service: Server) {
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        service.closeAllConnections();
        service.close(() => resolve());
      }),
  );
  const proxy = await startProxy({
    upstream: `http://127.0.0.1:${(service.address() as AddressInfo).port}`,
    port: 0,
    log: false,
  });
  closers.push(() => proxy.close());
  return proxy;
}

function comparable(a: RawAnswer) {
  return { status: a.status, statusMessage: a.statusMessage, headers: comparableHeaders(a.rawHeaders), body: a.body };
}

describe.each(['current', 'legacy'] as const)('the mock behind the proxy (%s guide)', (guide) => {
  it("answers every flow with the mock's exact bytes, forwards its webhooks unchanged, and finds no drift", async () => {
    // The webhook waits below wait on this: the direct receiver and the relay tell of each webhook they took.
    const webhooks = createChanges();
    const receiverDirect = await startStandIn((_req, _body, res) => {
      res.writeHead(204).end();
      webhooks.notify();
    });
    const receiverProxied = await startStandIn((_req, _body, res) =>
      res.writeHead(200, { 'x-receiver': 'yes' }).end('ok'),
    );
    closers.push(
      () => receiverDirect.close(),
      () => receiverProxied.close(),
    );
    // The mock's webhook URLs are fixed when it starts, before the proxy's URL is known: a relay in between posts
    // each webhook on to the proxy as it came and hands back the proxy's answer.
    let proxyUrl = '';
    const relayAnswers: RawAnswer[] = [];
    const relay = await startStandIn((req, body, res) => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
      ) as Record<string, string>;
      void rawRequest(proxyUrl, { path: '/webhooks', headers, body }).then((answer) => {
        relayAnswers.push(answer);
        res.writeHead(answer.status).end(answer.body);
        webhooks.notify();
      });
    });
    closers.push(() => relay.close());
    const direct = await mock(guide, [`${receiverDirect.url}/hooks`]);
    const proxied = await mock(guide, [relay.url]);
    const proxy: ProxyServer = await startProxy({
      upstream: proxied.url,
      guide,
      log: false,
      forwardWebhooks: [`${receiverProxied.url}/hooks`],
    });
    proxyUrl = proxy.url;
    closers.push(() => proxy.close());

    const directAnswers = await runFlows((req) => rawRequest(direct.url, req), guide);
    const proxiedAnswers = await runFlows((req) => rawRequest(proxy.url, req), guide);
    expect(proxiedAnswers.map(comparable)).toEqual(directAnswers.map(comparable));

    // Settle every payment on both mocks; each webhook reaches its receiver with the same body.
    const payments = (await direct.control.payments()).length;
    expect(payments).toBeGreaterThanOrEqual(2);
    direct.control.advanceClock(1000);
    proxied.control.advanceClock(1000);
    await webhooks.until(() => receiverDirect.received.length >= payments && relayAnswers.length >= payments);
    expect(receiverDirect.received).toHaveLength(payments);
    expect(relayAnswers).toHaveLength(payments);
    const bodies = (s: StandIn) => s.received.map((r) => r.body).sort();
    expect(bodies(receiverProxied)).toEqual(bodies(receiverDirect));
    // What the proxy got from the relay, the receiver got from the proxy (Host is the receiver's own).
    for (const got of receiverProxied.received) {
      const sent = relay.received.find((r) => r.body === got.body)!;
      const { host: _a, connection: _b, ...sentHeaders } = sent.headers;
      const { host: _c, connection: _d, ...gotHeaders } = got.headers;
      expect(gotHeaders).toEqual(sentHeaders);
    }
    // The service (here: the relay) got the receiver's own answer.
    for (const a of relayAnswers) expect([a.status, a.body.toString()]).toEqual([200, 'ok']);

    const report = proxy.report();
    expect(report.exchanges).toBe(proxiedAnswers.length + payments);
    expect(report.counts).toMatchObject({ contract: 0, assumption: 0, upstream: 0 });
    // The flows make two mistakes on purpose (no x-jwt-token, a body that is not JSON): the consumer's, found as such.
    expect(report.drifts.map((d) => [d.kind, d.path, d.exchange.status])).toEqual([
      ['consumer', '(header) x-jwt-token', 200],
      ['consumer', '(body)', 400],
    ]);
    expect(report.suggestedConfig).toEqual({ assumptions: {} });
  });
});

describe('forwarding byte for byte', () => {
  it('keeps the status line, header order, spelling and repeats, and a compressed body; drops hop-by-hop headers', async () => {
    const gzipped = gzipSync(JSON.stringify({ status: 'ERROR', message: 'compressed' }));
    let seenByService: string[] = [];
    const service = await startStandIn((req, _body, res) => {
      seenByService = req.rawHeaders;
      // Written by hand so every byte of the answer is the test's own.
      res.socket!.write(
        [
          'HTTP/1.1 401 Not Today',
          'X-Custom: first',
          'Set-Cookie: a=1',
          'Content-Type: application/json',
          'Set-Cookie: b=2',
          'x-custom: second',
          'Connection: keep-alive, X-Hop',
          'X-Hop: dropped',
          'Keep-Alive: timeout=5',
          'Content-Encoding: gzip',
          `Content-Length: ${gzipped.length}`,
          '',
          '',
        ].join('\r\n'),
      );
      res.socket!.end(gzipped);
    });
    closers.push(() => service.close());
    const proxy = await startProxy({ upstream: service.url, log: false });
    closers.push(() => proxy.close());
    const answer = await rawRequest(proxy.url, {
      path: '/api/v2/accounting/token/generate-token',
      headers: {
        'X-Client-Id': 'c',
        'x-api-key': 'k',
        Connection: 'X-Secret-Hop',
        'X-Secret-Hop': '1',
        TE: 'trailers',
      },
    });
    expect([answer.status, answer.statusMessage]).toEqual([401, 'Not Today']);
    expect(comparableHeaders(answer.rawHeaders)).toEqual([
      'X-Custom',
      'first',
      'Set-Cookie',
      'a=1',
      'Content-Type',
      'application/json',
      'Set-Cookie',
      'b=2',
      'x-custom',
      'second',
      'Content-Encoding',
      'gzip',
      'Content-Length',
      String(gzipped.length),
    ]);
    expect(answer.body.equals(gzipped)).toBe(true);
    // The request went on with its own headers in their spelling, minus the hop-by-hop ones, and one Host: the
    // service's (the proxy's own header, so its spelling is the client's: undici writes `host`).
    const names = seenByService.filter((_, i) => i % 2 === 0);
    expect(names).toEqual(expect.arrayContaining(['X-Client-Id', 'x-api-key']));
    const lower = names.map((n) => n.toLowerCase());
    expect(lower).not.toContain('x-secret-hop');
    expect(lower).not.toContain('te');
    expect(lower.filter((n) => n === 'host')).toHaveLength(1);
    expect(seenByService[2 * lower.indexOf('host') + 1]).toBe(new URL(service.url).host);
  });

  it.each([1_000, 64 * 1024, 64 * 1024 + 1, 200_000])(
    'keeps every byte value of a %i-byte body both ways (one write up to 64 KiB, buffers above)',
    async (size) => {
      // Every byte value, 0x00 to 0xff, over and over: what a latin1 round trip or a utf8 one would break.
      const bytes = (offset: number) => Buffer.from(Array.from({ length: size }, (_, i) => (i + offset) % 256));
      let seenByService = Buffer.alloc(0);
      const service = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          seenByService = Buffer.concat(chunks);
          const answer = bytes(7);
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': answer.length });
          res.end(answer);
        });
      });
      const proxy = await proxyInFrontOf(service);
      const answer = await rawRequest(proxy.url, {
        path: '/files/blob',
        headers: { 'content-type': 'application/octet-stream' },
        body: bytes(3),
      });
      expect(answer.status).toBe(200);
      expect(seenByService.equals(bytes(3))).toBe(true);
      expect(answer.body.equals(bytes(7))).toBe(true);
    },
  );

  it('takes an Expect: 100-continue body in full and forwards it without the expectation; a 103 before the answer is not the answer', async () => {
    let seen: { headers: string[]; body: string } | undefined;
    const service = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen = { headers: req.rawHeaders, body: Buffer.concat(chunks).toString('utf8') };
        res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
        res.writeHead(201, 'Made', { 'content-type': 'application/json', 'X-Order': '1' }).end('{"ok":true}');
      });
    });
    const proxy = await proxyInFrontOf(service);
    const answer = await rawRequest(proxy.url, {
      path: '/files/blob',
      headers: { 'content-type': 'application/json', expect: '100-continue' },
      body: '{"a":1}',
    });
    expect([answer.status, answer.statusMessage, answer.body.toString()]).toEqual([201, 'Made', '{"ok":true}']);
    expect(comparableHeaders(answer.rawHeaders)).toEqual(
      expect.arrayContaining(['content-type', 'application/json', 'X-Order', '1']),
    );
    expect(seen?.body).toBe('{"a":1}');
    expect(seen?.headers.map((h) => h.toLowerCase())).not.toContain('expect');
  });
});
