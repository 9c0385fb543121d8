// The page of the browser test (browser.test.ts bundles it with esbuild from the packed tarball): a front-end app's
// own setup, msw's setupWorker with the kit's handlers, and the kit's flows, each exposed to the test as a function
// that answers plain JSON. It runs in Chromium, so it uses only what a browser has.
import { setupWorker } from 'msw/browser';
import { createPaymentClient } from 'payment-contract-kit/client';
import { createMockHandlers } from 'payment-contract-kit/msw';

const page = globalThis as unknown as {
  location: { href: string };
  pck: Record<string, () => Promise<unknown>>;
  pckReady: Promise<unknown>;
};
// The test server's own receiver, reachable from the page; and a URL a browser refuses (port 9 is a blocked port).
const hookUrl = new URL('/hook', page.location.href).href;
const blockedUrl = 'http://127.0.0.1:9/hook';

const heard: { uuid: string; status: string }[] = [];
const mock = createMockHandlers({
  log: false,
  webhookUrls: [hookUrl, blockedUrl],
  webhookReceivers: [
    async (request) => {
      heard.push(await request.json());
      return new Response(null, { status: 204 });
    },
  ],
});
const worker = setupWorker(...mock.handlers);
const credentials = { clientId: 'test-client', apiKey: 'test-api-key' };
const credit_card = {
  full_name: 'Ada L',
  card_number: '4111111111111111',
  expiry_month: '12',
  expiry_year: '39',
  cvv: '123',
};
const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
const payment_reference = { description: 'Order 42', reference_no: 'ORD-42' };
const paymentMutation = /* GraphQL */ `
  mutation Pay($input: ProcessPaymentRequestInput!) {
    processPaymentRequest(input: $input) { amount payment_gateway_fee paid_at status { name } uuid }
  }`;
const feesQuery = /* GraphQL */ `
  query Fees($amount: Float!) { paymentGatewayFeesCalc(amount: $amount) { amount fees total_settlement_amount card_type } }`;

// biome-ignore lint/suspicious/noExplicitAny: the flows read whatever the mock answered; the test checks its shape.
async function json(response: Response): Promise<{ status: number; body: any }> {
  return { status: response.status, body: await response.json() };
}

async function token(): Promise<string> {
  const answer = await json(
    await fetch(`${mock.baseUrl}/api/v2/accounting/token/generate-token`, {
      method: 'POST',
      headers: { 'x-client-id': credentials.clientId, 'x-api-key': credentials.apiKey, accept: 'application/json' },
    }),
  );
  return answer.body.data.token;
}

async function graphql(jwt: string, query: string, variables: unknown) {
  return json(
    await fetch(`${mock.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-jwt-token': jwt },
      body: JSON.stringify({ query, variables }),
    }),
  );
}

// The first answer after worker.start(): what a team's first request waits for.
const started = performance.now();
const ready = worker.start({ onUnhandledRequest: 'error', quiet: true }).then(async () => {
  const startMs = performance.now() - started;
  const first = performance.now();
  const jwt = await token();
  return { startMs, firstAnswerMs: performance.now() - first, tokenLength: jwt.length };
});

page.pckReady = ready;
page.pck = {
  async fees() {
    const client = createPaymentClient({ baseUrl: mock.baseUrl, ...credentials });
    return client.feesFor(100);
  },
  async cardFee() {
    const client = createPaymentClient({ baseUrl: mock.baseUrl, ...credentials });
    return client.cardFee({ amount: 100, credit_card, contact });
  },
  async payment() {
    const client = createPaymentClient({ baseUrl: mock.baseUrl, ...credentials });
    const { fees } = await client.cardFee({ amount: 100, credit_card, contact });
    const payment = await client.processPayment({ amount: 100, fees, credit_card, contact, payment_reference });
    const stored = (await mock.control.payments()).map((p) => ({ uuid: p.uuid, status: p.status }));
    mock.control.advanceClock(mock.control.assumptions.settleDelayMs);
    const delivered = (url: string) => (d: { paymentUuid: string; url: string; state: string }) =>
      d.paymentUuid === payment.uuid && d.url === url && d.state === 'delivered';
    const inPage = await mock.control.waitForDelivery(delivered('http://in-process.invalid/webhook-receivers/1'));
    const overFetch = await mock.control.waitForDelivery(delivered(hookUrl));
    // The blocked URL's first attempt has failed: the delivery waits for its retry on the mock clock.
    const blocked = await mock.control.waitForDelivery(
      (d) => d.paymentUuid === payment.uuid && d.url === blockedUrl && d.state !== 'sending' && d.attempts.length > 0,
    );
    return {
      payment,
      stored,
      heard,
      inPage: { state: inPage.state, attempts: inPage.attempts.length },
      overFetch: { state: overFetch.state, status: overFetch.attempts[0]?.status },
      blocked: { state: blocked.state, error: blocked.attempts[0]?.error },
    };
  },
  async validation() {
    const jwt = await token();
    const input = {
      amount: 100,
      fees: 1.8,
      credit_card: { ...credit_card, expiry_year: '20' },
      contact,
      payment_reference,
    };
    return graphql(jwt, paymentMutation, { input });
  },
  async tokenExpiry() {
    const jwt = await token();
    const before = await graphql(jwt, feesQuery, { amount: 10 });
    mock.control.advanceClock(mock.control.assumptions.tokenTtlSeconds * 1000 + 1000);
    const after = await graphql(jwt, feesQuery, { amount: 10 });
    return { before: before.status, after };
  },
  async reset() {
    mock.control.reset();
    heard.length = 0;
    return null;
  },
};
