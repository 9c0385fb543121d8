/**
 * Helpers of the proxy tests: raw HTTP requests (exact status line, headers and body bytes), stand-in services on
 * port 0, and the consumer flows of both guides as request lists.
 *
 * @module
 */
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultCredentials, serviceHeaders, servicePaths } from '../../src/spec-names.ts';
import { testCardDetails, testCardNumbers } from '../../src/test-values.ts';

/** An answer exactly as it came over the wire. */
export interface RawAnswer {
  readonly status: number;
  readonly statusMessage: string;
  readonly rawHeaders: string[];
  readonly body: Buffer;
}

/** One request to send. */
export interface RawRequest {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
}

/** Sends one request on a fresh connection and resolves with the exact answer. */
export function rawRequest(base: string, req: RawRequest): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const url = new URL(req.path, base);
    const outgoing = request(
      url,
      { method: req.method ?? 'POST', headers: { ...req.headers }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            statusMessage: res.statusMessage ?? '',
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}

/** Parses an answer's body as JSON. */
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back; each asserts its own shape.
export function json(answer: RawAnswer): any {
  return JSON.parse(answer.body.toString('utf8'));
}

/** The end-to-end headers of an answer without `Date` (two servers answer in different seconds). */
export function comparableHeaders(raw: readonly string[]): string[] {
  const hop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (!hop.has(raw[i]!.toLowerCase())) out.push(raw[i]!, raw[i + 1]!);
  return out;
}

/** A small server on port 0 standing in for the service (or a webhook receiver). */
export interface StandIn {
  readonly url: string;
  /** Requests received, with their bodies. */
  readonly received: { method: string; path: string; headers: IncomingMessage['headers']; body: string }[];
  close(): Promise<void>;
}

/** Handler of a stand-in: answers one request (its body already read). */
export type StandInHandler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

/** Starts a stand-in on 127.0.0.1, port 0. */
export async function startStandIn(handler: StandInHandler): Promise<StandIn> {
  const received: StandIn['received'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers JSON with a status (and extra headers). */
export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) {
  const body = typeof value === 'string' ? value : JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export const credentials = {
  [serviceHeaders.clientId]: defaultCredentials.clientId,
  [serviceHeaders.apiKey]: defaultCredentials.apiKey,
};
export const jsonHeaders = { 'content-type': 'application/json', accept: 'application/json' };

export const queries = {
  fees: 'query PaymentGatewayFeesCalc($amount: Float!) { paymentGatewayFeesCalc(amount: $amount) { amount fees total_settlement_amount card_type } }',
  legacyFees:
    'query PaymentGatewayFeesCalc($amount: Float!) { paymentGatewayFeesCalc(amount: $amount) { amount fees total card_location card_type } }',
  cardFee:
    'query PaymentCreditCardFeeCalc($amount: Float!, $credit_card: CreditCardInput!, $contact: ContactInput!) { paymentCreditCardFeeCalc(amount: $amount, credit_card: $credit_card, contact: $contact) { amount fees total_settlement_amount card_account_uid card_type } }',
  pay: 'mutation ProcessPaymentRequest($input: ProcessPaymentRequestInput!) { processPaymentRequest(input: $input) { amount payment_gateway_fee paid_at status { name } uuid } }',
  legacyPay:
    'mutation ProcessPaymentRequest($input: ProcessPaymentInput!) { processPaymentRequest(input: $input) { amount payment_gateway_fee paid_at status { name } uuid } }',
} as const;

export const card = { ...testCardDetails, card_number: testCardNumbers.visaSuccess };
export const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
export const reference = { description: 'Order 1', reference_no: 'R-1' };

/** A GraphQL request body. */
export function gql(query: string, variables: Record<string, unknown>, operationName?: string): string {
  return JSON.stringify({ query, variables, ...(operationName ? { operationName } : {}) });
}

/** A payment input of the guide, for `cardNumber` (or a card account). */
export function payInput(guide: 'current' | 'legacy', credit: Record<string, unknown> = {}) {
  const { card_number, ...rest } = card;
  if (guide === 'legacy')
    return {
      amount: 100,
      fees: 1.8,
      credit_card: { ...rest, number: card_number, ...credit },
      contact: { ...contact, ...reference },
    };
  return {
    amount: 100,
    fees: 1.8,
    credit_card: { ...card, ...credit },
    contact,
    payment_reference: reference,
    metadata: { order_id: 'o-1' },
  };
}

/** Sends one request and gives back the answer; the flows use it so the same steps run direct and proxied. */
export type Send = (req: RawRequest) => Promise<RawAnswer>;

/**
 * Every consumer flow of one guide, in order: tokens (generate, refresh, revoke with and without a token), the fee
 * list, a card fee, payments (card details, card account, declined card, settles as failure), and the error answers
 * (no token, bad token, validation errors, not JSON). Resolves with every answer.
 */
export async function runFlows(send: Send, guide: 'current' | 'legacy'): Promise<RawAnswer[]> {
  const answers: RawAnswer[] = [];
  const go = async (req: RawRequest) => {
    const a = await send(req);
    answers.push(a);
    return a;
  };
  const generated = json(await go({ path: servicePaths.generateToken, headers: { ...credentials, ...jsonHeaders } }));
  const refreshed = json(
    await go({
      path: servicePaths.refreshToken,
      headers: { ...credentials, ...jsonHeaders },
      body: JSON.stringify({ refresh_token: generated.data.refresh_token }),
    }),
  );
  const token: string = refreshed.data.token;
  const graph = (body: string, extra: Record<string, string> = {}) =>
    go({ path: servicePaths.graphql, headers: { ...jsonHeaders, [serviceHeaders.jwt]: token, ...extra }, body });
  const legacy = guide === 'legacy';
  await graph(gql(legacy ? queries.legacyFees : queries.fees, { amount: 100 }));
  await graph(gql(legacy ? queries.legacyFees : queries.fees, { amount: 250.5 }));
  const { card_number, ...rest } = card;
  const cardInput = legacy ? { ...rest, number: card_number } : card;
  const contactInput = legacy ? { ...contact, ...reference } : contact;
  const fee = json(await graph(gql(queries.cardFee, { amount: 100, credit_card: cardInput, contact: contactInput })));
  const pay = legacy ? queries.legacyPay : queries.pay;
  await graph(gql(pay, { input: payInput(guide) }));
  const uid = fee.data?.paymentCreditCardFeeCalc?.card_account_uid;
  if (!legacy && typeof uid === 'string')
    await graph(gql(pay, { input: { ...payInput(guide), credit_card: { card_account_uid: uid } } }));
  const numberField = legacy ? 'number' : 'card_number';
  await graph(gql(pay, { input: payInput(guide, { [numberField]: testCardNumbers.visaRejectedAsInvalid }) }));
  await graph(gql(pay, { input: payInput(guide, { [numberField]: testCardNumbers.visaSettlesAsFailure }) }));
  // Error answers: validation (7.3), expiry in the past, no token, a bad token, a body that is not JSON.
  const { contact: _omit, ...noContact } = payInput(guide);
  await graph(gql(pay, { input: noContact }));
  await graph(gql(pay, { input: payInput(guide, { expiry_year: '20' }) }));
  const feesQuery = legacy ? queries.legacyFees : queries.fees;
  await go({ path: servicePaths.graphql, headers: jsonHeaders, body: gql(feesQuery, { amount: 100 }) });
  await graph(gql(feesQuery, { amount: 100 }), { [serviceHeaders.jwt]: 'not-a-token' });
  await graph('{not json');
  await go({
    path: servicePaths.revokeToken,
    headers: { ...credentials, ...jsonHeaders, [serviceHeaders.jwt]: token },
  });
  await go({ path: servicePaths.revokeToken, headers: { ...credentials, ...jsonHeaders } });
  await go({
    path: servicePaths.generateToken,
    headers: { [serviceHeaders.clientId]: 'nobody', [serviceHeaders.apiKey]: 'wrong-key-1' },
  });
  return answers;
}
