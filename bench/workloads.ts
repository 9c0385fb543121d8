/**
 * The benchmark's workloads: what is sent to the mock and to each reference, and how one answer of each is checked
 * before and after the rounds (a server that answers errors quickly must not look fast).
 *
 * Query texts are the kit's own operations (operations/current/*.graphql), sent as they are. The payment input is
 * valid in full: the visa success test card (src/test-values.ts), an expiry in the future, the fee from a card fee calculation for the
 * same amount, a contact and a payment_reference.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AutocannonRequest } from 'autocannon';
import { defaultCredentials, servicePaths } from '../src/spec-names.ts';
import { testCardDetails, testCardNumbers } from '../src/test-values.ts';
import { feesQueryPath, isMockServer, root, type ServerId } from './servers.ts';

/** Every workload. */
export type WorkloadId = 'generate-token' | 'fees-list' | 'card-fee' | 'process-payment' | 'mixed';

export const TOKEN_PATH = servicePaths.generateToken;
export const REFRESH_PATH = servicePaths.refreshToken;
export const GRAPHQL_PATH = servicePaths.graphql;

/** Default credentials of the mock (decision 0001). */
export const credentials = { clientId: defaultCredentials.clientId, apiKey: defaultCredentials.apiKey } as const;

/** The payment amount every GraphQL workload prices and pays. */
export const AMOUNT = 100;

/** One refresh-token call every this many calls in the mixed workload. */
export const REFRESH_EVERY = 10;

const operation = (name: string) => readFileSync(join(root, 'operations', 'current', `${name}.graphql`), 'utf8');
const queries = {
  fees: readFileSync(feesQueryPath, 'utf8'),
  cardFee: operation('payment-credit-card-fee-calc'),
  payment: operation('process-payment-request'),
} as const;

/** A card that is accepted and settles as success, expiring three years from now. */
export function benchCard(now = new Date()) {
  return {
    ...testCardDetails,
    card_number: testCardNumbers.visaSuccess,
    expiry_year: String((now.getUTCFullYear() + 3) % 100).padStart(2, '0'),
  };
}

const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

/** What a server's requests need: an access token and the fee of the bench card for {@link AMOUNT}. */
export interface Session {
  readonly token: string;
  readonly refreshToken: string;
  readonly cardFee: number;
}

const jsonHeaders = { 'content-type': 'application/json', accept: 'application/json' } as const;
const clientHeaders = { ...jsonHeaders, 'x-client-id': credentials.clientId, 'x-api-key': credentials.apiKey } as const;

/** Asks a server for a token pair; throws with the answer when it is not one. */
export async function generateToken(url: string): Promise<{ token: string; refreshToken: string }> {
  const res = await fetch(url + TOKEN_PATH, { method: 'POST', headers: clientHeaders });
  const text = await res.text();
  const data = tokenPair(res.status, text);
  if (!data) throw new Error(`generate-token answered ${res.status}: ${text.slice(0, 300)}`);
  return data;
}

function tokenPair(status: number, text: string): { token: string; refreshToken: string } | undefined {
  if (status !== 200) return undefined;
  try {
    const body = JSON.parse(text) as { status?: unknown; data?: { token?: unknown; refresh_token?: unknown } };
    const { token, refresh_token: refreshToken } = body.data ?? {};
    if (body.status !== 'SUCCESS' || typeof token !== 'string' || typeof refreshToken !== 'string') return undefined;
    return { token, refreshToken };
  } catch {
    return undefined;
  }
}

/** Posts one GraphQL request; resolves to `data.<field>`, or throws with the answer when there is none. */
export async function graphql(url: string, token: string, query: string, variables: unknown): Promise<unknown> {
  const res = await fetch(url + GRAPHQL_PATH, {
    method: 'POST',
    headers: { ...jsonHeaders, 'x-jwt-token': token },
    body: JSON.stringify({ query, variables }),
  });
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { data?: Record<string, unknown> | null; errors?: unknown };
    const value = body.data ? Object.values(body.data)[0] : undefined;
    if (res.status === 200 && !body.errors && value !== undefined && value !== null) return value;
  } catch {
    // answered below
  }
  throw new Error(`GraphQL answered ${res.status}: ${text.slice(0, 300)}`);
}

/** The paymentCreditCardFeeCalc variables for the bench card. */
export const cardFeeVariables = () => ({ amount: AMOUNT, credit_card: benchCard(), contact });

/** The processPaymentRequest variables for a fee obtained from a card fee calculation. */
export function paymentVariables(fees: number) {
  return {
    input: {
      amount: AMOUNT,
      fees,
      credit_card: benchCard(),
      contact,
      payment_reference: { description: 'Benchmark order', reference_no: 'BENCH-0001' },
      metadata: { order_id: 'bench-0001' },
    },
  };
}

/**
 * Opens a session on a server: a fresh token pair from generate-token (the mock's default `reissue` policy allows
 * repeats) and the card fee from paymentCreditCardFeeCalc for {@link AMOUNT}. References need neither; they get
 * placeholders of the same shape and the fee the mock's default fee table gives (1.5 % + 0.30).
 */
export async function openSession(server: ServerId, url: string): Promise<Session> {
  if (!isMockServer(server)) return { token: 'reference-token', refreshToken: 'reference-refresh', cardFee: 1.8 };
  const { token, refreshToken } = await generateToken(url);
  const fee = (await graphql(url, token, queries.cardFee, cardFeeVariables())) as { fees?: unknown };
  if (typeof fee.fees !== 'number') throw new Error(`paymentCreditCardFeeCalc gave no fees: ${JSON.stringify(fee)}`);
  return { token, refreshToken, cardFee: fee.fees };
}

const gqlBody = (query: string, variables: unknown) => JSON.stringify({ query, variables });

function gqlRequest(session: Session, query: string, variables: unknown): AutocannonRequest {
  return {
    method: 'POST',
    path: GRAPHQL_PATH,
    headers: { ...jsonHeaders, 'x-jwt-token': session.token },
    body: gqlBody(query, variables),
  };
}

const tokenRequest: AutocannonRequest = { method: 'POST', path: TOKEN_PATH, headers: { ...clientHeaders } };

/** A workload's load: the request sequence and, when it checks every answer, its failure counter. */
export interface WorkloadLoad {
  readonly requests: AutocannonRequest[];
  readonly failures?: () => number;
}

/** One workload. */
export interface Workload {
  readonly id: WorkloadId;
  readonly title: string;
  /** The mock first, then the references it is compared with. */
  readonly servers: readonly ServerId[];
  /** What a server is sent, when it is not the workload itself (reference (b) serves only the fee list). */
  readonly notes?: Partial<Record<ServerId, string>>;
  /** The request sequence for one server. */
  load(server: ServerId, session: Session): WorkloadLoad;
  /** Sends each distinct request once and throws when an answer is not a success. */
  check(server: ServerId, url: string, session: Session): Promise<void>;
}

const feesVariables = { amount: AMOUNT };

async function checkOnce(url: string, request: AutocannonRequest): Promise<void> {
  const res = await fetch(url + request.path, {
    method: request.method ?? 'POST',
    headers: request.headers ?? {},
    ...(request.body !== undefined ? { body: request.body.toString() } : {}),
  });
  const text = await res.text();
  if (request.path === GRAPHQL_PATH) {
    if (res.status === 200 && /^\{"data":\{"[A-Za-z]+":[[{]/.test(text) && !text.includes('"errors"')) return;
  } else if (tokenPair(res.status, text)) return;
  throw new Error(`${request.path} answered ${res.status}: ${text.slice(0, 300)}`);
}

function singleRequestWorkload(
  id: WorkloadId,
  title: string,
  servers: readonly ServerId[],
  request: (server: ServerId, session: Session) => AutocannonRequest,
  notes?: Partial<Record<ServerId, string>>,
): Workload {
  return {
    id,
    title,
    servers,
    ...(notes ? { notes } : {}),
    load: (server, session) => ({ requests: [request(server, session)] }),
    check: (server, url, session) => checkOnce(url, request(server, session)),
  };
}

/** Whether a GraphQL answer body is a success (data, no errors), cheaply. */
export function isGraphqlSuccess(status: number, body: string): boolean {
  return status === 200 && body.startsWith('{"data":{') && !body.includes('"errors"');
}

/**
 * The mixed workload: every connection loops over one token call then GraphQL calls (fee list, card fee, payment,
 * repeated), {@link REFRESH_EVERY} calls in all. On the mock the token call is a refresh-token carrying the refresh
 * token of that connection's previous pair (from a pool, so each refresh token is used once; the first pair of a
 * connection comes from generate-token), and the GraphQL calls carry the access token it gave. Token and payment
 * answers are checked. GraphQL references have no REST side: for them the token call is one more fee list query.
 */
function mixedWorkload(): Workload {
  const graphqlSteps = (session: Session): AutocannonRequest[] => {
    const cycle = [
      gqlRequest(session, queries.fees, feesVariables),
      gqlRequest(session, queries.cardFee, cardFeeVariables()),
      gqlRequest(session, queries.payment, paymentVariables(session.cardFee)),
    ];
    return Array.from({ length: REFRESH_EVERY - 1 }, (_, i) => ({ ...cycle[i % cycle.length]! }));
  };
  return {
    id: 'mixed',
    title: `Mixed: fee list, card fee, payment, with a token refresh every ${REFRESH_EVERY} calls`,
    servers: ['mock', 'yoga', 'apollo'],
    notes: {
      yoga: 'refresh → fee list query',
      apollo: 'refresh → fee list query',
    },
    load(server, session) {
      let failures = 0;
      const pool: string[] = [];
      const tokenStep: AutocannonRequest = isMockServer(server)
        ? {
            method: 'POST',
            path: TOKEN_PATH,
            headers: { ...clientHeaders },
            setupRequest(request) {
              const refreshToken = pool.pop();
              return refreshToken === undefined
                ? { ...request, path: TOKEN_PATH, body: '' }
                : { ...request, path: REFRESH_PATH, body: JSON.stringify({ refresh_token: refreshToken }) };
            },
            onResponse(status, body, context) {
              const pair = tokenPair(status, body);
              if (!pair) {
                failures++;
                return;
              }
              context.token = pair.token;
              pool.push(pair.refreshToken);
            },
          }
        : {
            ...gqlRequest(session, queries.fees, feesVariables),
            onResponse(status, body, context) {
              if (!isGraphqlSuccess(status, body)) failures++;
              context.token = session.token;
            },
          };
      // Every answer of the token step and of the payment steps is checked (a bad token fails the payments too);
      // the others are not, so that the load generator, which collects a body for each check, stays light.
      const steps = graphqlSteps(session).map(
        (step, i): AutocannonRequest => ({
          ...step,
          setupRequest(request, context) {
            const token = typeof context.token === 'string' ? context.token : '';
            return { ...request, headers: { ...request.headers, 'x-jwt-token': token } };
          },
          ...(i % 3 === 2
            ? {
                onResponse(status: number, body: string) {
                  if (!isGraphqlSuccess(status, body)) failures++;
                },
              }
            : {}),
        }),
      );
      return { requests: [tokenStep, ...steps], failures: () => failures };
    },
    async check(server, url, session) {
      if (isMockServer(server)) {
        const res = await fetch(url + REFRESH_PATH, {
          method: 'POST',
          headers: clientHeaders,
          body: JSON.stringify({ refresh_token: session.refreshToken }),
        });
        const text = await res.text();
        if (!tokenPair(res.status, text))
          throw new Error(`refresh-token answered ${res.status}: ${text.slice(0, 300)}`);
      }
      for (const step of graphqlSteps(session).slice(0, 3)) await checkOnce(url, step);
    },
  };
}

/**
 * One valid processPaymentRequest for autocannon that counts, through `onFailure`, every answer that is not a
 * successful payment (the memory measurement and the latency curve count only accepted payments).
 */
export function checkedPaymentRequest(session: Session, onFailure: () => void): AutocannonRequest {
  return {
    ...gqlRequest(session, queries.payment, paymentVariables(session.cardFee)),
    onResponse(status, body) {
      if (!isGraphqlSuccess(status, body)) onFailure();
    },
  };
}

/** Every workload, in the order they run. */
export const workloads: readonly Workload[] = [
  singleRequestWorkload(
    'generate-token',
    'generate-token (REST)',
    ['mock', 'rest-token', 'rest-token-signed', 'prism'],
    () => tokenRequest,
  ),
  singleRequestWorkload(
    'fees-list',
    'paymentGatewayFeesCalc (fee list)',
    ['mock', 'proxy', 'proxy-floor', 'graphql-execute', 'yoga', 'apollo'],
    (_s, session) => gqlRequest(session, queries.fees, feesVariables),
  ),
  singleRequestWorkload('card-fee', 'paymentCreditCardFeeCalc (card fee)', ['mock', 'yoga', 'apollo'], (_s, session) =>
    gqlRequest(session, queries.cardFee, cardFeeVariables()),
  ),
  singleRequestWorkload(
    'process-payment',
    'processPaymentRequest (full validation)',
    ['mock', 'payment-floor', 'proxy', 'proxy-floor', 'graphql-execute', 'yoga', 'apollo'],
    (server, session) =>
      server === 'graphql-execute'
        ? gqlRequest(session, queries.fees, feesVariables)
        : gqlRequest(session, queries.payment, paymentVariables(session.cardFee)),
    { 'graphql-execute': 'fee list query' },
  ),
  mixedWorkload(),
];

/** The query texts, for the cold start and memory measurements. */
export { queries };
