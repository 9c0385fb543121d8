// Provider verification: every pact in contracts/ (both guides' HTTP pacts, the typed client's token lifecycle pact
// and the webhook message pact) is verified
// with the Pact Verifier against the kit's real mock server (`guide: 'both'`), over HTTP. Provider states are set
// through the mock's control handle and hand fresh tokens and card accounts back for `fromProviderState`. The
// webhook messages are the payloads and headers the mock actually delivered to a receiver for a payment created
// over GraphQL and settled through the control handle. A mismatch fails the run.

import { writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Verifier } from '@pact-foundation/pact';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentCreditCardFeeCalcDocument, ProcessPaymentRequestDocument } from '../../../src/index.ts';
import { type MockServer, servicePaths, startMockServer, testCards } from '../../../src/mock/index.ts';
import { type ProviderStateParams, providerName, providerStates } from '../../../src/pact/index.ts';
import { card, contact, paymentReference } from '../support/fixtures.ts';
import {
  committedPactFiles,
  consumers,
  contractsDir,
  freshPactDir,
  pactFileName,
  readPact,
} from '../support/pact-files.ts';

type StateParams<S extends keyof ProviderStateParams> = ProviderStateParams[S];

/** A webhook as the receiver got it. */
interface Received {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

let mock: MockServer;
let receiver: Server;
const received = new Map<string, Received>();
/** The webhook of the latest paymentFinalised state, for the message providers. */
let lastWebhook: Received | undefined;
const counts = { messages: 0 };

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      received.set(String(body.uuid), { headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  mock = await startMockServer({
    port: 0,
    guide: 'both',
    webhookUrls: [`http://127.0.0.1:${port}/webhooks`],
    log: false,
  });
});

afterAll(async () => {
  await mock?.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

function apiKeyOf(clientId: string): string {
  const client = mock.options.clients.find((c) => c.clientId === clientId);
  if (!client) throw new Error(`[payment-contract-kit] provider state for unknown client "${clientId}"`);
  return client.apiKey;
}

/** Starts every state from a clean mock, so states never leak into each other. */
function fresh(): void {
  mock.control.reset();
}

async function graphql(token: string, document: Parameters<typeof print>[0], variables: unknown) {
  const res = await fetch(`${mock.url}${servicePaths.graphql}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'x-jwt-token': token },
    body: JSON.stringify({ query: print(document), variables }),
  });
  const body = (await res.json()) as { data?: Record<string, Record<string, unknown>>; errors?: unknown };
  if (!body.data) throw new Error(`[payment-contract-kit] provider state setup failed: ${JSON.stringify(body.errors)}`);
  return body.data;
}

const stateHandlers = {
  [providerStates.clientCredentials]: async (params: unknown) => {
    const { clientId } = params as StateParams<typeof providerStates.clientCredentials>;
    fresh();
    return { clientId, apiKey: apiKeyOf(clientId) };
  },
  [providerStates.tokenPair]: async (params: unknown) => {
    const { clientId } = params as StateParams<typeof providerStates.tokenPair>;
    fresh();
    const pair = mock.control.issueToken(clientId);
    return { clientId, apiKey: apiKeyOf(clientId), token: pair.token, refreshToken: pair.refresh_token };
  },
  [providerStates.accessToken]: async (params: unknown) => {
    const { clientId } = params as StateParams<typeof providerStates.accessToken>;
    fresh();
    return { token: mock.control.issueToken(clientId).token };
  },
  [providerStates.expiredAccessToken]: async (params: unknown) => {
    const { clientId } = params as StateParams<typeof providerStates.expiredAccessToken>;
    fresh();
    const { token } = mock.control.issueToken(clientId);
    // One second past the token lifetime on the mock's virtual clock.
    mock.control.advanceClock(mock.control.assumptions.tokenTtlSeconds * 1000 + 1000);
    return { token };
  },
  [providerStates.cardAccount]: async (params: unknown) => {
    const { clientId, cardType } = params as StateParams<typeof providerStates.cardAccount>;
    fresh();
    const testCard = Object.values(testCards).find((c) => c.card_type === cardType && c.outcome === 'success');
    if (!testCard) throw new Error(`[payment-contract-kit] no success test card of type "${cardType}"`);
    const cardAccountUid = mock.control.registerCardAccount(clientId, {
      card_number: testCard.number,
      expiry_month: '12',
      expiry_year: '39',
    });
    return { token: mock.control.issueToken(clientId).token, cardAccountUid };
  },
  [providerStates.tokenServiceFailing]: async (params: unknown) => {
    const { clientId } = params as StateParams<typeof providerStates.tokenServiceFailing>;
    fresh();
    for (const path of [servicePaths.generateToken, servicePaths.refreshToken, servicePaths.revokeToken])
      mock.control.failNextRequest(path, 500, { message: 'Internal server error.' });
    return { clientId, apiKey: apiKeyOf(clientId) };
  },
  [providerStates.paymentFinalised]: async (params: unknown) => {
    const { clientId, outcome, amount, metadata } = params as StateParams<typeof providerStates.paymentFinalised>;
    fresh();
    received.clear();
    // As a client would: price the card, pay with the fee, then the mock settles and delivers the webhook.
    const { token } = mock.control.issueToken(clientId);
    const fee = await graphql(token, PaymentCreditCardFeeCalcDocument, { amount, credit_card: card, contact });
    const paid = await graphql(token, ProcessPaymentRequestDocument, {
      input: {
        amount,
        fees: fee.paymentCreditCardFeeCalc?.fees,
        credit_card: card,
        contact,
        payment_reference: paymentReference,
        metadata,
      },
    });
    const uuid = String(paid.processPaymentRequest?.uuid);
    mock.control.settlePayment(uuid, outcome);
    await mock.control.waitForDelivery((d) => d.paymentUuid === uuid && d.state === 'delivered', { timeoutMs: 10_000 });
    lastWebhook = received.get(uuid);
    if (!lastWebhook) throw new Error(`[payment-contract-kit] the receiver got no webhook for payment ${uuid}`);
    return undefined;
  },
};

/** The delivered webhook as a Pact message: the JSON payload, with both headers as metadata. */
function deliveredWebhook() {
  counts.messages++;
  if (!lastWebhook) throw new Error('[payment-contract-kit] no webhook captured: the provider state did not run');
  const { signingKeyHeader, clientIdHeader } = mock.control.assumptions.webhook;
  const header = (name: string) => String(lastWebhook?.headers[name.toLowerCase()] ?? '');
  return {
    __pactMessageMetadata: { [signingKeyHeader]: header(signingKeyHeader), [clientIdHeader]: header(clientIdHeader) },
    message: lastWebhook.body,
  };
}

describe('provider verification against the mock (guide: both)', () => {
  it('verifies every interaction of every pact in contracts/', async () => {
    const files = await committedPactFiles();
    expect(files.length).toBeGreaterThan(0);
    /** Interaction description → its pact file and kind; descriptions are unique across the kit's pacts. */
    const owner = new Map<string, { file: string; kind: 'HTTP' | 'message' }>();
    const messageProviders: Record<string, typeof deliveredWebhook> = {};
    for (const file of files) {
      const pact = (await readPact(join(contractsDir, file))) as {
        interactions: { type: string; description: string }[];
      };
      for (const i of pact.interactions) {
        expect(owner.has(i.description), `description repeated: ${i.description}`).toBe(false);
        const kind = i.type === 'Asynchronous/Messages' ? 'message' : 'HTTP';
        owner.set(i.description, { file, kind });
        if (kind === 'message') messageProviders[i.description] = deliveredWebhook;
      }
    }

    const output = await new Verifier({
      provider: providerName,
      providerBaseUrl: mock.url,
      pactUrls: files.map((f) => join(contractsDir, f)),
      stateHandlers,
      messageProviders,
      logLevel: 'error',
      failIfNoPactsFound: true,
    }).verifyProvider();

    // The Verifier resolves with the core's JSON report only when every interaction passed; count what it reports.
    const report = JSON.parse(String(output)) as {
      errors: unknown[];
      interactionResults: { description: string; result: string }[];
    };
    expect(report.errors).toEqual([]);
    const verified = new Map<string, { HTTP: number; message: number }>(files.map((f) => [f, { HTTP: 0, message: 0 }]));
    for (const r of report.interactionResults) {
      const o = owner.get(r.description);
      expect(o, `reported interaction not in contracts/: ${r.description}`).toBeDefined();
      expect(r.result, r.description).toBe('OK');
      verified.get(o!.file)![o!.kind]++;
    }
    // Every consumer of the kit has its pact verified here, the typed client's included.
    for (const consumer of Object.values(consumers)) {
      const n = verified.get(pactFileName(consumer));
      expect((n?.HTTP ?? 0) + (n?.message ?? 0), consumer).toBeGreaterThan(0);
    }
    for (const [file, n] of verified)
      console.log(`[payment-contract-kit] verified ${file}: ${n.HTTP} HTTP interactions, ${n.message} messages`);
    console.log(
      `[payment-contract-kit] ${report.interactionResults.length} of ${owner.size} interactions verified against the mock (guide: both)`,
    );
    expect(report.interactionResults.map((r) => r.description).sort()).toEqual([...owner.keys()].sort());
    expect(counts.messages).toBe([...owner.values()].filter((o) => o.kind === 'message').length);
  }, 120_000);

  it('fails when the mock answers differently from a contract (negative control)', async () => {
    // The generate-token interaction, altered to expect status "ACCEPTED": the Verifier must reject it, or the
    // verification above proves nothing.
    const pact = (await readPact(join(contractsDir, pactFileName(consumers.current)))) as {
      interactions: { description: string; response: { body: { content: { status: string } } } }[];
    };
    const interaction = pact.interactions.find((i) => i.description === 'a request to generate a token pair');
    expect(interaction).toBeDefined();
    interaction!.response.body.content.status = 'ACCEPTED';
    const out = await freshPactDir();
    console.log('[payment-contract-kit] negative control: the verifier report below is expected to show FAILED.');
    try {
      const file = join(out.dir, 'altered.json');
      await writeFile(file, JSON.stringify({ ...pact, interactions: [interaction] }));
      const verification = new Verifier({
        provider: providerName,
        providerBaseUrl: mock.url,
        pactUrls: [file],
        stateHandlers,
        logLevel: 'error',
      }).verifyProvider();
      await expect(verification).rejects.toThrow();
    } finally {
      await out.remove();
    }
  }, 60_000);
});
