/**
 * Random HTTP requests for the mock: token endpoints with random headers and bodies, /graphql with schema-derived,
 * mutated or garbage requests, control routes with random bodies, unknown paths, wrong methods and content types,
 * and bodies within and past the body limit.
 *
 * @module
 */
import { METHODS } from 'node:http';
import fc from 'fast-check';
import { card, contact, credentials, legacyCard, payInput, reference, tokenPaths } from '../../mock/helpers.ts';
import { controlRoutes } from '../../support/mock-internals/control.ts';
import { garbageQuery, operationDocuments, schemaRequestText } from './graphql-arbitraries.ts';
import { feeListQuery, hostileGraphqlBody, hostileJsonBody } from './hostile-bodies.ts';
import {
  hostileNumber,
  hostileString,
  hostileValue,
  hugeString,
  jsonText,
  mutated,
  sentCvvs,
} from './json-arbitraries.ts';

/** Which error shape a path answers in. */
export type CaseKind = 'rest' | 'graphql' | 'control' | 'unknown';

/** Placeholder header value replaced at send time by the current valid access token. */
export const CURRENT_TOKEN = '<current-token>';

/** One request of the fuzz. */
export interface FuzzCase {
  readonly kind: CaseKind;
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Body text; `undefined` sends none. */
  readonly body?: string;
  /** How the body goes on the wire: UTF-8, or Latin-1 bytes (0x80–0xff alone are invalid UTF-8). Default UTF-8. */
  readonly encoding?: 'utf8' | 'latin1';
  /** A short label for the summary and for failure reports. */
  readonly label: string;
}

/** Body limit of the mock (its default `maxBodyBytes`, 1 MiB). */
export const BODY_LIMIT = 1024 * 1024;

// Methods node's parser knows; CONNECT is a tunnel handshake, not a request a route answers.
const methods = METHODS.filter((m) => m !== 'CONNECT');
const headerChar = fc.oneof(
  { weight: 10, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
  { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
  { weight: 1, arbitrary: fc.constant(0x09) },
);
/** A header value node's client can send (visible ASCII, Latin-1, tab), up to 4 KB, under the 16 KB header cap. */
const headerValue = fc.oneof(
  fc.array(headerChar, { maxLength: 40 }).map((cs) => String.fromCharCode(...cs)),
  fc.integer({ min: 100, max: 4_000 }).map((n) => 'k'.repeat(n)),
  fc.constantFrom('', ' ', 'null', 'Bearer x', credentials['x-client-id'], credentials['x-api-key']),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/graphql',
  '*/*',
  'garbage',
  '',
);
const jwtLike = fc.oneof(
  fc.constant(CURRENT_TOKEN),
  headerValue,
  fc.base64String({ maxLength: 60 }).map((s) => `eyJhbGciOiJub25lIn0.${s}.`),
  fc.constant(`${CURRENT_TOKEN}x`),
);

/** Common headers: content type sometimes wrong or missing, accept sometimes odd. */
const baseHeaders = fc.record(
  { 'content-type': contentType, accept: fc.constantFrom('application/json', 'text/html', '*/*', '') },
  { requiredKeys: [] },
);

const encoding = fc.oneof(
  { weight: 19, arbitrary: fc.constant<'utf8' | 'latin1'>('utf8') },
  { weight: 1, arbitrary: fc.constant<'utf8' | 'latin1'>('latin1') },
);
const withBody = (
  kind: CaseKind,
  path: string,
  label: string,
  body: fc.Arbitrary<string | undefined>,
  headers: fc.Arbitrary<Record<string, string>> = fc.constant({}),
  method: fc.Arbitrary<string> = fc.constant('POST'),
): fc.Arbitrary<FuzzCase> =>
  fc.tuple(method, baseHeaders, headers, body, encoding).map(([m, base, extra, b, enc]) => ({
    kind,
    method: m,
    path,
    headers: { ...base, ...extra },
    ...(b === undefined ? {} : { body: b, encoding: enc }),
    label,
  }));

const tokenHeaders = fc.record(
  {
    'x-client-id': fc.oneof({ weight: 3, arbitrary: fc.constant(credentials['x-client-id']) }, headerValue),
    'x-api-key': fc.oneof({ weight: 3, arbitrary: fc.constant(credentials['x-api-key']) }, headerValue),
    'x-jwt-token': jwtLike,
  },
  { requiredKeys: [] },
);

const anyBody = fc.oneof(jsonText(hostileValue), hostileString.map(String), fc.constant(undefined), fc.constant(''));

const tokenCase = fc.oneof(
  withBody('rest', tokenPaths.generate, 'generate-token', anyBody, tokenHeaders),
  withBody(
    'rest',
    tokenPaths.refresh,
    'refresh-token',
    fc.oneof(jsonText(mutated({ refresh_token: 'r' })), anyBody),
    tokenHeaders,
  ),
  withBody(
    'rest',
    tokenPaths.revoke,
    'revoke-token',
    anyBody,
    tokenHeaders.map((h) => ({
      ...h,
      'x-jwt-token': h['x-jwt-token'] === CURRENT_TOKEN ? 'other' : (h['x-jwt-token'] ?? ''),
    })),
  ),
);

// Valid inputs of the kit with the fuzz's own CVVs, so the scanner knows which CVVs were sent.
const currentPay = (cvv: string) => ({
  ...payInput(),
  credit_card: { ...card, cvv },
  metadata: { order_id: 'o-1', attempt: 1 },
});
const legacyPay = (cvv: string) => ({
  amount: 100,
  fees: 1.8,
  credit_card: { ...legacyCard, cvv },
  contact: { ...contact, ...reference },
});
const [feesDoc, cardFeeDoc, payDoc, , legacyCardFeeDoc, legacyPayDoc] = operationDocuments;
const validGraphql = (cvv: string) => [
  { query: feesDoc, variables: { amount: 100 } },
  { query: cardFeeDoc, variables: { amount: 100, credit_card: { ...card, cvv }, contact } },
  { query: payDoc, variables: { input: currentPay(cvv) } },
  {
    query: legacyCardFeeDoc,
    variables: { amount: 100, credit_card: { ...legacyCard, cvv }, contact: { ...contact, ...reference } },
  },
  { query: legacyPayDoc, variables: { input: legacyPay(cvv) } },
];
const graphqlHeaders = fc.oneof(
  { weight: 8, arbitrary: fc.constant({ 'x-jwt-token': CURRENT_TOKEN }) },
  { weight: 1, arbitrary: tokenHeaders },
);
const graphqlBody = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .constantFrom(...sentCvvs)
      .chain((cvv) => fc.constantFrom(...validGraphql(cvv)))
      .map((r) => JSON.stringify(r)),
  },
  {
    weight: 6,
    arbitrary: fc
      .constantFrom(...sentCvvs)
      .chain((cvv) => jsonText(fc.constantFrom(...validGraphql(cvv)).chain(mutated))),
  },
  { weight: 6, arbitrary: schemaRequestText },
  {
    weight: 2,
    arbitrary: fc
      .record(
        { query: garbageQuery, variables: fc.oneof(hostileValue, fc.constant(undefined)) },
        { requiredKeys: ['query'] },
      )
      .map((r) => JSON.stringify(r)),
  },
  { weight: 1, arbitrary: anyBody },
);
const graphqlCase = withBody('graphql', '/graphql', 'graphql', graphqlBody, graphqlHeaders);

/** Bodies for a control route: its documented fields with random values, or anything at all. */
const controlFields: Record<string, readonly string[]> = {
  '/__pck/clock/advance': ['ms'],
  '/__pck/payments/settle': ['uuid', 'outcome'],
  '/__pck/requests/wait': ['method', 'path', 'operationName', 'status', 'clientId', 'guide', 'since', 'timeoutMs'],
  '/__pck/deliveries/wait': ['paymentUuid', 'state', 'url', 'clientId', 'timeoutMs'],
  '/__pck/deliveries/redeliver': ['id'],
  '/__pck/tokens': ['clientId'],
  '/__pck/card-accounts': ['clientId', 'card'],
  '/__pck/fail-next': ['path', 'status', 'message', 'times'],
};
const fieldValue = (field: string): fc.Arbitrary<unknown> => {
  switch (field) {
    case 'ms':
      return fc.oneof(fc.integer({ min: 0, max: 3_600_000 }), hostileNumber, hostileValue);
    case 'clientId':
      return fc.oneof(fc.constant('test-client'), hostileValue);
    case 'card':
      return fc.oneof(
        mutated({ card_number: card.card_number, expiry_month: '12', expiry_year: '39' }),
        fc.constant({ card_number: card.card_number, expiry_month: '12', expiry_year: '39' }),
      );
    // Injected failures are real 4xx answers; a 5xx on purpose would be indistinguishable from a crash.
    case 'status':
      return fc.oneof(
        fc.integer({ min: 400, max: 499 }),
        fc.constantFrom(0, 99, 200, 600, 700, -1, 1e308, 4.5),
        hostileValue.filter((v) => typeof v !== 'number' || v < 500 || v > 599),
      );
    case 'path':
      return fc.oneof(fc.constantFrom('/graphql', tokenPaths.generate, '/nope', '/__pck/health'), hostileString);
    // An injected answer carries the tester's message; keep it in the kit's form so the shape check stays strict.
    case 'message':
      return fc.oneof(
        fc.constant('[payment-contract-kit] injected by the fuzz'),
        hostileValue.filter((v) => typeof v !== 'string'),
      );
    case 'times':
      return fc.oneof(fc.integer({ min: -1, max: 3 }), hostileValue);
    default:
      return fc.oneof(fc.string({ maxLength: 10 }), hostileValue);
  }
};
const controlBody = (path: string): fc.Arbitrary<string | undefined> => {
  const fields = controlFields[path] ?? [];
  const record =
    fields.length === 0
      ? fc.constant({})
      : fc.record(Object.fromEntries(fields.map((f) => [f, fieldValue(f)])), { requiredKeys: [] });
  // Waits never hold the run: a short timeout unless the fuzz sent a wrong type (answered at once).
  const bounded = record.map((r: Record<string, unknown>) =>
    path.endsWith('/wait') && (r.timeoutMs === undefined || typeof r.timeoutMs === 'number')
      ? { ...r, timeoutMs: typeof r.timeoutMs === 'number' ? Math.max(-5, Math.min(5, r.timeoutMs)) : 5 }
      : r,
  );
  return fc.oneof(
    { weight: 4, arbitrary: jsonText(bounded).map((t) => t) },
    { weight: 1, arbitrary: path.endsWith('/wait') ? fc.constant('{"timeoutMs":1}') : anyBody },
  );
};
const controlCase = fc.constantFrom(...controlRoutes).chain(([method, path]) => {
  const query =
    method === 'GET'
      ? fc.oneof(
          fc.constant(''),
          fc.constantFrom('?clientId=test-client', '?since=5', '?since=abc', '?since=1e400', '?clientId='),
        )
      : fc.constant('');
  return fc.tuple(query, controlBody(path), baseHeaders).map(
    ([q, body, headers]): FuzzCase => ({
      kind: 'control',
      method,
      path: path + q,
      headers,
      ...(body === undefined || method === 'GET' ? {} : { body }),
      label: `${method} ${path}`,
    }),
  );
});

const knownPaths = [
  '/graphql',
  tokenPaths.generate,
  tokenPaths.refresh,
  tokenPaths.revoke,
  ...controlRoutes.map(([, p]) => p),
];
const pathChar = fc.constantFrom(...'abcxyz0123456789-._~%/?=&'.split(''));
const unknownPath = fc.oneof(
  fc.array(pathChar, { maxLength: 30 }).map((cs) => `/${cs.join('')}`),
  fc.constantFrom(...knownPaths).map((p) => `${p}/`),
  fc.constantFrom(
    '/__pck/',
    '/__pck/nope',
    '/api/v2/accounting/token',
    '/GRAPHQL',
    `/cards/${card.card_number}`,
    `/x/4111-1111-1111-1111`,
  ),
);
const kindOf = (path: string): CaseKind => {
  const p = path.split('?')[0]!;
  if (p === '/graphql') return 'graphql';
  if (p.startsWith('/api/v2/accounting/token/')) return knownPaths.includes(p) ? 'rest' : 'unknown';
  if (controlRoutes.some(([, r]) => r === p)) return 'control';
  return 'unknown';
};
/** Wrong methods on known paths and any method on unknown ones. */
const methodCase = fc
  .tuple(fc.oneof(fc.constantFrom(...knownPaths), unknownPath), fc.constantFrom(...methods), anyBody, baseHeaders)
  .map(
    ([path, method, body, headers]): FuzzCase => ({
      kind: kindOf(path),
      method,
      path,
      headers,
      ...(body === undefined || method === 'HEAD' || method === 'GET' ? {} : { body }),
      label: `method ${method}`,
    }),
  );

/** Bodies right at, under and past the body limit, on every kind of body-reading route. */
const sizeCase = fc
  .tuple(
    fc.constantFrom('/graphql', tokenPaths.refresh, '/__pck/tokens', '/__pck/clock/advance'),
    fc.constantFrom(-1, 0, 1, 1_000),
    fc.boolean(),
  )
  .map(([path, delta, jsonString]): FuzzCase => {
    // A JSON string body of exactly BODY_LIMIT + delta bytes.
    const size = BODY_LIMIT + delta;
    const body = jsonString ? JSON.stringify({ query: hugeString(size - 12) }) : hugeString(size);
    return {
      kind: kindOf(path),
      method: 'POST',
      path,
      headers: {
        'content-type': 'application/json',
        ...(path === '/graphql' ? { 'x-jwt-token': CURRENT_TOKEN } : credentials),
      },
      body,
      label: `size ${delta >= 0 ? '+' : ''}${delta}`,
    };
  });

/**
 * Deep, huge and odd JSON and GraphQL (hostile-bodies.ts) on every body-reading path: /graphql by POST (mostly the
 * fee list, whose answers are kept) and by GET (variables nested in the query string, short enough for the 16 KB
 * header limit of node's parser), the token endpoints and the control routes that read a body.
 */
export const hostileCase: fc.Arbitrary<FuzzCase> = fc.oneof(
  { weight: 6, arbitrary: withBody('graphql', '/graphql', 'hostile graphql', hostileGraphqlBody, graphqlHeaders) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 60, max: 1_500 }).map(
      (depth): FuzzCase => ({
        kind: 'graphql',
        method: 'GET',
        path: `/graphql?${new URLSearchParams({ query: feeListQuery, variables: `{"amount":${'['.repeat(depth)}1${']'.repeat(depth)}}` })}`,
        headers: { 'x-jwt-token': CURRENT_TOKEN },
        label: 'hostile graphql GET',
      }),
    ),
  },
  {
    weight: 3,
    arbitrary: fc
      // The waits are left out: an object body without timeoutMs would hold the run for the default wait.
      .constantFrom(
        tokenPaths.refresh,
        tokenPaths.generate,
        ...Object.keys(controlFields).filter((p) => !p.endsWith('/wait')),
      )
      .chain((path) =>
        withBody(
          kindOf(path),
          path,
          `hostile ${path}`,
          hostileJsonBody,
          fc.constant(path.startsWith('/api/') ? { ...credentials } : {}),
        ),
      ),
  },
);

/** One request of any kind, weighted towards the paths with the most logic behind them. */
export const fuzzCase: fc.Arbitrary<FuzzCase> = fc.oneof(
  { weight: 120, arbitrary: graphqlCase },
  { weight: 40, arbitrary: tokenCase },
  { weight: 40, arbitrary: controlCase },
  { weight: 20, arbitrary: methodCase },
  { weight: 20, arbitrary: hostileCase },
  // About one case in 200: a megabyte each.
  { weight: 1, arbitrary: sizeCase },
);
