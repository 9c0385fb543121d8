/**
 * Reference (a″), the payment floor: the least that answering a payment over node:http costs. Bare node:http that
 * reads the whole request body, parses it as JSON, takes the amount and fee from the variables, and answers a
 * processPaymentRequest result of the mock's shape and size (a fresh uuid and timestamp each time). No validation,
 * no state, no schema, no log. Compared with (a), it shows what a payment's larger request and answer cost over
 * HTTP whatever the implementation; the mock's payment is judged against it.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { answerJson, listenAndReport } from './listen.ts';

const badRequest = JSON.stringify({ errors: [{ message: 'body is not JSON' }] });

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let input: { amount?: unknown; fees?: unknown } | undefined;
    try {
      input = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { variables?: { input?: typeof input } }).variables
        ?.input;
    } catch {
      answerJson(res, 400, badRequest);
      return;
    }
    const json = JSON.stringify({
      data: {
        processPaymentRequest: {
          amount: input?.amount ?? null,
          payment_gateway_fee: input?.fees ?? null,
          paid_at: new Date().toISOString(),
          status: { name: 'processing' },
          uuid: randomUUID(),
        },
      },
    });
    answerJson(res, 200, json);
  });
});
server.keepAliveTimeout = 60_000;

listenAndReport(server, 'payment-floor reference');
