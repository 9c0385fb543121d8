/**
 * Forged, tampered, expired and revoked tokens sent over real HTTP to a running mock: each kind is refused on
 * /graphql in the spec's 7.2 shape with its reason code, and forged or misused refresh tokens get 401 in 7.1 shape.
 */
import { createHash, createHmac, generateKeyPairSync, sign as rsaSign } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import { createMockApp, type MockServer, startMockServer } from '../../../../src/mock/index.ts';
import { post, tokenPaths } from '../../helpers.ts';

const reasons = defaultAssumptions.reasonCodes;
const seed = 'token-forgery';
const a = { clientId: 'client-a', apiKey: 'key-of-client-a' };
const b = { clientId: 'client-b', apiKey: 'key-of-client-b' };
const credentialsOf = (c: { clientId: string; apiKey: string }) => ({
  'x-client-id': c.clientId,
  'x-api-key': c.apiKey,
});
/** Real time seen by the mock's virtual clock: fixed, so only advanceClock moves it (not a second boundary). */
const realNow = 1_700_000_000_123;
/** The mock's JWT key, derived from the seed as tokens.ts does: forging with it shows the refusal is structural. */
const mockKey = createHash('sha256').update(`payment-contract-kit jwt\0${seed}`).digest();
const query = '{ paymentGatewayFeesCalc(amount: 100) { card_type fees } }';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed, log: false, realNow: () => realNow, clients: [a, b] });
  await mock.control.warmUp();
});
afterAll(() => mock.close());
afterEach(() => mock.control.reset());

const url = (path: string) => `${mock.url}${path}`;
const b64url = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const hmac = (algorithm: 'sha256' | 'sha512', input: string, key: Buffer = mockKey) =>
  createHmac(algorithm, key).update(input).digest('base64url');
/** A token with this header and payload, signed HS256 with the mock's own key. */
const signedWithMockKey = (headerSegment: string, payloadSegment: string) => {
  const input = `${headerSegment}.${payloadSegment}`;
  return `${input}.${hmac('sha256', input)}`;
};
const parts = (token: string) => token.split('.') as [string, string, string];
const claimsOf = (token: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(parts(token)[1], 'base64url').toString('utf8'));
const withClaims = (token: string, change: Record<string, unknown>) => {
  const [header, , signature] = parts(token);
  return `${header}.${b64url({ ...claimsOf(token), ...change })}.${signature}`;
};

/** Sends `query` to /graphql with the token and extra headers. */
const graphql = (token: string, extra: Record<string, string> = {}) =>
  post(url('/graphql'), { 'x-jwt-token': token, ...extra }, { query });

async function expectRefused(token: string, reason: string, extra: Record<string, string> = {}) {
  const { status, body } = await graphql(token, extra);
  expect(status).toBe(defaultAssumptions.graphqlErrorHttpStatus);
  expect(body).toEqual({
    errors: [{ message: expect.stringMatching(/^\[payment-contract-kit\] \S/), extensions: { reason } }],
  });
}

async function expectAccepted(token: string, extra: Record<string, string> = {}) {
  const { status, body } = await graphql(token, extra);
  expect(status).toBe(200);
  expect(body.errors).toBeUndefined();
  expect(body.data.paymentGatewayFeesCalc.length).toBeGreaterThan(0);
}

/** A forged or misused token and the headers it is sent with. */
interface Attempt {
  readonly token: string;
  readonly headers?: Record<string, string>;
}

/** Builds the attempt from a freshly issued, valid token of client A. */
type Forge = (tokenOfA: string) => Attempt | Promise<Attempt>;

const rsaKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

const forgeries: [kind: string, forge: Forge, reason: string][] = [
  [
    'payload tampered: sub changed to another client',
    (t) => ({ token: withClaims(t, { sub: b.clientId }) }),
    reasons.invalidToken,
  ],
  [
    'payload tampered: exp a day later',
    (t) => ({ token: withClaims(t, { exp: Number(claimsOf(t).exp) + 86_400 }) }),
    reasons.invalidToken,
  ],
  [
    'signature tampered: one bit of its first byte flipped',
    (t) => {
      const [header, payload, signature] = parts(t);
      const bytes = Buffer.from(signature, 'base64url');
      bytes[0] = bytes[0]! ^ 0x01;
      return { token: `${header}.${payload}.${bytes.toString('base64url')}` };
    },
    reasons.invalidToken,
  ],
  ['truncated by one character', (t) => ({ token: t.slice(0, -1) }), reasons.invalidToken],
  ['truncated to half its length', (t) => ({ token: t.slice(0, t.length >> 1) }), reasons.invalidToken],
  [
    'signature segment missing (header.payload)',
    (t) => ({ token: t.slice(0, t.lastIndexOf('.')) }),
    reasons.invalidToken,
  ],
  [
    'signature segment empty (header.payload.)',
    (t) => ({ token: t.slice(0, t.lastIndexOf('.') + 1) }),
    reasons.invalidToken,
  ],
  ['extra segment appended', (t) => ({ token: `${t}.${parts(t)[2]}` }), reasons.invalidToken],
  [
    'alg none with an empty signature',
    (t) => ({ token: `${b64url({ alg: 'none', typ: 'JWT' })}.${parts(t)[1]}.` }),
    reasons.invalidToken,
  ],
  [
    "alg HS512, signed with the mock's own key",
    (t) => {
      const input = `${b64url({ alg: 'HS512', typ: 'JWT' })}.${parts(t)[1]}`;
      return { token: `${input}.${hmac('sha512', input)}` };
    },
    reasons.invalidToken,
  ],
  [
    'alg RS256, signed with an RSA key',
    (t) => {
      const input = `${b64url({ alg: 'RS256', typ: 'JWT' })}.${parts(t)[1]}`;
      return { token: `${input}.${rsaSign('sha256', Buffer.from(input), rsaKey).toString('base64url')}` };
    },
    reasons.invalidToken,
  ],
  [
    'HS256 header spelled differently (typ first), mock key',
    (t) => ({ token: signedWithMockKey(b64url('{"typ":"JWT","alg":"HS256"}'), parts(t)[1]) }),
    reasons.invalidToken,
  ],
  [
    'signed with another key (a mock with another seed)',
    () => ({
      token: createMockApp({ seed: 'another-seed', log: false, clients: [a] }).control.issueToken(a.clientId).token,
    }),
    reasons.invalidToken,
  ],
  [
    'header JSON is not an object (an array), mock key',
    (t) => ({ token: signedWithMockKey(b64url(['HS256']), parts(t)[1]) }),
    reasons.invalidToken,
  ],
  [
    'payload JSON is not an object (a string), mock key',
    (t) => ({ token: signedWithMockKey(parts(t)[0], b64url('"client-a"')) }),
    reasons.invalidToken,
  ],
  [
    'payload without typ "access", mock key',
    (t) => ({ token: signedWithMockKey(parts(t)[0], b64url({ ...claimsOf(t), typ: 'refresh' })) }),
    reasons.invalidToken,
  ],
  [
    'base64 (not base64url): padded payload, mock key',
    (t) => {
      // Padding makes it standard base64 whatever the payload; '+' and '/' are covered in hs256.test.ts.
      const padded = Buffer.from(JSON.stringify({ ...claimsOf(t), pad: 'x' })).toString('base64');
      expect(padded).toMatch(/=$/);
      return { token: signedWithMockKey(parts(t)[0], padded) };
    },
    reasons.invalidToken,
  ],
  ['not a JWT: plain text', () => ({ token: 'not-a-token' }), reasons.invalidToken],
  ['not a JWT: three empty segments', () => ({ token: '..' }), reasons.invalidToken],
  ['empty x-jwt-token header', () => ({ token: '' }), reasons.missingToken],
  ['"Bearer " prefix', (t) => ({ token: `Bearer ${t}` }), reasons.invalidToken],
  ['a space inside the token', (t) => ({ token: t.replace('.', '. ') }), reasons.invalidToken],
  [
    'a latin1 character in place of one payload character',
    (t) => {
      const [header, payload, signature] = parts(t);
      return { token: `${header}.\u00e9${payload.slice(1)}.${signature}` };
    },
    reasons.invalidToken,
  ],
  [
    'very long: 8 KB of payload before the signature',
    (t) => ({ token: `${parts(t)[0]}.${'A'.repeat(8192)}.${parts(t)[2]}` }),
    reasons.invalidToken,
  ],
  [
    "another client's token sent with this client's x-client-id",
    (t) => ({ token: t, headers: { 'x-client-id': b.clientId } }),
    reasons.clientMismatch,
  ],
  [
    'validly signed for a client not configured on this mock (same seed)',
    () => ({
      token: createMockApp({ seed, log: false, clients: [{ clientId: 'ghost', apiKey: 'g' }] }).control.issueToken(
        'ghost',
      ).token,
    }),
    reasons.clientMismatch,
  ],
  [
    'revoked by revoke-token with x-jwt-token (that token only)',
    async (t) => {
      expect((await post(url(tokenPaths.revoke), { ...credentialsOf(a), 'x-jwt-token': t })).status).toBe(200);
      return { token: t };
    },
    reasons.revokedToken,
  ],
  [
    'revoked by revoke-token without x-jwt-token (every token of the client)',
    async (t) => {
      expect((await post(url(tokenPaths.revoke), credentialsOf(a))).status).toBe(200);
      return { token: t };
    },
    reasons.revokedToken,
  ],
  [
    'expired (advanced to its exp on the mock clock)',
    (t) => {
      mock.control.advanceClock(Number(claimsOf(t).exp) * 1000 - mock.control.now());
      return { token: t };
    },
    reasons.expiredToken,
  ],
];

describe('forged and misused access tokens on /graphql', () => {
  it('accepts the intact token of client A, alone or with its own x-client-id (the baseline the rows below change)', async () => {
    const token = mock.control.issueToken(a.clientId).token;
    await expectAccepted(token);
    await expectAccepted(token, { 'x-client-id': a.clientId });
  });

  it(`has at least 12 kinds of forged token (${forgeries.length})`, () => {
    expect(forgeries.length).toBeGreaterThanOrEqual(12);
  });

  it.each(forgeries)('refuses %s', async (_kind, forge, reason) => {
    const attempt = await forge(mock.control.issueToken(a.clientId).token);
    await expectRefused(attempt.token, reason, attempt.headers);
  });

  it('accepts another token of A after single revocation, and none issued before a revoke-all', async () => {
    const revoked = mock.control.issueToken(a.clientId).token;
    const kept = mock.control.issueToken(a.clientId).token;
    await post(url(tokenPaths.revoke), { ...credentialsOf(a), 'x-jwt-token': revoked });
    await expectAccepted(kept);
    await post(url(tokenPaths.revoke), credentialsOf(a));
    await expectRefused(kept, reasons.revokedToken);
    await expectAccepted(mock.control.issueToken(a.clientId).token);
    // Client B's tokens are untouched by A's revocations.
    await expectAccepted(mock.control.issueToken(b.clientId).token);
  });
});

describe('expiry on the mock clock', () => {
  it('is valid through exp - 1 ms and refused from exp on (exp = iat + TTL, iat = the issue second, floored)', async () => {
    const generated = await post(url(tokenPaths.generate), credentialsOf(a));
    const { token, expiration } = generated.body.data;
    const claims = claimsOf(token);
    // The issue time is floored to the second, so the token lives TTL seconds minus the issue time's milliseconds.
    expect(claims.iat).toBe(Math.floor(realNow / 1000));
    expect(claims.exp).toBe(Number(claims.iat) + defaultAssumptions.tokenTtlSeconds);
    expect(expiration).toBe(claims.exp);
    const lastValid = expiration * 1000 - 1;
    mock.control.advanceClock(lastValid - mock.control.now());
    expect(mock.control.now()).toBe(lastValid);
    await expectAccepted(token);
    mock.control.advanceClock(1);
    await expectRefused(token, reasons.expiredToken);
    mock.control.advanceClock(86_400_000);
    await expectRefused(token, reasons.expiredToken);
    // The refresh token outlives the access token: refreshing gives a token valid from now.
    const refreshed = await post(url(tokenPaths.refresh), credentialsOf(a), {
      refresh_token: generated.body.data.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    await expectAccepted(refreshed.body.data.token);
  });

  it('judges a revoked and expired token as revoked (revocation is checked first)', async () => {
    const token = mock.control.issueToken(a.clientId).token;
    await post(url(tokenPaths.revoke), { ...credentialsOf(a), 'x-jwt-token': token });
    mock.control.advanceClock(defaultAssumptions.tokenTtlSeconds * 1000);
    await expectRefused(token, reasons.revokedToken);
  });
});

/** Builds a refresh-token request from a fresh pair of client A. */
type ForgeRefresh = (pair: { token: string; refresh_token: string }) => Promise<{
  headers: Record<string, string>;
  refreshToken: string;
}>;

const refreshForgeries: [kind: string, forge: ForgeRefresh][] = [
  ['made up in the right format', async () => ({ headers: credentialsOf(a), refreshToken: `rt_${'0'.repeat(32)}` })],
  [
    'one hex digit changed',
    async (p) => ({
      headers: credentialsOf(a),
      refreshToken: p.refresh_token.slice(0, -1) + (p.refresh_token.endsWith('f') ? 'e' : 'f'),
    }),
  ],
  [
    'truncated by one character',
    async (p) => ({ headers: credentialsOf(a), refreshToken: p.refresh_token.slice(0, -1) }),
  ],
  ['with a character appended', async (p) => ({ headers: credentialsOf(a), refreshToken: `${p.refresh_token}0` })],
  ['upper-cased', async (p) => ({ headers: credentialsOf(a), refreshToken: p.refresh_token.toUpperCase() })],
  ['the access token sent as refresh token', async (p) => ({ headers: credentialsOf(a), refreshToken: p.token })],
  [
    'issued by a mock with another seed',
    async () => ({
      headers: credentialsOf(a),
      refreshToken: createMockApp({ seed: 'another-seed', log: false, clients: [a] }).control.issueToken(a.clientId)
        .refresh_token,
    }),
  ],
  [
    "client A's refresh token with client B's credentials",
    async (p) => {
      mock.control.issueToken(b.clientId);
      return { headers: credentialsOf(b), refreshToken: p.refresh_token };
    },
  ],
  [
    "client A's refresh token with A's client id and B's API key",
    async (p) => ({ headers: { 'x-client-id': a.clientId, 'x-api-key': b.apiKey }, refreshToken: p.refresh_token }),
  ],
  [
    'reused after use',
    async (p) => {
      const first = await post(url(tokenPaths.refresh), credentialsOf(a), { refresh_token: p.refresh_token });
      expect(first.status).toBe(200);
      return { headers: credentialsOf(a), refreshToken: p.refresh_token };
    },
  ],
  [
    'revoked by revoke-token without x-jwt-token',
    async (p) => {
      expect((await post(url(tokenPaths.revoke), credentialsOf(a))).status).toBe(200);
      return { headers: credentialsOf(a), refreshToken: p.refresh_token };
    },
  ],
];

describe('forged and misused refresh tokens on refresh-token', () => {
  it.each(refreshForgeries)('401 in the 7.1 shape: %s', async (_kind, forge) => {
    const pair = mock.control.issueToken(a.clientId);
    const { headers, refreshToken } = await forge(pair);
    const { status, body } = await post(url(tokenPaths.refresh), headers, { refresh_token: refreshToken });
    expect(status).toBe(401);
    expect(body).toEqual({ status: 'ERROR', message: expect.stringMatching(/^\[payment-contract-kit\] \S/) });
  });

  it("leaves A's refresh token usable by A after B tried it, and never hands B a token of A", async () => {
    const pair = mock.control.issueToken(a.clientId);
    mock.control.issueToken(b.clientId);
    const stolen = await post(url(tokenPaths.refresh), credentialsOf(b), { refresh_token: pair.refresh_token });
    expect(stolen.status).toBe(401);
    const own = await post(url(tokenPaths.refresh), credentialsOf(a), { refresh_token: pair.refresh_token });
    expect(own.status).toBe(200);
    expect(claimsOf(own.body.data.token).sub).toBe(a.clientId);
  });
});
