/**
 * The mock's access checks: client credentials (spec 4: `x-client-id` + `x-api-key`), and access tokens, HS256 JWTs
 * signed with a per-instance secret, decoded with a verified-claims cache, with the checks a token passes before the
 * GraphQL engine runs. The token endpoints check credentials through the token service, and the GraphQL endpoint's
 * optional client-header check (graphqlRequiresClientHeaders) uses the same matcher and the same message, so the
 * two can never disagree on what a wrong key is. Policy (who may have a token, revocation) stays in
 * tokens.ts; this module answers "is this a token of this instance, what does it claim, and does it pass".
 *
 * Checking is done here, not with a JWT library: the mock accepts only tokens it signed, with its one fixed header,
 * so a check is "same header segment, same signature, JSON payload". Loading a general JWT library cost the mock's
 * start-up more than the rest of its token code (decision 0001); tests check interoperability with one. Signing is
 * the platform's (platform/node-crypto.ts under Node, platform/web-crypto.ts in a browser).
 *
 * Verified claims are cached by token string (bounded), because every GraphQL request carries the same few tokens
 * and checking a signature was a fifth of a fee-list request's CPU (profiled).
 *
 * @module
 */
import { kitMessage } from '../../../internal/messages.ts';
import { bytesOfHex, constantTimeTextEqual } from '../../../internal/text-bytes.ts';
import { serviceHeaders } from '../../../spec-names.ts';
import { restError } from '../http-error.ts';
import type { MockClientConfig } from '../option-types.ts';
import type { CryptoPrimitives } from '../platform/crypto-primitives.ts';

/** The jti of token number `j` under the service's seeded `head`: the number as 12 hex digits. */
export const tokenJti = (head: string, j: number) => head + j.toString(16).padStart(12, '0');

/** A token's id as a `tk.r` record names it: after a reset two clients' tokens can share a jti. */
export const tokenIdKey = (clientId: string, jti: string) => `${clientId}/${jti}`;

/**
 * The key of one revoked token: its {@link tokenIdKey} and its exp. A reset restarts the id source, so a jti comes
 * back on a newer token while an older one of that jti (issued before the reset, valid until it expires) is still out
 * there; revoking one must not lift or stand for the other's revocation.
 */
export const revocationKey = (tokenId: string, exp: number) => `${tokenId}@${exp}`;

/** A non-empty base64url segment without padding. */
const base64urlText = /^[\w-]+$/;

/** Signs a JWT signing input (`header.payload`, ASCII) and returns the base64url signature. */
export type Hs256Signer = (signingInput: string) => string;

/** The base64url JOSE header of every token the mock issues: `{"alg":"HS256","typ":"JWT"}`. */
export const jwtHeaderSegment = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9';

/**
 * Checks a compact JWT against `sign` and returns its decoded payload, or `undefined` when it is not a token signed
 * with that key under {@link jwtHeaderSegment}: wrong segment count, another header (so another algorithm, `none`
 * included), a payload segment that is not base64url text, a signature that does not match, or a payload that is not
 * a JSON object.
 *
 * @example
 * const claims = verifyHs256(token, sign, platform.crypto.textOfBase64url); // { sub, jti, ... } or undefined
 */
export function verifyHs256(
  token: string,
  sign: Hs256Signer,
  textOfBase64url: (segment: string) => string,
): Record<string, unknown> | undefined {
  const firstDot = jwtHeaderSegment.length;
  if (token.length <= firstDot || token.charCodeAt(firstDot) !== 0x2e || !token.startsWith(jwtHeaderSegment))
    return undefined;
  const secondDot = token.indexOf('.', firstDot + 1);
  if (secondDot === -1 || token.indexOf('.', secondDot + 1) !== -1) return undefined;
  // The signer writes its input as latin1, one byte per UTF-16 unit: a character above U+00FF would be signed as its
  // low byte, so a payload with such a character would pass as the ASCII token it aliases, yet decode differently.
  // Only base64url text can be a payload the mock signed.
  if (!base64urlText.test(token.slice(firstDot + 1, secondDot))) return undefined;
  // Constant time, as a real verifier would be; the lengths are public (always 43 characters when valid).
  if (!constantTimeTextEqual(token.slice(secondDot + 1), sign(token.slice(0, secondDot)))) return undefined;
  try {
    const payload: unknown = JSON.parse(textOfBase64url(token.slice(firstDot + 1, secondDot)));
    return typeof payload === 'object' && payload !== null && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Claims of an access token issued by the mock. */
export interface AccessClaims {
  sub: string;
  typ: 'access';
  jti: string;
  /** Revocation generation of the client at issue time. */
  gen: number;
  iat: number;
  exp: number;
}

/** Signs and decodes one instance's access tokens. */
export interface AccessTokenCodec {
  /** Signs a token; `subJson` is the client id already JSON-escaped. */
  sign(subJson: string, jti: string, gen: number, iat: number, exp: number): string;
  /** The claims of a token this instance signed, or `undefined` for anything else. */
  decode(token: string): AccessClaims | undefined;
  /** Forgets the verified-claims cache. */
  reset(): void;
}

/** Most verified tokens whose claims are kept; the cache is dropped whole when full (a miss costs one verify). */
const verifiedCacheSize = 1024;

/** Creates the codec with the platform's `crypto`; the signing secret is derived from `seed`. */
export function createAccessTokenCodec(seed: string, crypto: CryptoPrimitives): AccessTokenCodec {
  const signature = crypto.hs256Signer(bytesOfHex(crypto.sha256Hex(`payment-contract-kit jwt\0${seed}`)));
  const { base64urlOfText, textOfBase64url } = crypto;
  // The payload is written as a template, not JSON.stringify'd: every claim but `sub` is a number or a hex/uuid
  // string, and `sub` is JSON-escaped once per client.
  // token string → its verified claims (signature and shape checked).
  const verified = new Map<string, AccessClaims>();
  // The latest verified token: a client sends the same one request after request, and comparing two strings is
  // cheaper than hashing the new (300-character) header string for the Map lookup.
  let recentToken: string | undefined;
  let recentClaims: AccessClaims | undefined;

  function decodeUncached(token: string): AccessClaims | undefined {
    // Malformed, another header or algorithm, or a bad signature: all mean "not a token of this mock".
    const claims = verifyHs256(token, signature, textOfBase64url) as Partial<AccessClaims> | undefined;
    if (
      claims === undefined ||
      claims.typ !== 'access' ||
      typeof claims.sub !== 'string' ||
      typeof claims.jti !== 'string' ||
      typeof claims.gen !== 'number' ||
      typeof claims.exp !== 'number'
    )
      return undefined;
    return claims as AccessClaims;
  }

  return {
    sign(subJson, jti, gen, iat, exp) {
      const payload = `{"sub":${subJson},"typ":"access","jti":"${jti}","gen":${gen},"iat":${iat},"exp":${exp}}`;
      const signed = `${jwtHeaderSegment}.${base64urlOfText(payload)}`;
      return `${signed}.${signature(signed)}`;
    },
    decode(token) {
      if (token === recentToken) return recentClaims;
      let claims = verified.get(token);
      if (claims === undefined) {
        claims = decodeUncached(token);
        if (claims === undefined) return undefined;
        if (verified.size >= verifiedCacheSize) verified.clear();
        verified.set(token, claims);
      }
      recentToken = token;
      recentClaims = claims;
      return claims;
    },
    reset() {
      verified.clear();
      recentToken = undefined;
      recentClaims = undefined;
    },
  };
}

/** Why a token was not accepted; keys of `Assumptions.reasonCodes`. */
export type TokenRejection = 'missingToken' | 'invalidToken' | 'expiredToken' | 'revokedToken' | 'clientMismatch';

/** Outcome of a token check: the token's client, or why it was refused and a message that says so. */
export type TokenCheck =
  | { readonly ok: true; readonly clientId: string }
  | { readonly ok: false; readonly reason: TokenRejection; readonly message: string };

/** What {@link checkAccessToken} asks of the token service. */
export interface AccessTokenContext {
  /** The verified claims of a token this mock signed, or undefined. */
  decode(token: string): AccessClaims | undefined;
  isRevoked(claims: AccessClaims): boolean;
  /** Virtual-clock time in ms. */
  now(): number;
  isClient(clientId: string): boolean;
}

function refuse(reason: TokenRejection, text: string): TokenCheck {
  return { ok: false, reason, message: kitMessage(text) };
}

/**
 * Checks `token` (from x-jwt-token); `clientIdHeader` is x-client-id when the request sent one.
 *
 * @example
 * const check = checkAccessToken(headers['x-jwt-token'], headers['x-client-id'], context);
 * if (!check.ok) return graphqlFailure(401, check.message, reasons[check.reason]);
 */
export function checkAccessToken(
  token: string | undefined,
  clientIdHeader: string | undefined,
  context: AccessTokenContext,
): TokenCheck {
  const jwt = serviceHeaders.jwt;
  if (!token)
    return refuse('missingToken', `Missing header ${jwt}: send the token from generate-token or refresh-token.`);
  const claims = context.decode(token);
  if (!claims)
    return refuse(
      'invalidToken',
      `${jwt} is not a valid token of this mock (malformed or bad signature): send the token from generate-token or refresh-token.`,
    );
  if (context.isRevoked(claims))
    return refuse(
      'revokedToken',
      `The token in ${jwt} was revoked: call refresh-token or generate-token for a new one.`,
    );
  if (context.now() >= claims.exp * 1000)
    return refuse(
      'expiredToken',
      `The token in ${jwt} has expired: call refresh-token with your refresh_token for a new one.`,
    );
  if (!context.isClient(claims.sub))
    return refuse(
      'clientMismatch',
      `The token in ${jwt} belongs to client "${claims.sub}", which is not configured on this mock.`,
    );
  if (clientIdHeader !== undefined && clientIdHeader !== claims.sub)
    return refuse(
      'clientMismatch',
      `The token in ${jwt} was issued to another client than the one in ${serviceHeaders.clientId}: use a token generated with the same client id.`,
    );
  return { ok: true, clientId: claims.sub };
}

/** Credential checks against the configured clients of one mock instance. */
export interface CredentialCheck {
  /** Returns the client id, or throws a 401 `MockHttpError` (7.1 body) naming the missing or wrong header. */
  authenticate(clientIdHeader: string | undefined, apiKeyHeader: string | undefined): string;
  /**
   * Whether `apiKey` is the key of `clientId`, compared in constant time; false for an unknown client. For checks
   * outside {@link CredentialCheck.authenticate}, such as the GraphQL endpoint's optional client-header check.
   */
  apiKeyMatches(clientId: string, apiKey: string): boolean;
  /** True when `clientId` is a configured client. */
  isClient(clientId: string): boolean;
}

/**
 * The message for an API key that is not the one configured for `clientId`.
 *
 * @example
 * wrongApiKeyMessage('shop-1'); // '… Wrong x-api-key for client "shop-1": send the API key configured for it.'
 */
export function wrongApiKeyMessage(clientId: string): string {
  return kitMessage(`Wrong ${serviceHeaders.apiKey} for client "${clientId}": send the API key configured for it.`);
}

/**
 * Makes the credential check for `clients` with the platform's constant-time `secretMatcher`: each configured key is
 * digested once here, a check digests only what the request sent.
 *
 * @example
 * const credentials = createCredentialCheck([{ clientId: 'shop-1', apiKey: 'key-1' }], platform.crypto.secretMatcher);
 * credentials.authenticate('shop-1', 'key-1'); // 'shop-1'
 */
export function createCredentialCheck(
  clients: readonly MockClientConfig[],
  secretMatcher: (secret: string) => (candidate: string) => boolean,
): CredentialCheck {
  const apiKeys = new Map(clients.map((c) => [c.clientId, secretMatcher(c.apiKey)] as const));
  return {
    authenticate(clientIdHeader, apiKeyHeader) {
      if (!clientIdHeader)
        throw restError(401, kitMessage(`Missing header ${serviceHeaders.clientId}: send your client id.`));
      if (!apiKeyHeader)
        throw restError(401, kitMessage(`Missing header ${serviceHeaders.apiKey}: send your API key.`));
      const matches = apiKeys.get(clientIdHeader);
      if (matches === undefined)
        throw restError(
          401,
          kitMessage(
            `Unknown client in ${serviceHeaders.clientId}: "${clientIdHeader}" is not configured on this mock (see --client-id or --config).`,
          ),
        );
      if (!matches(apiKeyHeader)) throw restError(401, wrongApiKeyMessage(clientIdHeader));
      return clientIdHeader;
    },
    apiKeyMatches(clientId, apiKey) {
      return apiKeys.get(clientId)?.(apiKey) ?? false;
    },
    isClient(clientId) {
      return apiKeys.has(clientId);
    },
  };
}
