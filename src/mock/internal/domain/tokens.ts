/**
 * Access and refresh tokens of the mock (spec 4.1-4.3, 5, 8): credential checks, issuing, refresh, revocation, the
 * generate-once policy and the verification the GraphQL endpoint runs before the engine.
 *
 * Access tokens are real HS256 JWTs signed with a per-instance secret derived from the seed, so a client can decode
 * them like the service's; signing, decoding and the checks are in access-tokens.ts, and the tests check every issued
 * token with fast-jwt, a JWT library of the field. Expiry is judged on the mock's virtual clock, so advancing the
 * clock expires tokens without waiting. Token ids and refresh tokens are a seed-derived prefix and a counter: after a
 * reset the same calls give the same tokens, apart from the time claims (and the generation, once a revoke-all
 * after the reset moved it above those handed out before).
 *
 * Refresh tokens are single-use; a client keeps at most `maxRefreshTokensPerClient` unused ones, and issuing one
 * more forgets its oldest unused one (client-tokens.ts keeps them as small integers, never the token strings).
 *
 * Revoking every token of a client bumps that client's generation (a claim in each token), which is O(1) and needs
 * no list of issued tokens; revoking one token records its id until it would have expired anyway. A reset rewinds
 * the generation to 0, so tokens issued before it work again (the ledger's "Reset and tokens"), but the next
 * revoke-all still moves above the highest generation ever handed out: those tokens are the client's too, and a
 * generation that started over at 0 would reach theirs again and let them through.
 *
 * With a Redis store the state above lives in Redis instead, for every replica at once (shared-tokens.ts, decision
 * 0040): the same rules, one script per change and one read per check; this module then signs and numbers only.
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import type { RevokeTokenResponse, TokenPair, TokenPairResponse } from '../../../types/rest.ts';
import type { MockClientConfig } from '../option-types.ts';
import type { CryptoPrimitives } from '../platform/crypto-primitives.ts';
import type { RecordApplier, RecordBody, Recorder, RecordSnapshot } from '../store/records.ts';
import type { SharedTokenState } from '../store/token-state.ts';
import {
  type AccessTokenCodec,
  type AccessTokenContext,
  type CredentialCheck,
  checkAccessToken,
  createAccessTokenCodec,
  createCredentialCheck,
  revocationKey,
  type TokenCheck,
  tokenIdKey,
  tokenJti,
} from './access-tokens.ts';
import {
  clientTable,
  keepRefresh,
  nextGeneration,
  refreshNumber,
  refreshTokenText,
  revokeAll,
  tokenHeads,
} from './client-tokens.ts';
import type { Clock } from './clock.ts';
import type { EventBus, TokenIssued } from './events.ts';
import { type SharedTokenContext, type StoreTokenCheck, tokenRefusals } from './shared-token-ops.ts';
import { BOOT_SPAN, highestRecords, tokenRecords } from './token-records.ts';

/** The outcome of a token check (re-exported from access-tokens.ts, where the checks are). */
export type { TokenCheck } from './access-tokens.ts';

/** What a revoke-token call revoked: the `data` of its answer (openapi.yaml `RevokeTokenResponse`). */
export type RevokeTokenData = NonNullable<RevokeTokenResponse['data']>;

/**
 * Token operations of one mock instance. The answers of generate, refresh, revoke and verify are promises over a
 * shared token state (Redis, decision 0040) and plain values otherwise ({@link InProcessTokenService}).
 */
export interface TokenService extends CredentialCheck {
  /** generate-token for an authenticated client, applying `Assumptions.repeatGenerateToken`. */
  generate(clientId: string): TokenPairResponse | Promise<TokenPairResponse>;
  /** refresh-token: exchanges an unused refresh token of this client for a new pair; 401 otherwise. */
  refresh(clientId: string, refreshToken: string): TokenPairResponse | Promise<TokenPairResponse>;
  /**
   * revoke-token: revokes `token` (from x-jwt-token) when given, else every token of the client, and says which it
   * did. Throws 401 when `token` is not a valid token of this client.
   */
  revoke(clientId: string, token: string | undefined): RevokeTokenData | Promise<RevokeTokenData>;
  /** Issues a pair outside the generate-once rule (control API, tests, Pact provider states). */
  issue(clientId: string): TokenPair;
  /**
   * Verifies an access token for the GraphQL endpoint; `clientIdHeader` is x-client-id when the request sent one.
   * Over a shared token state, `failPath` makes the store's check take a use of the failure armed for that path.
   */
  verify(
    token: string | undefined,
    clientIdHeader: string | undefined,
    failPath?: string,
  ): TokenCheck | Promise<StoreTokenCheck>;
  /**
   * Forgets generate-once records, refresh tokens and revocations, and rewinds the token id sequence. Keeps each
   * client's highest revocation generation, which {@link TokenService.keptOverReset} writes down.
   */
  reset(): void;
  /**
   * Empties this process's view only, as a state store's replayed reset or rebuild does: with memory and a file store
   * the same as {@link TokenService.reset}; over a shared token state nothing (the store holds the tokens).
   */
  resetView(): void;
  /**
   * What a reset keeps, as records for a state store to write after its `rst` (`tk.h`: each client's highest
   * revocation generation), so a file store that drops everything before its last reset still has them.
   */
  keptOverReset(): RecordBody[];
  /** Takes back a token record (`tk.*`) of a state store. */
  readonly apply: RecordApplier['apply'];
  /** The records that rebuild this service's view (a state store's compaction; token-records.ts). */
  readonly snapshot: RecordSnapshot['snapshot'];
  /**
   * With a state store: numbers this process's token ids and refresh tokens from `boot × 2³²` on, so no two
   * processes or restarts sharing a store hand out the same refresh token or token id.
   */
  setIdBase(boot: number): void;
}

/**
 * The operations of {@link TokenService} that differ over a shared state (shared-tokens.ts), each answer a promise;
 * this module keeps the rest.
 */
export type SharedTokenOps = Pick<TokenService, 'issue' | 'verify' | 'reset'> & {
  [K in 'generate' | 'refresh' | 'revoke']: (
    ...args: Parameters<TokenService[K]>
  ) => Promise<Awaited<ReturnType<TokenService[K]>>>;
};

/** Builds the shared operations over a context: `sharedTokenOps` of shared-tokens.ts, passed in by the Node entries. */
export type SharedTokenOpsFactory = (c: SharedTokenContext) => SharedTokenOps;

/** The token service without a shared token state: every answer is a plain value (memory, file store). */
export interface InProcessTokenService extends TokenService {
  generate(clientId: string): TokenPairResponse;
  refresh(clientId: string, refreshToken: string): TokenPairResponse;
  revoke(clientId: string, token: string | undefined): RevokeTokenData;
  verify(token: string | undefined, clientIdHeader: string | undefined): TokenCheck;
}

/** Dependencies of {@link createTokenService}. */
export interface TokenServiceDeps {
  readonly assumptions: Pick<Assumptions, 'tokenTtlSeconds' | 'repeatGenerateToken'> &
    Partial<Pick<Assumptions, 'expirationUnit'>>;
  readonly clients: readonly MockClientConfig[];
  readonly clock: Clock;
  /** Instance seed; the JWT secret and the token id prefixes are derived from it. */
  readonly seed: string;
  /** The platform's hashing (platform/crypto-primitives.ts). */
  readonly crypto: CryptoPrimitives;
  /** Most unused refresh tokens kept per client; issuing one more forgets the oldest unused one. Default 1,000. */
  readonly maxRefreshTokensPerClient?: number;
  /** Receives a record of every change when a state store is configured; undefined with memory. */
  readonly record?: Recorder | undefined;
  /** Where every change is told as a {@link TokenIssued}, `token.refreshed` or `token.revoked` event. */
  readonly events?: EventBus | undefined;
  /**
   * The token state a shared store holds (Redis, decision 0040): the service then keeps only ids and signing in
   * process and records nothing; undefined with memory and a file store.
   */
  readonly shared?: SharedTokenState | undefined;
  /**
   * The operations over {@link TokenServiceDeps.shared} (shared-tokens.ts): passed in by the Node entries, so the
   * browser builds, which never have a shared token state, leave them out (the composition root refuses `shared`
   * without them).
   */
  readonly sharedOps?: SharedTokenOpsFactory | undefined;
}

/**
 * Creates the token service of one mock instance.
 *
 * @example
 * const tokens = createTokenService({ assumptions, clients, clock, seed, crypto: platform.crypto });
 * const clientId = tokens.authenticate(req.headers['x-client-id'], req.headers['x-api-key']);
 * const answer = tokens.generate(clientId);
 */
export function createTokenService(deps: TokenServiceDeps & { readonly shared?: undefined }): InProcessTokenService;
export function createTokenService(deps: TokenServiceDeps): TokenService;
export function createTokenService(deps: TokenServiceDeps): TokenService {
  const { assumptions, clock } = deps;
  const ttl = assumptions.tokenTtlSeconds;
  const maxRefresh = Math.max(1, deps.maxRefreshTokensPerClient ?? 1000);
  const { crypto } = deps;
  const credentials = createCredentialCheck(deps.clients, crypto.secretMatcher);
  const codec = createAccessTokenCodec(deps.seed, crypto);
  const { jtiHead, refreshHead } = tokenHeads(deps.seed, crypto.sha256Hex);
  /** Token id counter, and its base: 0 with memory, `boot × 2³²` with a state store (setIdBase). */
  const ids = { next: 0, base: 0 };
  const record = deps.record;
  const events = deps.events;
  const { perClient, state } = clientTable(deps.clients, record !== undefined || deps.shared !== undefined);
  // revocationKey → exp (seconds) of singly revoked tokens; pruned of tokens that expired anyway.
  const revoked = new Map<string, number>();
  // client → the highest generation it has issued tokens in; a reset keeps it (see the module comment).
  const highest = new Map<string, number>();

  const jti = (j: number) => tokenJti(jtiHead, j);

  /**
   * Signs the next token id of `clientId` in generation `gen`, with refresh number `n`, expiring at `exp` (seconds),
   * and tells it: the pair both token implementations hand out.
   */
  function signed(clientId: string, via: TokenIssued['via'], gen: number, n: number, exp: number): TokenPair {
    const s = state(clientId);
    s.gen = gen;
    const j = ids.base + ids.next++;
    const token = codec.sign(s.subJson, jti(j), gen, exp - ttl, exp);
    // generate-token is the hottest path: no event object when nobody listens to this kind.
    if (events?.wants('token.issued'))
      events.emit({ kind: 'token.issued', clientId, via, refreshNumber: n, tokenNumber: j });
    // The JWT keeps `exp` in seconds (RFC 7519); only the answer's `expiration` follows the ledger's unit.
    const expiration = assumptions.expirationUnit === 'milliseconds' ? exp * 1000 : exp;
    return { token, refresh_token: refreshTokenText(s, refreshHead, n), expiration };
  }

  function issue(clientId: string, via: TokenIssued['via']): TokenPair {
    const s = state(clientId);
    const exp = Math.floor(clock.now() / 1000) + ttl;
    const j = ids.base + ids.next;
    // The same jti and exp as a token revoked before a reset is the same token string again: issued now, it works.
    // Most sandboxes revoke nothing: the key is built only when there is a revocation it could match.
    if (revoked.size > 0) revoked.delete(revocationKey(tokenIdKey(clientId, jti(j)), exp));
    const n = ids.base + s.issued++;
    keepRefresh(s, n, maxRefresh);
    if (record) record({ t: 'tk.i', c: clientId, n, j, e: exp, ...(via === 'generate' ? { g: 1 } : {}) });
    return signed(clientId, via, s.gen, n, exp);
  }

  const recordState = { state, perClient, revoked, highest, maxRefresh, ids, jti };

  const tokenContext: AccessTokenContext = {
    decode: (token) => codec.decode(token),
    isRevoked: (claims) =>
      claims.gen < (perClient.get(claims.sub)?.gen ?? 0) ||
      revoked.has(revocationKey(tokenIdKey(claims.sub, claims.jti), claims.exp)),
    now: () => clock.now(),
    isClient: credentials.isClient,
  };

  function reset(): void {
    // Not `highest`: tokens issued before the reset stay out there, and a revoke-all after it must still reach them.
    perClient.clear();
    revoked.clear();
    codec.reset();
    ids.next = 0;
  }

  const service: InProcessTokenService = {
    ...credentials,
    generate(clientId) {
      const s = state(clientId);
      if (s.generated && assumptions.repeatGenerateToken === 'reject') throw tokenRefusals.generatedAlready();
      s.generated = true;
      return { status: 'SUCCESS', data: issue(clientId, 'generate') };
    },
    refresh(clientId, refreshToken) {
      // Unknown, another client's, used, forgotten or revoked by revoke-all: none is an unused refresh token here.
      const s = perClient.get(clientId);
      const n = s ? refreshNumber(s, refreshHead, refreshToken) : -1;
      const gen = n < 0 ? undefined : s?.refresh.get(n);
      if (!s || gen === undefined) throw tokenRefusals.refreshUnknown();
      s.refresh.delete(n);
      if (record || events?.wants('token.refreshed')) spent(deps, clientId, n);
      if (gen < s.gen) throw tokenRefusals.refreshRevoked();
      return { status: 'SUCCESS', data: issue(clientId, 'refresh') };
    },
    revoke(clientId, token) {
      const s = state(clientId);
      if (token === undefined || token === '') {
        const gen = nextGeneration(s, highest.get(clientId) ?? 0);
        highest.set(clientId, gen);
        if (record) record({ t: 'tk.ra', c: clientId, v: gen });
        events?.emit({ kind: 'token.revoked', clientId, tokenId: undefined, expiresAt: undefined });
        return { revoked: 'client', refresh_tokens: revokeAll(s, gen) };
      }
      return revokeOne(deps, codec, revoked, clientId, token);
    },
    issue: (clientId) => issue(clientId, 'control'),
    ...tokenRecords(recordState, () => clock.now() / 1000),
    keptOverReset: () => highestRecords(recordState),
    setIdBase(boot) {
      ids.base = boot * BOOT_SPAN;
      ids.next = 0;
    },
    verify: (token, clientIdHeader) => checkAccessToken(token, clientIdHeader, tokenContext),
    reset,
    resetView: reset,
  };
  // The composition root refuses a shared token state without its operations (a browser build given a Redis store).
  if (deps.shared === undefined || deps.sharedOps === undefined) return service;
  // The operations that read or change tokens go to the store (shared-tokens.ts), and a replayed reset leaves the
  // tokens alone: the store has them. Nothing records, replays or snapshots tokens over it (no file store is there).
  const context = { shared: deps.shared, assumptions, maxRefresh, state, ids, signed, jti, refreshHead, events };
  const ops = deps.sharedOps({ ...context, local: tokenContext, resetLocal: reset });
  return { ...service, ...ops, resetView: () => undefined };
}

/** Revokes the one access token sent in x-jwt-token; its refresh token stays usable (the ledger row). */
function revokeOne(
  deps: Pick<TokenServiceDeps, 'clock' | 'record' | 'events'>,
  codec: AccessTokenCodec,
  revoked: Map<string, number>,
  clientId: string,
  token: string,
): RevokeTokenData {
  const claims = codec.decode(token);
  if (!claims || claims.sub !== clientId) throw tokenRefusals.notClientToken(clientId);
  const nowSec = deps.clock.now() / 1000;
  // Pruned of tokens that expired anyway, so a long run cannot grow it without bound.
  if (revoked.size >= 10_000) for (const [key, exp] of revoked) if (exp <= nowSec) revoked.delete(key);
  revoked.set(revocationKey(tokenIdKey(clientId, claims.jti), claims.exp), claims.exp);
  deps.record?.({ t: 'tk.r', j: tokenIdKey(clientId, claims.jti), e: claims.exp });
  deps.events?.emit({ kind: 'token.revoked', clientId, tokenId: claims.jti, expiresAt: claims.exp });
  return { revoked: 'token', refresh_tokens: 0 };
}

/** Tells the store and the bus that refresh token number `n` of `clientId` was spent. */
function spent(deps: Pick<TokenServiceDeps, 'record' | 'events'>, clientId: string, n: number): void {
  deps.record?.({ t: 'tk.u', c: clientId, n });
  deps.events?.emit({ kind: 'token.refreshed', clientId, refreshNumber: n });
}

/**
 * Serializes a token pair answer without `JSON.stringify`: the tokens are base64url / hex and the expiry an integer,
 * so nothing needs escaping, and generate-token is the hottest path of the mock. The result is always ASCII.
 */
export function tokenPairJson(answer: TokenPairResponse): string {
  const d = answer.data;
  return `{"status":"SUCCESS","data":{"token":"${d.token}","refresh_token":"${d.refresh_token}","expiration":${d.expiration}}}`;
}
