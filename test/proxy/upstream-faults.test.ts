import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type ProxyServer, startProxy } from '../../src/proxy/index.ts';
import { servicePaths } from '../../src/spec-names.ts';
import { json, rawRequest, sendJson, startStandIn } from './support.ts';

// A service that fails the proxy in each way it can: the consumer gets 502 or 504 in the spec's shape for the path,
// the report an upstream drift, and the proxy goes on serving (a slow path holds only its own requests).
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const tokenPair = { status: 'SUCCESS', data: { token: 'tok-abcdef', refresh_token: 'rt-abcdef', expiration: 1 } };
const graphqlBody = JSON.stringify({
  query:
    'query PaymentGatewayFeesCalc($amount: Float!) { paymentGatewayFeesCalc(amount: $amount) { amount fees total_settlement_amount card_type } }',
  variables: { amount: 100 },
});

/** A stand-in whose /graphql misbehaves as `fault` says, and whose token paths answer normally. */
async function faultyService(fault: 'hang' | 'reset' | 'html' | 'huge' | 'endless') {
  const timers: NodeJS.Timeout[] = [];
  const service = await startStandIn((req, _body, res) => {
    if (req.url !== servicePaths.graphql) return sendJson(res, 200, tokenPair);
    if (fault === 'hang') return;
    if (fault === 'reset') return req.socket.destroy();
    if (fault === 'html')
      return res.writeHead(503, { 'content-type': 'text/html' }).end('<html><body>Service Unavailable</body></html>');
    if (fault === 'huge') return sendJson(res, 200, { data: { x: 'y'.repeat(5000) } });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"data":{"x":"');
    const t = setInterval(() => res.write('y'.repeat(200)), 2);
    timers.push(t);
    res.on('close', () => clearInterval(t));
  });
  closers.push(async () => {
    for (const t of timers) clearInterval(t);
    await service.close();
  });
  return service;
}

// Only the time-out case waits for the deadline; every other case has one far above what a loaded host needs.
async function proxyTo(upstream: string, upstreamTimeoutMs = 20_000): Promise<ProxyServer> {
  const proxy = await startProxy({ upstream, log: false, upstreamTimeoutMs, maxBodyBytes: 2048 });
  closers.push(() => proxy.close());
  return proxy;
}

const post = (proxy: ProxyServer, path: string, body?: string) =>
  rawRequest(proxy.url, { path, headers: { 'content-type': 'application/json', 'x-jwt-token': 't' }, body });

describe('the service failing the proxy', () => {
  it.each([
    ['hang', 504, 'UPSTREAM_TIMEOUT', /^timeout: /],
    ['reset', 502, 'UPSTREAM_UNREACHABLE', /^reset: /],
    ['html', 502, 'UPSTREAM_INVALID_ANSWER', /^not-json: a 503 answer of type text\/html/],
    ['huge', 502, 'UPSTREAM_INVALID_ANSWER', /^too-large: /],
    ['endless', 502, 'UPSTREAM_INVALID_ANSWER', /^too-large: /],
  ] as const)('%s: /graphql answers %i with a 7.2 error, reason %s', async (fault, status, reason, actual) => {
    const proxy = await proxyTo((await faultyService(fault)).url, fault === 'hang' ? 500 : undefined);
    const answer = await post(proxy, servicePaths.graphql, graphqlBody);
    expect(answer.status).toBe(status);
    const body = json(answer);
    expect(body.errors[0].extensions).toEqual({ reason });
    expect(body.errors[0].message).toMatch(/^\[payment-contract-kit\] proxy: the service .+; .+\.$/);
    // Still serving: the token path of the same service answers as the service does (with the short deadline of the
    // time-out case, the proxy's own report answers instead: a loaded host may take that long for any request).
    if (fault === 'hang')
      expect((await rawRequest(proxy.url, { method: 'GET', path: '/__pck/drift' })).status).toBe(200);
    else {
      const token = await post(proxy, servicePaths.generateToken);
      expect([token.status, json(token)]).toEqual([200, tokenPair]);
    }
    const upstream = proxy.report().drifts.filter((d) => d.kind === 'upstream');
    expect(upstream).toHaveLength(1);
    expect(upstream[0]).toMatchObject({ path: '(http)', exchange: { seq: 1, path: '/graphql', status } });
    expect(upstream[0]!.actual).toMatch(actual);
  });

  it('answers 502 in the 7.1 shape on a token path when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const proxy = await proxyTo(`http://127.0.0.1:${port}`);
    const answer = await post(proxy, servicePaths.generateToken);
    expect(answer.status).toBe(502);
    expect(json(answer)).toEqual({ status: 'ERROR', message: expect.stringContaining('could not be reached') });
    const graphql = await post(proxy, servicePaths.graphql, graphqlBody);
    expect(json(graphql).errors[0].extensions.reason).toBe('UPSTREAM_UNREACHABLE');
    const upstream = proxy.report().drifts.filter((d) => d.kind === 'upstream');
    expect(upstream.map((d) => [d.exchange.seq, d.exchange.status])).toEqual([
      [1, 502],
      [2, 502],
    ]);
  });

  it('keeps answering other requests while one waits on a slow service', async () => {
    // The service holds /graphql until the test releases it, so nothing here depends on timing.
    let release: (() => void) | undefined;
    let reached: () => void = () => {};
    const held = new Promise<void>((resolve) => (reached = resolve));
    const service = await startStandIn((req, _body, res) => {
      if (req.url === servicePaths.graphql) {
        release = () => sendJson(res, 200, { data: { paymentGatewayFeesCalc: [] } });
        reached();
      } else sendJson(res, 200, tokenPair);
    });
    closers.push(() => service.close());
    const proxy = await proxyTo(service.url);
    let slowDone = false;
    const slow = post(proxy, servicePaths.graphql, graphqlBody).then((a) => {
      slowDone = true;
      return a;
    });
    const quick = await Promise.all(Array.from({ length: 10 }, () => post(proxy, servicePaths.generateToken)));
    expect(quick.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(slowDone).toBe(false);
    await held;
    release!();
    expect((await slow).status).toBe(200);
  });

  it('reads a repeated answer as JSON only while its bytes, type and encoding all repeat', async () => {
    // The same bytes every time; the service changes only the type, then the encoding, of the third and fourth.
    const bytes = JSON.stringify({ data: { paymentGatewayFeesCalc: [] } });
    const heads = [
      { 'content-type': 'application/json' },
      { 'content-type': 'application/json' },
      { 'content-type': 'text/html' },
      { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      { 'content-type': 'application/json' },
    ];
    let call = 0;
    const service = await startStandIn((req, _body, res) => {
      if (req.url !== servicePaths.graphql) return sendJson(res, 200, tokenPair);
      res.writeHead(200, heads[call++ % heads.length]).end(bytes);
    });
    closers.push(() => service.close());
    const proxy = await proxyTo(service.url);
    const statuses: number[] = [];
    for (let i = 0; i < heads.length; i++) statuses.push((await post(proxy, servicePaths.graphql, graphqlBody)).status);
    expect(statuses).toEqual([200, 200, 502, 502, 200]);
    const upstream = proxy.report().drifts.filter((d) => d.kind === 'upstream');
    expect(upstream.map((d) => [d.exchange.seq, d.actual])).toEqual([
      [3, expect.stringMatching(/^not-json: a 200 answer of type text\/html/)],
      [4, expect.stringMatching(/^not-json: a 200 answer whose Content-Encoding could not be undone/)],
    ]);
  });

  it("hands on what answers a GET on a service path (the mock's GraphiQL page) as it came, not as a broken answer", async () => {
    // The interface defines only POST on its paths: an HTML page for a browser's GET is no fault of the service.
    // The stand-in answers every request with a page, as the mock answers a browser's GET /graphql.
    const page = '<!doctype html><html><head><title>GraphiQL</title></head><body></body></html>';
    const service = await startStandIn((_req, _body, res) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page),
    );
    closers.push(() => service.close());
    const proxy = await proxyTo(service.url);
    const got = await rawRequest(proxy.url, {
      method: 'GET',
      path: servicePaths.graphql,
      headers: { accept: 'text/html' },
    });
    expect([got.status, got.body.toString()]).toEqual([200, page]);
    expect(proxy.report().drifts.filter((d) => d.kind !== 'consumer')).toEqual([]);
    // The same page answering a POST is still the service's fault.
    expect((await post(proxy, servicePaths.graphql, graphqlBody)).status).toBe(502);
    expect(proxy.report().drifts.filter((d) => d.kind === 'upstream')).toHaveLength(1);
  });

  it("refuses a consumer body over the bound with 413 in the path's shape, without forwarding it", async () => {
    const service = await faultyService('hang');
    const proxy = await proxyTo(service.url);
    const big = JSON.stringify({ query: 'x'.repeat(4096), variables: {} });
    const answer = await post(proxy, servicePaths.graphql, big);
    expect(answer.status).toBe(413);
    expect(json(answer).errors[0].extensions.reason).toBe('BAD_REQUEST');
    expect(service.received).toEqual([]);
    const drift = await rawRequest(proxy.url, { method: 'GET', path: '/__pck/drift' });
    expect(json(drift)).toMatchObject({ exchanges: 0, drifts: [] });
  });
});

describe('hostile request targets', () => {
  it('forwards only paths, never to another host: absolute-form and "*" targets get 400 in the 7.1 shape', async () => {
    const service = await faultyService('hang');
    const proxy = await proxyTo(service.url);
    const { port } = new URL(proxy.url);
    const send = (target: string) =>
      new Promise<string>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () =>
          socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
        );
        let text = '';
        socket.on('data', (d) => {
          text += d;
        });
        socket.on('end', () => resolve(text));
      });
    for (const target of ['http://evil.example/x', '*']) {
      const answer = await send(target);
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toContain('"status":"ERROR"');
    }
    // A path that looks like a host stays a path on the service.
    expect(await send('//evil.example/x')).toMatch(/^HTTP\/1\.1 200 /);
    expect(service.received.map((r) => r.path)).toEqual(['//evil.example/x']);
  });
});
