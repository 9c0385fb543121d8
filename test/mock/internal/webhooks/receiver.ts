// A real HTTP webhook receiver for the dispatcher tests, misbehaving on purpose as each test scripts it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the receiver does with one request. */
export type Reply =
  | { status: number; headers?: Record<string, string>; body?: string }
  /** Never answer (the attempt must time out). */
  | 'hang'
  /** Send a 200 status line and part of the body, then reset the connection. */
  | 'reset';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  deliveryId: string;
  /** Parsed payload. */
  json: { uuid: string; status: string; metadata?: Record<string, unknown> };
  /** What the receiver answered (set once `reply` chose). */
  answer?: Reply;
}

export interface TestReceiver {
  url: string;
  port: number;
  received: Received[];
  /** Requests whose 2xx answer was written out completely: what the sender can know was accepted. */
  acknowledged: Received[];
  /** Requests answered 'hang' whose connection is still open: attempts only the sender's time-out can end. */
  hanging: Set<Received>;
  /** Scripted behaviour; receives the request and how many requests came before it. */
  reply: (r: Received, index: number) => Reply;
  /** Stops listening and drops open connections (connection refused from now on). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a receiver on a free port (port 0), or on `port` when given. `onChange` is told after each change of
 * `received`, `acknowledged` or `hanging`, so a test can wait for one without polling (test/support/changes.ts).
 */
export async function startReceiver(port = 0, onChange: () => void = () => {}): Promise<TestReceiver> {
  const receiver: TestReceiver = {
    url: '',
    port: 0,
    received: [],
    acknowledged: [],
    hanging: new Set(),
    reply: () => ({ status: 200 }),
    stop,
    start: () => listen(receiver.port),
    close: stop,
  };
  let server: http.Server | undefined;

  function listen(at: number): Promise<void> {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const r: Received = {
          headers: req.headers,
          body,
          deliveryId: String(req.headers['x-webhook-delivery-id']),
          json: JSON.parse(body),
        };
        const index = receiver.received.length;
        receiver.received.push(r);
        const reply = receiver.reply(r, index);
        r.answer = reply;
        if (reply === 'hang') {
          receiver.hanging.add(r);
          res.on('close', () => {
            receiver.hanging.delete(r);
            onChange();
          });
          onChange();
          return;
        }
        onChange();
        if (reply === 'reset') {
          res.writeHead(200, { 'content-length': '100' });
          res.write('{"partial":', () => res.socket?.resetAndDestroy());
          return;
        }
        if (reply.status >= 200 && reply.status < 300)
          res.on('finish', () => {
            receiver.acknowledged.push(r);
            onChange();
          });
        res.writeHead(reply.status, reply.headers).end(reply.body ?? '');
      });
    });
    const s = server;
    return new Promise((resolve, reject) => {
      s.once('error', reject);
      s.listen(at, '127.0.0.1', () => {
        receiver.port = (s.address() as AddressInfo).port;
        receiver.url = `http://127.0.0.1:${receiver.port}/webhooks`;
        resolve();
      });
    });
  }

  function stop(): Promise<void> {
    const s = server;
    server = undefined;
    if (!s) return Promise.resolve();
    return new Promise((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
  }

  await listen(port);
  return receiver;
}
