/**
 * The token state a shared store holds for every replica (decision 0040): what the token service asks of it when
 * the sandbox's tokens live in Redis rather than in each process. Memory and the file store have no such port: the
 * token service keeps its state in process (domain/tokens.ts) and the file store journals its records.
 *
 * Every method is one atomic step on the store, so a change made through one replica is seen by the very next call
 * through any other. Token ids and refresh numbers stay the caller's (per-boot ranges, decision 0015): the store
 * keeps which refresh numbers are unused, the generations and the revocations, not the token strings.
 *
 * @module
 */
import type { SandboxReading } from './clock-state.ts';
import type { ArmedFailure } from './failure-state.ts';

/** What {@link TokenStatePort.issue} is told besides the client and the refresh number. */
export interface TokenIssue {
  /** Key of the pair's access token (`<client>/<jti>@<exp>`), for a pair signed with a generation the store has moved past. */
  readonly tokenKey: string;
  /** `generate`: set the generate-once mark; `generate-once`: refuse when it is set already; `control`: neither. */
  readonly via: 'generate' | 'generate-once' | 'control';
  /**
   * The generation the caller signed the pair with before asking (a synchronous issue), or undefined when it signs
   * with the answer. A pair signed with a generation below the store's is kept as one of the current generation.
   */
  readonly signedGeneration?: number | undefined;
  /** Most unused refresh tokens kept for the client; the oldest go first. */
  readonly maxRefresh: number;
}

/** A token's standing in the store, read in one round trip by {@link TokenStatePort.check}. */
export interface TokenStanding {
  /** The client's revoke-all generation now. */
  readonly generation: number;
  /** Expiry (seconds) of the single revocation of this token id, or -1. */
  readonly revokedExp: number;
  /** The generation a pair signed before a revoke-all it did not know of counts as, or -1. */
  readonly issuedAs: number;
  /** The sandbox's epoch and clock, read in the same round trip (the token's expiry is judged on that clock). */
  readonly sandbox: SandboxReading;
  /** The use of a failure armed for the path the check was given, taken in the same round trip; undefined for none. */
  readonly failure?: ArmedFailure | undefined;
}

/** The shared token state; every method may reject with `StoreUnavailableError`. */
export interface TokenStatePort {
  /**
   * Keeps refresh number `n` of `clientId` as unused and returns the client's generation, or -1 when the
   * generate-once mark refused it.
   */
  issue(clientId: string, n: number, how: TokenIssue): Promise<number>;
  /**
   * Spends refresh number `spent` and keeps `next` in its place; returns the generation, -1 when `spent` is not an
   * unused refresh token of the client, -2 when it was issued before a revoke-all (spent all the same).
   */
  refresh(clientId: string, spent: number, next: number, maxRefresh: number): Promise<number>;
  /** Moves the client above every generation it ever had; returns it and how many unused refresh tokens went. */
  revokeAll(clientId: string): Promise<{ readonly generation: number; readonly unused: number }>;
  /** Revokes the token of key `tokenKey` (client, jti and exp) until `exp`; `nowSec` (sandbox clock) prunes revocations that expired. */
  revokeOne(tokenKey: string, exp: number, nowSec: number): Promise<void>;
  /**
   * The generation of `clientId` and the standing of the token of key `tokenKey` (client, jti and exp); with
   * `failPath`, also takes a use of the failure armed for that path (failure-state.ts).
   */
  check(clientId: string, tokenKey: string, failPath?: string): Promise<TokenStanding>;
  /**
   * The sandbox's reset: starts a new epoch for every part (the clock at 0, every client's token state gone but its
   * highest generation) and returns it.
   */
  reset(): Promise<number>;
}

/** The shared token state as the token service gets it from the composition root. */
export interface SharedTokenState {
  readonly port: TokenStatePort;
  /**
   * Tracks a write that a synchronous call could not wait for (`control.issueToken()`, `control.reset()`): the next
   * answer and `control.durable()` wait for it, and its failure is theirs.
   */
  background(write: Promise<unknown>): void;
  /** Resolves (never rejects) once the background writes made so far are done; undefined when there are none. */
  idle(): Promise<void> | undefined;
  /** Takes the epoch and clock a token check read (sandbox-epoch.ts): before the token's expiry is judged. */
  seen(reading: SandboxReading): void;
}
