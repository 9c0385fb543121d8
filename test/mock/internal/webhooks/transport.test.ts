// The web-safe webhook transports. The `fetch` one: an answer becomes the same PostResult an HTTP POST gives, and a
// fetch that rejects becomes a failed attempt whose code says why. The in-process one: what a receiver's answer
// becomes, and which URLs stay on the network. Either way the dispatcher's retry rules apply unchanged.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAttemptAbort,
  createFetchTransport,
  createInProcessTransport,
  inProcessReceivers,
  PostError,
  receiverUrl,
  type WebhookTransport,
} from '../../../support/mock-internals/webhooks.ts';

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
    const result = await createFetchTransport().send(url, headers, '{}', createAttemptAbort());
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
    const attempt = createFetchTransport(refusing).send(url, {}, '{}', createAttemptAbort());
    await expect(attempt).rejects.toMatchObject({
      name: 'PostError',
      code: expect.stringMatching(/^fetch-failed: .*Failed to fetch.*CORS.*webhookReceivers/),
    });
  });

  it('reports an aborted attempt by its reason (the attempt timeout), not as a fetch failure', async () => {
    const controller = createAttemptAbort();
    controller.abort('timeout');
    const hanging = ((_: unknown, init: { signal: AbortSignal }) =>
      Promise.reject(init.signal.reason)) as unknown as typeof fetch;
    await expect(createFetchTransport(hanging).send(url, {}, '{}', controller)).rejects.toMatchObject({
      code: 'timeout',
    });
  });
});

/** A network transport that records what reached it. */
function recordingNetwork() {
  const sent: string[] = [];
  let released = 0;
  const transport: WebhookTransport = {
    send: async (url) => {
      sent.push(url.href);
      return { status: 202, retryAfter: undefined, date: undefined, bodySnippet: '' };
    },
    release: () => {
      released += 1;
    },
  };
  return { transport, sent, released: () => released };
}

const send = (t: WebhookTransport, url: string, abort = createAttemptAbort()) =>
  t.send(new URL(url), { 'x-client-id': 'test-client' }, '{"uuid":"u-1"}', abort);

describe('createInProcessTransport', () => {
  it('maps status, Retry-After, Date and the first 256 bytes of the body', async () => {
    const network = recordingNetwork();
    const date = 'Thu, 01 Jan 2026 00:00:00 GMT';
    const t = createInProcessTransport(
      [() => new Response('x'.repeat(1000), { status: 503, headers: { 'retry-after': '3', date } })],
      network.transport,
    );
    const result = await send(t, receiverUrl(0));
    expect(result).toEqual({ status: 503, retryAfter: '3', date, bodySnippet: 'x'.repeat(256) });
    expect(network.sent).toEqual([]);
  });

  it('sends every other URL through the network transport, and releases it', async () => {
    const network = recordingNetwork();
    const t = createInProcessTransport([() => new Response(null, { status: 204 })], network.transport);
    expect((await send(t, receiverUrl(1))).status).toBe(202);
    expect((await send(t, 'http://127.0.0.1:9/hooks')).status).toBe(202);
    expect(network.sent).toEqual([receiverUrl(1), 'http://127.0.0.1:9/hooks']);
    t.release();
    expect(network.released()).toBe(1);
  });

  it('rejects with a PostError carrying the abort reason, before and during the call', async () => {
    const t = createInProcessTransport([() => new Promise<Response>(() => {})], recordingNetwork().transport);
    const before = createAttemptAbort();
    before.abort('reset');
    await expect(send(t, receiverUrl(0), before)).rejects.toMatchObject({ code: 'reset' });
    const during = createAttemptAbort();
    const pending = send(t, receiverUrl(0), during);
    during.abort('timeout');
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostError);
    expect(error).toMatchObject({ code: 'timeout' });
  });

  it('turns a rejected promise into a receiver-threw code naming the error', async () => {
    const t = createInProcessTransport(
      [() => Promise.reject(new RangeError('no such order'))],
      recordingNetwork().transport,
    );
    await expect(send(t, receiverUrl(0))).rejects.toMatchObject({ code: 'receiver-threw: RangeError: no such order' });
  });
});

describe('inProcessReceivers', () => {
  it('appends one URL per receiver to the default webhook URLs, and leaves options alone without receivers', () => {
    const options = { webhookUrls: ['http://127.0.0.1:9/hooks'] };
    const network = () => createFetchTransport();
    expect(inProcessReceivers(options, [], network)).toEqual({ options, createTransport: network });
    const added = inProcessReceivers(options, [() => new Response(), () => new Response()], network);
    expect(added.options.webhookUrls).toEqual([
      'http://127.0.0.1:9/hooks',
      'http://in-process.invalid/webhook-receivers/1',
      'http://in-process.invalid/webhook-receivers/2',
    ]);
    expect(added.createTransport).not.toBe(network);
  });
});

describe('createAttemptAbort', () => {
  it('tells its one listener once, with the reason an AbortController would give', () => {
    const abort = createAttemptAbort();
    const told: unknown[] = [];
    abort.onAbort(() => told.push(abort.reason));
    expect(abort.aborted).toBe(false);
    abort.abort('timeout');
    abort.abort('reset');
    expect(told).toEqual(['timeout']);
    expect(abort).toMatchObject({ aborted: true, reason: 'timeout' });
    const plain = createAttemptAbort();
    plain.abort();
    expect(plain.reason).toMatchObject({ name: 'AbortError' });
    expect(String(plain.reason)).toBe(String(abortedReason()));
  });

  it('makes the signal on first use, aborted with the same reason before or after', () => {
    const early = createAttemptAbort();
    early.abort('closed');
    expect(early.signal).toMatchObject({ aborted: true, reason: 'closed' });
    const late = createAttemptAbort();
    const signal = late.signal;
    expect(signal.aborted).toBe(false);
    late.abort('timeout');
    expect(signal).toMatchObject({ aborted: true, reason: 'timeout' });
    expect(late.signal).toBe(signal);
  });

  it('stops telling a listener that stopped listening', () => {
    const abort = createAttemptAbort();
    let told = 0;
    const stop = abort.onAbort(() => {
      told += 1;
    });
    stop();
    abort.abort('reset');
    expect(told).toBe(0);
  });
});

/** What an AbortController's signal holds as its reason when aborted without one. */
function abortedReason(): unknown {
  const controller = new AbortController();
  controller.abort();
  return controller.signal.reason;
}
