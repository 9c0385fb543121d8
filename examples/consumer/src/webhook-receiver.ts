// The team's webhook endpoint: verifies each payment status notification with the kit, then records the outcome.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkWebhookSignature } from 'payment-contract-kit/webhook';

/** A running receiver: its URL and the outcomes it recorded by payment uuid. */
export interface WebhookReceiver {
  readonly url: string;
  readonly outcomes: ReadonlyMap<string, string>;
  close(): Promise<void>;
}

/**
 * Listens on `port` (0: any free one). `POST /webhooks/payment-status` takes notifications (204 when verified, 401
 * otherwise); `GET /payments/<uuid>` answers the recorded outcome, as the team's order page would read it.
 */
export async function startWebhookReceiver(
  keys: { signingKey: string; clientId: string },
  port = 0,
): Promise<WebhookReceiver> {
  const outcomes = new Map<string, string>();
  const server: Server = createServer(async (req, res) => {
    if (req.method === 'GET' && req.url?.startsWith('/payments/')) {
      const outcome = outcomes.get(decodeURIComponent(req.url.slice('/payments/'.length)));
      res.writeHead(outcome ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ outcome: outcome ?? null }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const result = checkWebhookSignature({ headers: req.headers, rawBody: Buffer.concat(chunks), ...keys });
    if (!result.ok) {
      res.writeHead(401).end(result.error.code);
      return;
    }
    outcomes.set(result.payload.uuid, result.payload.status);
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    outcomes,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
