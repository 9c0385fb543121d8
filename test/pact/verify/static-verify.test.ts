// The static checks over whole pact files: the shipped contracts and the hand-written good fixtures pass, and each
// deliberately wrong interaction is reported with its reason.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOpenApi } from '../../../src/pact/verify/openapi-document.ts';
import type { PactDocument } from '../../../src/pact/verify/pact-model.ts';
import { readPact } from '../../../src/pact/verify/read-pact.ts';
import { verifyStatic } from '../../../src/pact/verify/static-verify.ts';

const root = resolve(import.meta.dirname, '../../..');
const fixtures = join(root, 'test/pact/fixtures/verify');
const openapi = loadOpenApi();

function read(folder: string): PactDocument[] {
  return readdirSync(folder)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => readPact(JSON.parse(readFileSync(join(folder, f), 'utf8')), join(folder, f)));
}

function byDescription(pacts: PactDocument[], guide: 'current' | 'legacy' | 'both' = 'both') {
  return new Map(verifyStatic(pacts, { guide, openapi }).map((r) => [r.interaction, r]));
}

describe('verifyStatic on the shipped contracts', () => {
  const pacts = read(join(root, 'contracts'));
  const results = verifyStatic(pacts, { guide: 'both', openapi });

  it('passes every interaction of contracts/*.json', () => {
    expect(results.filter((r) => !r.ok).map((r) => `${r.interaction}: ${r.reasons.join('; ')}`)).toEqual([]);
    expect(results).toHaveLength(pacts.reduce((n, p) => n + p.interactions.length, 0));
    expect(new Set(results.map((r) => r.kind))).toEqual(new Set(['graphql', 'rest', 'message']));
  });

  it('checks the legacy contract against the legacy guide, the others against the current one', () => {
    for (const result of results.filter((r) => r.kind === 'graphql'))
      expect([result.consumer, result.guide]).toEqual([
        result.consumer,
        result.consumer.includes('legacy') ? 'legacy' : 'current',
      ]);
  });

  it('fails the legacy contract under --guide current, naming the guide of each legacy name', () => {
    const legacy = pacts.filter((p) => p.consumer.includes('legacy'));
    const current = verifyStatic(legacy, { guide: 'current', openapi });
    expect(current.every((r) => !r.ok)).toBe(true);
    expect(current.flatMap((r) => r.reasons).join('\n')).toContain(
      '"total" is a name of the legacy guide: use the current guide\'s name, or check this pact with --guide legacy',
    );
  });
});

describe('verifyStatic on a pact with a list nested far too deep where text belongs', () => {
  // String() of a list joins it, recursively: 40,000 levels overflow the stack. Each place held such text.
  const deep = `${'['.repeat(40_000)}1${']'.repeat(40_000)}`;
  const withDeep = (file: string, path: readonly (string | number)[]): PactDocument => {
    const pact = JSON.parse(readFileSync(join(root, 'contracts', file), 'utf8'));
    let node = pact.interactions[0];
    for (const key of path.slice(0, -1)) node = node[key];
    node[path.at(-1)!] = '__deep__';
    return readPact(JSON.parse(JSON.stringify(pact).replace('"__deep__"', deep)), file);
  };
  const legacy = 'payment-contract-kit-legacy-guide-card-payment-service.json';
  const webhook = 'payment-contract-kit-webhook-receiver-card-payment-service.json';
  it.each([
    ['a request header', legacy, ['request', 'headers', 'Accept']],
    ['the response status', legacy, ['response', 'status']],
    ["a provider state's name", legacy, ['providerStates', 0, 'name']],
    ["the webhook's metadata", webhook, ['metadata', 'x-client-id']],
  ] as const)('%s: read and checked without a stack overflow', (_place, file, path) => {
    let reasons = '';
    try {
      reasons = verifyStatic([withDeep(file, path)], { guide: 'both', openapi })
        .flatMap((r) => r.reasons)
        .join('\n');
    } catch (error) {
      // The reader refuses a status that is not a whole number by naming it, never by the stack.
      reasons = (error as Error).message;
      expect(reasons).toMatch(/response\.status/);
    }
    expect(reasons).not.toMatch(/call stack/);
  });

  it('reads a list where a header, a state name or a comment belongs as a word, not its joined items', () => {
    const pact = withDeep(legacy, ['request', 'headers', 'Accept']);
    const http = pact.interactions[0];
    expect(http?.kind === 'http' && http.request.headers.Accept).toEqual(['[a list]']);
  });
});

describe('verifyStatic on the hand-written fixtures', () => {
  it('passes every interaction of the V2, V3 and V4 pacts in good/', () => {
    const pacts = read(join(fixtures, 'good'));
    expect(pacts.map((p) => p.specification)).toEqual(['2.0.0', '3.0.0', '3.0.0', '4.0']);
    const results = verifyStatic(pacts, { guide: 'both', openapi });
    expect(results.filter((r) => !r.ok).map((r) => `${r.interaction}: ${r.reasons.join('; ')}`)).toEqual([]);
    expect(results).toHaveLength(8);
  });

  const wrong = byDescription(read(join(fixtures, 'wrong')));
  it.each([
    ['wrong: an unknown field', 'request.body $.query: Cannot query field "surcharge" on type "PaymentGatewayFee".'],
    [
      'wrong: a wrong scalar type',
      'response.body $.data.paymentGatewayFeesCalc[0].fees: wrong scalar type: the string "1.80" (expected Float! in schema.graphql (current guide))',
    ],
    [
      'wrong: a list where the schema has an object',
      'response.body $.data.paymentCreditCardFeeCalc: a list where the schema has an object (expected CreditCardFee! in schema.graphql (current guide))',
    ],
    [
      'wrong: a non-null field missing from the expected response',
      'response.body $.data.processPaymentRequest.uuid: non-null field "uuid" is selected but missing from the expected response',
    ],
    [
      'wrong: a REST status the operation does not document',
      'response.status 404: status 404 is not documented for POST /api/v2/accounting/token/generate-token (expected one of 200, 401, 500 (openapi.yaml))',
    ],
    [
      'wrong: a misspelt header name',
      'request.header x-client: unknown header "x-client" (expected one of x-client-id, x-api-key on POST /api/v2/accounting/token/generate-token (openapi.yaml))',
    ],
    [
      'wrong: a legacy field in a current-guide interaction',
      'request.body $.query: Cannot query field "total" on type "PaymentGatewayFee". "total" is a name of the legacy guide',
    ],
    [
      'wrong: a webhook message missing uuid',
      'message.contents $.uuid: required property "uuid" is missing (expected uuid (PaymentStatusWebhookPayload in openapi.yaml))',
    ],
    [
      'wrong: a matcher claiming an integer for a string',
      'response.body $.data.paymentGatewayFeesCalc[0].card_type: matcher "integer" wants an integer, the schema has String!',
    ],
    [
      'wrong: a variable of the wrong type',
      'request.body $.variables.amount: Float cannot represent non numeric value. (expected $amount: Float! in schema.graphql (current guide))',
    ],
    [
      'wrong: a validation error on an input path the operation does not have',
      `response.body $.errors[0].extensions.validation['input.card.cvv']: "input.card.cvv" is not an input path of processPaymentRequest`,
    ],
    [
      'wrong: a token pair without its expiration',
      'response.body $.data.expiration: required property "expiration" is missing',
    ],
  ])('reports "%s"', (description, reason) => {
    const result = wrong.get(description);
    expect(result?.ok).toBe(false);
    expect(result?.reasons.some((r) => r.startsWith(reason))).toBe(true);
  });

  it('has a result for every wrong interaction, and each fails', () => {
    expect(wrong.size).toBe(12);
    expect([...wrong.values()].filter((r) => r.ok)).toEqual([]);
  });

  it('reports the misspelt header also as the required header it replaces', () => {
    expect(wrong.get('wrong: a misspelt header name')?.reasons).toContain(
      'request.header x-client-id: required header missing (expected x-client-id on POST /api/v2/accounting/token/generate-token (openapi.yaml))',
    );
  });
});

describe('guide choice and checks in detail', () => {
  const pact = (consumer: string, query: string, variables: unknown, body: unknown): PactDocument =>
    readPact(
      {
        consumer: { name: consumer },
        provider: { name: 'card-payment-service' },
        metadata: { pactSpecification: { version: '3.0.0' } },
        interactions: [
          {
            description: 'one',
            request: { method: 'POST', path: '/graphql', headers: { 'x-jwt-token': 't' }, body: { query, variables } },
            response: { status: 200, body },
          },
        ],
      },
      'inline.json',
    );
  const legacyFees = 'query F($amount: Float!) { paymentGatewayFeesCalc(amount: $amount) { total card_location } }';
  const legacyBody = { data: { paymentGatewayFeesCalc: [{ total: 1, card_location: 'domestic' }] } };

  it('with --guide both, checks a pact that names no guide against the guide its names agree with', () => {
    const [result] = verifyStatic([pact('shop', legacyFees, { amount: 1 }, legacyBody)], { guide: 'both', openapi });
    expect(result).toMatchObject({ ok: true, guide: 'legacy' });
  });

  it('with --guide both, keeps a pact that names the current guide to it', () => {
    const [result] = verifyStatic([pact('shop-current', legacyFees, { amount: 1 }, legacyBody)], {
      guide: 'both',
      openapi,
    });
    expect(result).toMatchObject({ ok: false, guide: 'current' });
  });

  it('answers data only when the service-required inputs are there (card_account_uid lifts the card details)', () => {
    const mutation =
      'mutation P($input: ProcessPaymentRequestInput!) { processPaymentRequest(input: $input) { uuid } }';
    const input = {
      amount: 1,
      fees: 0.1,
      credit_card: { card_account_uid: 'u' },
      contact: { first_name: 'A', last_name: 'B', email: 'a@b.c' },
    };
    const [result] = verifyStatic(
      [pact('shop', mutation, { input }, { data: { processPaymentRequest: { uuid: 'x' } } })],
      {
        guide: 'current',
        openapi,
      },
    );
    expect(result?.reasons).toEqual([
      'request.body $.variables.input.payment_reference: input.payment_reference is missing, so the service answers a validation error (spec 7.3), not data (expected ProcessPaymentRequestInput.payment_reference: PaymentReferenceInput! in schema.graphql (current guide))',
    ]);
  });

  it('never echoes a card number or a CVV given with the wrong type', () => {
    const query =
      'query C($amount: Float!, $credit_card: CreditCardInput!, $contact: ContactInput!) { paymentCreditCardFeeCalc(amount: $amount, credit_card: $credit_card, contact: $contact) { fees } }';
    const variables = {
      amount: 1,
      credit_card: { full_name: 'A', card_number: 4111111111111111, expiry_month: '01', expiry_year: '39', cvv: 987 },
      contact: { first_name: 'A', last_name: 'B', email: 'a@b.c' },
    };
    const [result] = verifyStatic(
      [pact('shop', query, variables, { data: { paymentCreditCardFeeCalc: { fees: 1 } } })],
      {
        guide: 'current',
        openapi,
      },
    );
    const text = result!.reasons.join('\n');
    expect(text).toContain('$.variables.credit_card.card_number: String cannot represent a non string value.');
    expect(text).toContain('$.variables.credit_card.cvv');
    expect(text).not.toContain('4111111111111111');
    expect(text).not.toContain('987');
  });

  it('reports a misspelt header on a GraphQL request, and the token header it replaces when data is expected', () => {
    const misspelt = readPact(
      {
        consumer: { name: 'shop' },
        provider: { name: 'card-payment-service' },
        interactions: [
          {
            description: 'fees',
            request: {
              method: 'POST',
              path: '/graphql',
              headers: { 'X-JWT': 't' },
              body: {
                query: 'query F($a: Float!) { paymentGatewayFeesCalc(amount: $a) { fees } }',
                variables: { a: 1 },
              },
            },
            response: { status: 200, body: { data: { paymentGatewayFeesCalc: [{ fees: 1 }] } } },
          },
        ],
      },
      'inline.json',
    );
    expect(verifyStatic([misspelt], { guide: 'current', openapi })[0]?.reasons).toEqual([
      'request.header X-JWT: unknown header "X-JWT" (expected x-jwt-token on POST /graphql (spec 4.4 to 4.6, 5))',
      'request.header x-jwt-token: header missing on a request that expects data (expected x-jwt-token (spec 4.4 to 4.6, 5): without it the service answers TOKEN_MISSING)',
    ]);
  });

  it('fails an interaction type the service does not have', () => {
    const other = readPact(
      {
        consumer: { name: 'c' },
        provider: { name: 'p' },
        metadata: { pactSpecification: { version: '4.0' } },
        interactions: [{ type: 'Synchronous/Messages', description: 'sync' }],
      },
      'x.json',
    );
    expect(verifyStatic([other], { guide: 'both', openapi })[0]).toMatchObject({
      ok: false,
      kind: 'other',
      reasons: [
        'interaction type "Synchronous/Messages" is not part of the service (expected Synchronous/HTTP or Asynchronous/Messages)',
      ],
    });
  });
});
