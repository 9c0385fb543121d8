/**
 * `startMockServer` itself, over real sockets: port 0, parallel instances, the `node:http` listener of
 * `createMockApp`, keep-alive, the body limit on the socket, close, options and latency. What the routes answer is
 * tested in process, per route group: test/mock/internal/http/routes.test.ts (tokens, GraphQL),
 * control/routes.test.ts, http/pipeline.test.ts (HTTP errors, request log) and domain/settlement-in-process.test.ts.
 */
import { Agent, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { createMockApp, startMockServer } from '../../src/mock/index.ts';
import { credentials, post, tokenPaths } from './helpers.ts';

/** POSTs `body` to `url` through `agent` and resolves with the response and whether the socket was reused. */
function postVia(agent: Agent, url: string, body: string): Promise<{ res: IncomingMessage; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      agent,
      headers: { ...credentials, 'content-type': 'application/json' },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ res, reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the socket', () => {
  it('listens on a free port with port 0 and names it in url', async () => {
    const m = await startMockServer({ port: 0, log: false });
    try {
      expect(m.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(Number(new URL(m.url).port)).toBeGreaterThan(0);
      expect((await post(`${m.url}${tokenPaths.generate}`, credentials)).status).toBe(200);
    } finally {
      await m.close();
    }
  });

  it('keeps a connection alive across requests', async () => {
    const m = await startMockServer({ port: 0, log: false });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await postVia(agent, `${m.url}${tokenPaths.generate}`, '');
      const second = await postVia(agent, `${m.url}${tokenPaths.generate}`, '');
      expect([first.res.statusCode, second.res.statusCode]).toEqual([200, 200]);
      expect(second.reused).toBe(true);
    } finally {
      agent.destroy();
      await m.close();
    }
  });

  it('answers 413 in the spec shape for a body over maxBodyBytes read from the socket, REST and GraphQL', async () => {
    const m = await startMockServer({ port: 0, log: false, maxBodyBytes: 1024 });
    try {
      const rest = await post(`${m.url}${tokenPaths.refresh}`, credentials, { refresh_token: 'x'.repeat(4096) });
      expect(rest.status).toBe(413);
      expect(rest.body).toEqual({ status: 'ERROR', message: expect.stringContaining('[payment-contract-kit]') });
      const token = m.control.issueToken('test-client').token;
      const g = await post(`${m.url}/graphql`, { 'x-jwt-token': token }, { query: 'x'.repeat(4096) });
      expect(g.status).toBe(413);
      expect(g.body.errors[0].extensions.reason).toBe(defaultAssumptions.reasonCodes.badRequest);
    } finally {
      await m.close();
    }
  });

  it('stops listening on close', async () => {
    const m = await startMockServer({ port: 0, log: false });
    await m.close();
    await expect(post(`${m.url}${tokenPaths.generate}`, credentials)).rejects.toThrow();
  });
});

describe('instances', () => {
  it('runs many instances on port 0 in parallel, each with its own state', async () => {
    const servers = await Promise.all(Array.from({ length: 5 }, () => startMockServer({ port: 0, log: false })));
    try {
      expect(new Set(servers.map((s) => s.url)).size).toBe(5);
      await post(`${servers[0]!.url}${tokenPaths.generate}`, credentials);
      expect(await servers[0]!.control.requests()).toHaveLength(1);
      expect(await servers[1]!.control.requests()).toHaveLength(0);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });

  it('createMockApp has no side effects; its handle serves a node:http server', async () => {
    const app = createMockApp({ log: false });
    const { createServer } = await import('node:http');
    const server = createServer(app.handle);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const r = await post(
        `http://127.0.0.1:${(server.address() as AddressInfo).port}${tokenPaths.generate}`,
        credentials,
      );
      expect(r.status).toBe(200);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
      await app.close();
    }
  });

  it('rejects bad options with a message naming the option', () => {
    expect(() => createMockApp({ guide: 'old' as never })).toThrow(/\[payment-contract-kit\] mock option "guide"/);
    expect(() => createMockApp({ webhookUrls: ['nope'] })).toThrow(/webhookUrls/);
  });

  it('simulates latency', async () => {
    const slow = await startMockServer({ port: 0, log: false, latency: { minMs: 80, maxMs: 100 } });
    try {
      const t = performance.now();
      await post(`${slow.url}${tokenPaths.generate}`, credentials);
      expect(performance.now() - t).toBeGreaterThanOrEqual(75);
    } finally {
      await slow.close();
    }
  });
});
