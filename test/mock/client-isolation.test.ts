/**
 * Client isolation over real HTTP: four clients, every ordered pair (X, Y), Y trying every client-reachable route with
 * X's token, refresh token, API key or card accounts. No attempt may succeed; each refusal must be in the spec's shape
 * and a foreign card account must be answered exactly like one that never existed (no oracle, nothing of X's card).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { type MockServer, startMockServer } from '../../src/mock/index.ts';
import { postJson as post } from '../support/http-json.ts';
import { contact, reference, tokenPaths } from './helpers.ts';

const reasons = defaultAssumptions.reasonCodes;
/** Rounds over the 12 ordered pairs; 10 kinds × 12 pairs × 10 rounds = 1,200 attempts. */
const rounds = 10;
const cardsPerClient = 3;
/** Fixed real time for the virtual clock: nothing settles until the test advances it. */
const realNow = 1_700_000_000_000;

// API keys of different lengths, so a length-dependent comparison would show up as a difference in refusals.
const clients = [0, 1, 2, 3].map((i) => ({
  clientId: `tenant-${i}`,
  apiKey: `api-key-of-tenant-${i}${'#'.repeat(i)}`,
}));
type Client = (typeof clients)[number];
const credentialsOf = (c: Client) => ({ 'x-client-id': c.clientId, 'x-api-key': c.apiKey });

/** A Luhn-valid 16-digit visa number per client and card, so no two clients share a card number. */
function cardNumber(client: number, card: number): string {
  const body = `4${String(client).padStart(3, '0')}${String(card).padStart(3, '0')}${'1'.repeat(8)}`;
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return body + String((10 - (sum % 10)) % 10);
}

interface CardAccount {
  readonly uid: string;
  readonly fees: number;
  readonly number: string;
}
interface Session {
  readonly client: Client;
  /** Access and refresh token from generate-token. */
  readonly token: string;
  readonly refreshToken: string;
  readonly cards: CardAccount[];
}

const feeQuery = `query Fee($card: CreditCardInput!, $contact: ContactInput!) {
  paymentCreditCardFeeCalc(amount: 100, credit_card: $card, contact: $contact) { fees card_account_uid card_type }
}`;
const payMutation = `mutation Pay($input: ProcessPaymentRequestInput!) {
  processPaymentRequest(input: $input) { uuid status { name } }
}`;
const legacyPayMutation = `mutation LegacyPay($input: ProcessPaymentInput!) {
  processPaymentRequest(input: $input) { uuid status { name } }
}`;
const validateMutation = `mutation Validate($input: CreditCardValidationInput!) {
  creditCardValidation(input: $input) { valid card_type message }
}`;
const listQuery = '{ paymentGatewayFeesCalc(amount: 100) { card_type fees } }';

let mock: MockServer;
/** The same clients on a mock that also demands x-client-id and x-api-key on /graphql. */
let strict: MockServer;
const sessions: Session[] = [];

// biome-ignore lint/suspicious/noExplicitAny: each check reads the JSON the mock answered and asserts its own shape.
type Json = any;
const graphql = async (server: MockServer, headers: Record<string, string>, query: string, variables?: unknown) =>
  post(`${server.url}/graphql`, headers, variables === undefined ? { query } : { query, variables });
const payInputWith = (uid: string, fees: number) => ({
  amount: 100,
  fees,
  credit_card: { card_account_uid: uid },
  contact,
  payment_reference: reference,
});

beforeAll(async () => {
  const options = {
    port: 0,
    log: false as const,
    seed: 'client-isolation',
    guide: 'both' as const,
    realNow: () => realNow,
    clients,
  };
  mock = await startMockServer(options);
  strict = await startMockServer({ ...options, assumptions: { graphqlRequiresClientHeaders: true } });
  await Promise.all([mock.control.warmUp(), strict.control.warmUp()]);
  for (const [i, client] of clients.entries()) {
    const generated = await post(`${mock.url}${tokenPaths.generate}`, credentialsOf(client));
    expect(generated.status).toBe(200);
    const cards: CardAccount[] = [];
    for (let k = 0; k < cardsPerClient; k++) {
      const number = cardNumber(i, k);
      const card = {
        full_name: 'Ada Lovelace',
        card_number: number,
        expiry_month: '12',
        expiry_year: '39',
        cvv: '123',
      };
      const fee = await graphql(mock, { 'x-jwt-token': generated.body.data.token }, feeQuery, { card, contact });
      expect(fee.body.errors).toBeUndefined();
      const { card_account_uid, fees } = fee.body.data.paymentCreditCardFeeCalc;
      cards.push({ uid: card_account_uid, fees, number });
    }
    sessions.push({ client, token: generated.body.data.token, refreshToken: generated.body.data.refresh_token, cards });
  }
});
afterAll(async () => {
  await Promise.all([mock?.close(), strict?.close()]);
});

/** A refusal message: the kit's prefix, then what failed. */
const isPrefixed = (message: unknown) => typeof message === 'string' && /^\[payment-contract-kit\] \S/.test(message);
/** Exactly the 7.2 shape: one error with a prefixed message and only `extensions.reason`. */
const isGraphqlRefusal = (body: Json, reason: string) => {
  const message = body?.errors?.[0]?.message;
  return (
    isPrefixed(message) && JSON.stringify(body) === JSON.stringify({ errors: [{ message, extensions: { reason } }] })
  );
};
/** Exactly the 7.1 shape with 401. */
const isRestRefusal = (status: number, body: Json) =>
  status === 401 &&
  JSON.stringify(body) === JSON.stringify({ status: 'ERROR', message: body?.message }) &&
  isPrefixed(body.message);

/** What Y gets for a card_account_uid that was never issued: the answer a foreign uid must equal byte for byte. */
const neverIssuedUid = '00000000-0000-4000-8000-000000000000';

/** The outcome of one attempt: whether it got through, and whether the refusal had the expected shape. */
interface Outcome {
  readonly succeeded: boolean;
  readonly refusedAsExpected: boolean;
}
type Kind = (x: Session, y: Session, round: number) => Promise<Outcome>;

/** Y uses X's card account in `operation`; the answer must equal the answer for a never-issued uid. */
function foreignCardAccount(query: string, variables: (uid: string, fees: number) => unknown, field: string): Kind {
  return async (x, y, round) => {
    const card = x.cards[round % cardsPerClient]!;
    const headers = { 'x-jwt-token': y.token };
    const [foreign, unknown] = await Promise.all([
      graphql(mock, headers, query, variables(card.uid, card.fees)),
      graphql(mock, headers, query, variables(neverIssuedUid, card.fees)),
    ]);
    const answer = foreign.body?.data?.[field];
    const text = JSON.stringify(foreign.body);
    return {
      succeeded: answer != null && answer.valid !== false,
      refusedAsExpected:
        foreign.status === unknown.status &&
        text === JSON.stringify(unknown.body) &&
        !text.includes(card.number.slice(0, 6)) &&
        !text.includes(card.number.slice(-4)) &&
        !text.includes(card.uid.slice(0, 8)),
    };
  };
}

const kinds: Record<string, Kind> = {
  'graphql: X token with Y x-client-id': async (x, y) => {
    const { body } = await graphql(mock, { 'x-jwt-token': x.token, 'x-client-id': y.client.clientId }, listQuery);
    return { succeeded: body?.data != null, refusedAsExpected: isGraphqlRefusal(body, reasons.clientMismatch) };
  },
  'processPaymentRequest: Y with X card_account_uid': foreignCardAccount(
    payMutation,
    (uid, fees) => ({ input: payInputWith(uid, fees) }),
    'processPaymentRequest',
  ),
  'processPaymentRequest (legacy guide): Y with X card_account_uid': foreignCardAccount(
    legacyPayMutation,
    (uid, fees) => ({
      input: { amount: 100, fees, credit_card: { card_account_uid: uid }, contact: { ...contact, ...reference } },
    }),
    'processPaymentRequest',
  ),
  'paymentCreditCardFeeCalc: Y with X card_account_uid': foreignCardAccount(
    feeQuery,
    (uid) => ({ card: { card_account_uid: uid }, contact }),
    'paymentCreditCardFeeCalc',
  ),
  'creditCardValidation: Y with X card_account_uid': foreignCardAccount(
    validateMutation,
    (uid) => ({ input: { credit_card: { card_account_uid: uid } } }),
    'creditCardValidation',
  ),
  'refresh-token: X refresh token with Y credentials': async (x, y, round) => {
    // The generate-token refresh token, and one issued since; neither may be usable by Y (nor burnt for X).
    const refreshToken = round % 2 === 0 ? x.refreshToken : mock.control.issueToken(x.client.clientId).refresh_token;
    const { status, body } = await post(`${mock.url}${tokenPaths.refresh}`, credentialsOf(y.client), {
      refresh_token: refreshToken,
    });
    return { succeeded: status === 200, refusedAsExpected: isRestRefusal(status, body) };
  },
  'revoke-token: X access token with Y credentials': async (x, y) => {
    const { status, body } = await post(`${mock.url}${tokenPaths.revoke}`, {
      ...credentialsOf(y.client),
      'x-jwt-token': x.token,
    });
    return { succeeded: status === 200, refusedAsExpected: isRestRefusal(status, body) };
  },
  'generate-token: Y client id with X API key': async (x, y) => {
    const { status, body } = await post(`${mock.url}${tokenPaths.generate}`, {
      'x-client-id': y.client.clientId,
      'x-api-key': x.client.apiKey,
    });
    return { succeeded: status === 200, refusedAsExpected: isRestRefusal(status, body) };
  },
  'graphql (client headers required): X token and id, Y API key': async (x, y) => {
    const token = strict.control.issueToken(x.client.clientId).token;
    const { body } = await graphql(
      strict,
      { 'x-jwt-token': token, 'x-client-id': x.client.clientId, 'x-api-key': y.client.apiKey },
      listQuery,
    );
    return { succeeded: body?.data != null, refusedAsExpected: isGraphqlRefusal(body, reasons.clientMismatch) };
  },
  'graphql (client headers required): X token, Y id and API key': async (x, y) => {
    const token = strict.control.issueToken(x.client.clientId).token;
    const { body } = await graphql(strict, { 'x-jwt-token': token, ...credentialsOf(y.client) }, listQuery);
    return { succeeded: body?.data != null, refusedAsExpected: isGraphqlRefusal(body, reasons.clientMismatch) };
  },
};

describe('client isolation', () => {
  it('answers every client on its own credentials (the baseline the attempts change)', async () => {
    for (const s of sessions) {
      const own = await graphql(mock, { 'x-jwt-token': s.token, 'x-client-id': s.client.clientId }, listQuery);
      expect(own.body.data.paymentGatewayFeesCalc.length).toBeGreaterThan(0);
      const strictOwn = await graphql(
        strict,
        { 'x-jwt-token': strict.control.issueToken(s.client.clientId).token, ...credentialsOf(s.client) },
        listQuery,
      );
      expect(strictOwn.body.data.paymentGatewayFeesCalc.length).toBeGreaterThan(0);
      const validated = await graphql(mock, { 'x-jwt-token': s.token }, validateMutation, {
        input: { credit_card: { card_account_uid: s.cards[0]!.uid } },
      });
      expect(validated.body.data.creditCardValidation.valid).toBe(true);
      const card = s.cards[0]!;
      const legacyPaid = await graphql(mock, { 'x-jwt-token': s.token }, legacyPayMutation, {
        input: {
          amount: 100,
          fees: card.fees,
          credit_card: { card_account_uid: card.uid },
          contact: { ...contact, ...reference },
        },
      });
      expect(legacyPaid.body.data.processPaymentRequest.uuid).toEqual(expect.any(String));
    }
  });

  // One test per round: a round is 120 attempts in flight at once plus one own payment per client, a bounded piece
  // of work for one test's time budget on a loaded CI host (all 1,200 in one test timed out at load 17).
  const tally = new Map(Object.keys(kinds).map((k) => [k, { attempts: 0, successes: 0, misshapen: 0 }]));
  /** Payments each client made with its own card accounts, counted from the first round on. */
  let ownPayments: Map<string, number> | undefined;
  let paymentsBefore = 0;

  for (let round = 0; round < rounds; round++)
    it(`round ${round + 1} of ${rounds}: no client uses another's token, refresh token, API key or card account (12 pairs × ${Object.keys(kinds).length} kinds at once)`, async () => {
      if (ownPayments === undefined) {
        // Payments made so far (the baseline test's), plus the ones each client makes below.
        ownPayments = new Map();
        for (const s of sessions)
          ownPayments.set(s.client.clientId, (await mock.control.payments(s.client.clientId)).length);
        paymentsBefore = (await mock.control.payments()).length;
      }
      // Each client also pays with its own card account: the same request that must fail for the others.
      for (const s of sessions) {
        const card = s.cards[round % cardsPerClient]!;
        const paid = await graphql(mock, { 'x-jwt-token': s.token }, payMutation, {
          input: payInputWith(card.uid, card.fees),
        });
        expect(paid.body.data.processPaymentRequest.uuid).toEqual(expect.any(String));
        ownPayments.set(s.client.clientId, ownPayments.get(s.client.clientId)! + 1);
      }
      const attempts: Promise<void>[] = [];
      const thisRound = new Map(Object.keys(kinds).map((k) => [k, { attempts: 0, successes: 0, misshapen: 0 }]));
      for (const x of sessions)
        for (const y of sessions) {
          if (x === y) continue;
          for (const [name, kind] of Object.entries(kinds))
            attempts.push(
              kind(x, y, round).then((outcome) => {
                const t = thisRound.get(name)!;
                t.attempts++;
                if (outcome.succeeded) t.successes++;
                if (!outcome.refusedAsExpected) t.misshapen++;
              }),
            );
        }
      await Promise.all(attempts);
      for (const [name, t] of thisRound) {
        const sum = tally.get(name)!;
        sum.attempts += t.attempts;
        sum.successes += t.successes;
        sum.misshapen += t.misshapen;
      }
      // [successes, refusals not in the spec's shape] per kind.
      expect(Object.fromEntries([...thisRound].map(([name, t]) => [name, [t.successes, t.misshapen]]))).toEqual(
        Object.fromEntries([...thisRound.keys()].map((name) => [name, [0, 0]])),
      );
    });

  it('after all rounds: each client holds exactly its own payments, and nothing Y tried took anything from X', async () => {
    const total = [...tally.values()].reduce(
      (sum, t) => ({
        attempts: sum.attempts + t.attempts,
        successes: sum.successes + t.successes,
        misshapen: sum.misshapen + t.misshapen,
      }),
      { attempts: 0, successes: 0, misshapen: 0 },
    );
    console.info(
      `[isolation] ${clients.length} clients, ${total.attempts} cross-client attempts (${[...tally]
        .map(([name, t]) => `${name}: ${t.attempts}`)
        .join('; ')}), successes = ${total.successes}, refusals not in the spec shape = ${total.misshapen}`,
    );
    // Every round ran (a filtered run is not this test's subject).
    expect(total.attempts).toBe(rounds * 12 * Object.keys(kinds).length);
    expect(Object.fromEntries([...tally].map(([name, t]) => [name, [t.successes, t.misshapen]]))).toEqual(
      Object.fromEntries([...tally.keys()].map((name) => [name, [0, 0]])),
    );

    // The stored state: each client holds exactly the payments it made, all with its own card accounts.
    for (const s of sessions) {
      const payments = await mock.control.payments(s.client.clientId);
      expect(payments).toHaveLength(ownPayments!.get(s.client.clientId)!);
      const ownUids = new Set(s.cards.map((c) => c.uid));
      for (const p of payments) {
        expect(p.clientId).toBe(s.client.clientId);
        expect(ownUids.has(p.card_account_uid)).toBe(true);
      }
    }
    expect(await mock.control.payments()).toHaveLength(paymentsBefore + rounds * clients.length);
    // Settlement keeps every payment with its client.
    mock.control.advanceClock(defaultAssumptions.settleDelayMs);
    for (const s of sessions)
      for (const p of await mock.control.payments(s.client.clientId)) {
        expect(p.clientId).toBe(s.client.clientId);
        expect(p.settledOutcome).toBe('success');
      }

    // Nothing Y tried took anything from X: X's token still works, X's generate-token refresh token still refreshes.
    for (const s of sessions) {
      const own = await graphql(mock, { 'x-jwt-token': s.token }, listQuery);
      expect(own.body.errors).toBeUndefined();
      const refreshed = await post(`${mock.url}${tokenPaths.refresh}`, credentialsOf(s.client), {
        refresh_token: s.refreshToken,
      });
      expect(refreshed.status).toBe(200);
    }
  });
});
