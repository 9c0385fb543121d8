/**
 * The token service's side of a file store: replaying `tk.*` records, and writing its view down as a snapshot for
 * compaction. Split from tokens.ts, whose hot paths never run any of this (with `memory:` nothing is recorded or
 * replayed).
 *
 * A snapshot says per client its generate-once flag, its revocation generation and its unused refresh tokens
 * (`tk.s`), its highest revocation generation, which a reset keeps (`tk.h`; a control reset writes these after its
 * `rst` too), the singly revoked tokens not yet expired (`tk.r`), and the highest refresh and token id numbers this
 * boot handed out (`tk.m`): a process rebuilt from a snapshot moves its counters past them, so it never hands out a
 * refresh token or token id twice, even once the records that issued them are compacted away. Numbers of earlier
 * boots need no mark: the store's boot counter only grows, so no later boot draws from their range.
 *
 * @module
 */
import { numberField, type RecordApplier, type RecordBody, textField } from '../store/records.ts';
import { revocationKey, tokenIdKey } from './access-tokens.ts';
import { type ClientTokens, keepRefresh, nextGeneration, revokeAll } from './client-tokens.ts';

/** Issue numbers a process may use per boot: 2³² (a refresh token holds 12 hex digits, 2⁴⁸). */
export const BOOT_SPAN = 2 ** 32;

/** The token service's state a store replays into and snapshots. */
export interface TokenRecordState {
  readonly state: (clientId: string) => ClientTokens;
  readonly perClient: ReadonlyMap<string, ClientTokens>;
  /** {@link revocationKey} → exp (seconds) of singly revoked tokens. */
  readonly revoked: Map<string, number>;
  /** Per client the highest revocation generation handed out; a reset keeps it (tokens.ts). */
  readonly highest: Map<string, number>;
  readonly maxRefresh: number;
  readonly ids: { next: number; readonly base: number };
  /** The jti of token number `j` ({@link tokenJti} under this service's head). */
  readonly jti: (j: number) => string;
}

/**
 * The token service's `apply` and `snapshot` over `t`; `nowSec` tells the virtual time in seconds. A replayed number
 * of this process's own boot moves its counters past it (a rebuild).
 */
export function tokenRecords(
  t: TokenRecordState,
  nowSec: () => number,
): { apply: RecordApplier['apply']; snapshot: () => RecordBody[] } {
  const apply: RecordApplier['apply'] = (r) => {
    const base = t.ids.base;
    const own = (n: number) => n >= base && n < base + BOOT_SPAN;
    const passOwn = (s: ClientTokens | undefined, n: number, j: number) => {
      if (s && own(n)) s.issued = Math.max(s.issued, n - base + 1);
      if (own(j)) t.ids.next = Math.max(t.ids.next, j - base + 1);
    };
    if (r.t === 'tk.i') {
      const s = t.state(textField(r, 'c'));
      if (r.g === 1) s.generated = true;
      const n = numberField(r, 'n');
      const j = numberField(r, 'j');
      keepRefresh(s, n, t.maxRefresh);
      passOwn(s, n, j);
      // As issuing did: a token of a revoked one's jti and exp (after a reset) is that token string again, and works.
      const e = numberField(r, 'e');
      if (Number.isFinite(e)) t.revoked.delete(revocationKey(tokenIdKey(textField(r, 'c'), t.jti(j)), e));
    } else if (r.t === 'tk.u') t.perClient.get(textField(r, 'c'))?.refresh.delete(numberField(r, 'n'));
    else if (r.t === 'tk.ra') applyRevokeAll(t, textField(r, 'c'), numberField(r, 'v'));
    else if (r.t === 'tk.h') raiseHighest(t, textField(r, 'c'), numberField(r, 'v'));
    else if (r.t === 'tk.r') {
      const e = numberField(r, 'e');
      t.revoked.set(revocationKey(textField(r, 'j'), e), e);
    } else if (r.t === 'tk.m') {
      const c = textField(r, 'c');
      passOwn(c === '' ? undefined : t.state(c), numberField(r, 'n'), numberField(r, 'j'));
    } else if (r.t === 'tk.s') applyClientSnapshot(t, r);
  };
  return { apply, snapshot: () => tokenSnapshot(t, nowSec()) };
}

function raiseHighest(t: TokenRecordState, clientId: string, gen: number): void {
  if (Number.isFinite(gen) && gen > (t.highest.get(clientId) ?? 0)) t.highest.set(clientId, gen);
}

/**
 * A revoke-all record: the generation it names (`v`), never lower than the one this view has. A record without one
 * (written by an older kit) takes the next.
 */
function applyRevokeAll(t: TokenRecordState, clientId: string, v: number): void {
  const s = t.state(clientId);
  const gen = Number.isFinite(v) ? Math.max(s.gen, v) : nextGeneration(s, t.highest.get(clientId) ?? 0);
  revokeAll(s, gen);
  raiseHighest(t, clientId, gen);
}

/** The `tk.h` records of {@link TokenRecordState.highest}: what a reset keeps of the token service. */
export function highestRecords(t: Pick<TokenRecordState, 'highest'>): RecordBody[] {
  const out: RecordBody[] = [];
  for (const [c, v] of t.highest) if (v > 0) out.push({ t: 'tk.h', c, v });
  return out;
}

function applyClientSnapshot(t: TokenRecordState, r: Parameters<RecordApplier['apply']>[0]): void {
  const c = textField(r, 'c');
  const s = t.state(c);
  s.generated = r.g === 1;
  const gen = numberField(r, 'v');
  s.gen = Number.isFinite(gen) ? gen : 0;
  raiseHighest(t, c, s.gen);
  s.refresh.clear();
  s.order.clear();
  if (!Array.isArray(r.r)) return;
  for (const pair of r.r as unknown[]) {
    if (!Array.isArray(pair) || typeof pair[0] !== 'number' || typeof pair[1] !== 'number') continue;
    s.refresh.set(pair[0], pair[1]);
    s.order.push(pair[0]);
  }
}

/** The records that rebuild the token service's view (see the module comment); `nowSec` prunes expired revocations. */
function tokenSnapshot(t: TokenRecordState, nowSec: number): RecordBody[] {
  const out: RecordBody[] = [];
  for (const [c, s] of t.perClient) {
    out.push({ t: 'tk.s', c, g: s.generated ? 1 : 0, v: s.gen, r: Array.from(s.refresh) });
  }
  out.push(...highestRecords(t));
  for (const [key, e] of t.revoked) if (e > nowSec) out.push({ t: 'tk.r', j: key.slice(0, key.lastIndexOf('@')), e });
  // One mark per client that drew refresh numbers; the token id mark rides on the first (or on `` when none did).
  const j = t.ids.next > 0 ? t.ids.base + t.ids.next - 1 : -1;
  const marks: RecordBody[] = [];
  for (const [c, s] of t.perClient)
    if (s.issued > 0) marks.push({ t: 'tk.m', c, n: t.ids.base + s.issued - 1, j: marks.length === 0 ? j : -1 });
  if (marks.length === 0 && j >= 0) marks.push({ t: 'tk.m', c: '', n: -1, j });
  out.push(...marks);
  return out;
}
