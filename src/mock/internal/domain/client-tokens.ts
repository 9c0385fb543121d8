/**
 * What the token service keeps per client: the generate-once flag, the revocation generation and the unused refresh
 * tokens. A refresh token names its client (by ordinal) and its issue number, so only small integers are kept per
 * token (issue number → generation, and the issue order), never the token string: a Map of 1,000 token strings per
 * client was most of generate-token's garbage collection (profiled: the strings outlive young-generation GCs; small
 * integers are stored inline).
 *
 * @module
 */
import { KeyQueue } from './ordered-lists.ts';

/** Token state of one client. */
export interface ClientTokens {
  generated: boolean;
  /** Revocation generation: revoke-all bumps it, and tokens of an older generation are refused. */
  gen: number;
  /** Client number within this service (order of first use), written into its refresh tokens. */
  readonly ordinal: string;
  /** Refresh tokens issued to the client so far: the issue number of the next one. */
  issued: number;
  /** Issue number of each unused refresh token → the client's generation when it was issued. */
  readonly refresh: Map<number, number>;
  /** Issue numbers in issue order, some already used (no longer in `refresh`): the eviction queue (see ordered-lists.ts). */
  readonly order: KeyQueue<number>;
  /** JSON of the `sub` claim (the client id, escaped once). */
  readonly subJson: string;
}

/**
 * The seed-derived heads of one instance's token ids (uuid-shaped, a counter follows) and refresh tokens: unique per
 * instance and repeatable after a reset.
 */
export function tokenHeads(
  seed: string,
  sha256Hex: (text: string) => string,
): { jtiHead: string; refreshHead: string } {
  const p = sha256Hex(`payment-contract-kit jti\0${seed}`);
  const jtiHead = `${p.slice(0, 8)}-${p.slice(8, 12)}-4${p.slice(13, 16)}-8${p.slice(17, 20)}-`;
  return { jtiHead, refreshHead: `rt_${sha256Hex(`payment-contract-kit rt\0${seed}`).slice(0, 16)}` };
}

/**
 * The per-client table of a token service, and `state`, which makes a client's entry on first use. With a store
 * (`stored`) every process must give a client the same ordinal: its place in `clients`.
 */
export function clientTable(
  clients: readonly { readonly clientId: string }[],
  stored: boolean,
): { perClient: Map<string, ClientTokens>; state: (clientId: string) => ClientTokens } {
  const perClient = new Map<string, ClientTokens>();
  const state = (clientId: string) => {
    let s = perClient.get(clientId);
    if (!s) {
      const configured = stored ? clients.findIndex((c) => c.clientId === clientId) : -1;
      s = newClientTokens(clientId, configured >= 0 ? configured : perClient.size + (stored ? clients.length : 0));
      perClient.set(clientId, s);
    }
    return s;
  };
  return { perClient, state };
}

/** Hex digits of the issue number in a refresh token (`rt_` + 16 prefix + 4 client + 12 number = a uuid's 32). */
const ISSUE_DIGITS = 12;

/** Fresh state for the `index`-th client the service has seen. */
function newClientTokens(clientId: string, index: number): ClientTokens {
  return {
    generated: false,
    gen: 0,
    ordinal: index.toString(16).padStart(4, '0'),
    issued: 0,
    refresh: new Map(),
    order: new KeyQueue(),
    subJson: JSON.stringify(clientId),
  };
}

/** The refresh token string of issue number `n` of `s` (what {@link refreshNumber} reads back). */
export function refreshTokenText(s: ClientTokens, refreshHead: string, n: number): string {
  return refreshHead + s.ordinal + n.toString(16).padStart(ISSUE_DIGITS, '0');
}

/**
 * Keeps issue number `n` of `s` as an unused refresh token of the current generation, forgetting the oldest unused
 * ones beyond `maxRefresh`: at issue, and when a file store replays an issue.
 */
export function keepRefresh(s: ClientTokens, n: number, maxRefresh: number): void {
  // Forget the oldest unused refresh token; used ones left in the queue are skipped.
  while (s.refresh.size >= maxRefresh) {
    const oldest = s.order.shift();
    if (oldest === undefined) break;
    s.refresh.delete(oldest);
  }
  s.refresh.set(n, s.gen);
  s.order.push(n);
  // Used tokens stay queued until evicted; when they pile up (every token refreshed, none evicted), keep only the
  // unused ones, so the queue stays within twice the cap.
  if (s.order.length > 2 * maxRefresh) s.order.retain((k) => s.refresh.has(k));
}

/** The issue number a refresh token of `s` carries, or -1 when it is not shaped as one of this client's. */
export function refreshNumber(s: ClientTokens, refreshHead: string, refreshToken: string): number {
  const head = refreshHead.length + s.ordinal.length;
  if (
    refreshToken.length !== head + ISSUE_DIGITS ||
    !refreshToken.startsWith(refreshHead) ||
    !refreshToken.startsWith(s.ordinal, refreshHead.length)
  )
    return -1;
  const digits = refreshToken.slice(head);
  if (!/^[0-9a-f]+$/.test(digits)) return -1;
  return Number.parseInt(digits, 16);
}

/**
 * Revoke-all: every access and refresh token of the client issued so far becomes invalid, as the client moves to
 * generation `gen`. That must be above every generation a token still out there carries; the token service picks it
 * (a reset rewinds `s.gen` while tokens issued before it stay valid, so `s.gen + 1` alone can be too low). Returns
 * how many unused refresh tokens went, which revoke-token's answer reports to a caller who left x-jwt-token out.
 */
export function revokeAll(s: ClientTokens, gen = s.gen + 1): number {
  const unused = s.refresh.size;
  s.gen = gen;
  s.refresh.clear();
  s.order.clear();
  return unused;
}

/**
 * The generation a revoke-all of `s` moves to: above the client's current one and above `highest`, the highest
 * generation any token of the client was issued in since the service started (a reset does not lower it).
 */
export function nextGeneration(s: ClientTokens, highest: number): number {
  return Math.max(s.gen, highest) + 1;
}
