// The in-process transport on its own: what a receiver's answer becomes, and which URLs stay on the network.
import { describe, expect, it } from 'vitest';
import {
  createFetchTransport,
  createInProcessTransport,
  inProcessReceivers,
  PostError,
  receiverUrl,
  type WebhookTransport,
} from '../../../support/mock-internals/webhooks.ts';

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

const send = (t: WebhookTransport, url: string, signal = new AbortController().signal) =>
  t.send(new URL(url), { 'x-client-id': 'test-client' }, '{"uuid":"u-1"}', signal);

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
    const before = new AbortController();
    before.abort('reset');
    await expect(send(t, receiverUrl(0), before.signal)).rejects.toMatchObject({ code: 'reset' });
    const during = new AbortController();
    const pending = send(t, receiverUrl(0), during.signal);
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
