/**
 * The small interface the model's commands are written against, and the ways the mock runs behind it: send a
 * request (service paths and the control API alike), read the deployment's clock window, observe the webhooks a
 * receiver got, switch the receiver down and up, and (where the deployment can) kill and restart the process.
 *
 * Every exchange with a service path, and every webhook, also goes through the kit's own checker: an answer of the
 * mock that the checker calls drift of the service (kinds contract, assumption, upstream) fails the run at once.
 *
 * @module
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkExchange, type Drift } from '../../src/contract/check/index.ts';
import { modelClients } from './reference-model.ts';

/** A request as the commands build it. */
export interface WireRequest {
  readonly method: 'GET' | 'POST';
  /** Path and query. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON value, sent as its text. */
  readonly json?: unknown;
}

/** An answer: status, headers in lower case, the body parsed as JSON (undefined when empty). */
export interface WireResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly text: string;
}

/** One webhook the receiver got (of the current run only: see {@link Receiver.startRun}). */
export interface ReceivedWebhook {
  readonly deliveryId: string;
  readonly clientId: string;
  readonly payload: Record<string, unknown>;
}

/** Where a deployment sends its webhooks. */
export interface Receiver {
  /** Webhooks of the current run that the receiver answered 2xx, in arrival order. */
  delivered(): readonly ReceivedWebhook[];
  setUp(up: boolean): void;
  /** Starts a run: forgets what was received, comes up, and ignores from now on what earlier runs still send. */
  startRun(run: number): void;
  /** The receiver as a Fetch handler (in-process deployments call it directly). */
  handle(request: Request): Promise<Response>;
  /** Drifts the checker found in webhooks (kinds contract, assumption, upstream). */
  drifts(): readonly Drift[];
}

/** A way the mock runs, as the commands see it. */
export interface Deployment {
  readonly name: string;
  /** Sends a request; the answer of a service path was checked already. */
  send(request: WireRequest): Promise<WireResponse>;
  /** The deployment's real time (fixed for a frozen clock); the model adds the control API's advances. */
  wallNow(): number;
  readonly settleDelayMs: number;
  /** Whether real time stands still on the deployment (only the control API moves its clock). */
  readonly frozenClock: boolean;
  readonly receiver: Receiver;
  /** SIGKILLs the process and starts it again on the same store; absent where there is no process. */
  readonly restart?: () => Promise<void>;
  close(): Promise<void>;
}

/** Drifts that are the service's (never the consumer's own mistake). */
export function serviceDrifts(drifts: readonly Drift[]): Drift[] {
  return drifts.filter((d) => d.kind !== 'consumer');
}

/** Thrown when the checker calls an answer of the mock drift of the service. */
export class CheckerDisagreement extends Error {}

/**
 * Wraps a raw `fetch`-like sender: bodies as JSON, answers parsed, service exchanges checked with `checkExchange`.
 */
export function checkedSender(
  raw: (path: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<Response>,
): (request: WireRequest) => Promise<WireResponse> {
  return async (request) => {
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    const body = request.json === undefined ? undefined : JSON.stringify(request.json);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const answer = await raw(request.path, { method: request.method, headers, ...(body ? { body } : {}) });
    const text = await answer.text();
    const answerHeaders: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      answerHeaders[name] = value;
    });
    if (!request.path.startsWith('/__pck/')) {
      const check = checkExchange(
        {
          request: { method: request.method, url: request.path, headers, body },
          response: { status: answer.status, headers: answerHeaders, body: text },
        },
        { guide: 'both' },
      );
      const found = serviceDrifts(check.drifts);
      if (found.length > 0)
        throw new CheckerDisagreement(
          `the checker calls the mock's answer to ${request.method} ${request.path} (HTTP ${answer.status}) drift of the service: ${JSON.stringify(found)}`,
        );
    }
    return { status: answer.status, headers: answerHeaders, body: text ? JSON.parse(text) : undefined, text };
  };
}

/** A receiver that answers 204 while up and 500 while down, and checks every webhook with the checker. */
export function createReceiver(): Receiver {
  let up = true;
  let run = 0;
  let got: ReceivedWebhook[] = [];
  const drifts: Drift[] = [];
  return {
    delivered: () => got,
    setUp(value) {
      up = value;
    },
    startRun(next) {
      run = next;
      got = [];
      up = true;
    },
    drifts: () => drifts,
    async handle(request) {
      const rawBody = await request.text();
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        headers[name] = value;
      });
      const payload = JSON.parse(rawBody) as Record<string, unknown>;
      const metadata = payload.metadata as { run?: number } | undefined;
      // Attempts of an earlier run (deliveries in flight when it reset) are not this run's.
      if (metadata?.run !== run) return new Response(null, { status: 204 });
      const status = up ? 204 : 500;
      const check = checkExchange({
        kind: 'webhook',
        request: { method: 'POST', url: '/webhooks', headers, body: rawBody },
        response: { status, headers: {} },
      });
      drifts.push(...serviceDrifts(check.drifts));
      if (up)
        got.push({
          deliveryId: headers['x-webhook-delivery-id'] ?? '',
          clientId: headers['x-client-id'] ?? '',
          payload,
        });
      return new Response(null, { status });
    },
  };
}

/** Serves a receiver over HTTP on a free port of 127.0.0.1. */
export async function serveReceiver(receiver: Receiver): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const answer = await receiver.handle(
      new Request('http://receiver/webhooks', { method: 'POST', headers, body: Buffer.concat(chunks) }),
    );
    res.writeHead(answer.status).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The mock options every deployment shares: the model's clients, no log. */
export const modelMockOptions = {
  clients: modelClients.map((c) => ({ clientId: c.clientId, apiKey: c.apiKey })),
  log: false,
} as const;

/** A fixed real time for deployments whose clock the test freezes (only the control API moves it). */
export const frozenRealTime = Date.UTC(2026, 5, 1, 12, 0, 0);
