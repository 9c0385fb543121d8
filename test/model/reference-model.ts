/**
 * A reference model of the service, written from the interface document (payment-service-interface.md) and the
 * ledger (ASSUMPTIONS.md, src/assumptions.ts), not from the mock's code: the second reading that the model-based
 * tests hold the mock to. It keeps, per client, the tokens issued, refreshed and revoked, the card accounts and the
 * payments, and says what each request must get back: status, shape, reason code, validation paths.
 *
 * Time is a window: a deployment whose clock runs with real time gives each request the window between sending it
 * and reading its answer. Where a token's expiry or a payment's settlement falls inside the window, the model allows
 * both answers and then follows the one it got (a boundary the test cannot place is not a disagreement).
 *
 * @module
 */
import { defaultAssumptions } from '../../src/assumptions.ts';
import { testCardNumbers } from '../../src/test-values.ts';

/** The clients the model's deployments are started with (the ledger's test client and a second one). */
export const modelClients = [
  { clientId: 'test-client', apiKey: 'test-api-key' },
  { clientId: 'second-client', apiKey: 'second-api-key' },
] as const;

/** Index of a client in {@link modelClients}. */
export type ClientIndex = 0 | 1;

/** The outcome a test card decides (README "Test cards", docs/mock-behaviour.md). */
export type CardOutcome = 'success' | 'failure' | 'rejected' | 'stays-processing';

/** The cards the commands pay with, each with the outcome the documentation gives it. */
export const modelCards = [
  { number: testCardNumbers.visaSuccess, type: 'visa', outcome: 'success' },
  { number: testCardNumbers.mastercardSuccess, type: 'mastercard', outcome: 'success' },
  { number: testCardNumbers.amexSuccess, type: 'amex', outcome: 'success' },
  { number: testCardNumbers.visaSettlesAsFailure, type: 'visa', outcome: 'failure' },
  { number: testCardNumbers.visaRejectedAsInvalid, type: 'visa', outcome: 'rejected' },
  { number: testCardNumbers.visaStaysProcessing, type: 'visa', outcome: 'stays-processing' },
] as const satisfies readonly { number: string; type: string; outcome: CardOutcome }[];

/** A span of the deployment's clock (ms since the epoch): the earliest and latest the event can have happened at. */
export interface TimeWindow {
  readonly lo: number;
  readonly hi: number;
}

/** Three-valued answers where a boundary falls inside a window. */
export type Maybe = 'yes' | 'no' | 'either';

/**
 * A token pair the model issued, with the strings the service answered: ids are deterministic, so after a reset the
 * same requests give the same strings, and the model keeps its state by string, as the service must.
 */
export interface ModelToken {
  readonly client: ClientIndex;
  readonly token: string;
  readonly refresh: string;
  /** Spec 2.1 / ledger `tokenTtlSeconds`: the JWT's `exp` is its issue second plus the lifetime. */
  readonly expLo: number;
  readonly expHi: number;
}

/** A payment the model accepted. */
export interface ModelPayment {
  readonly uuid: string;
  readonly client: ClientIndex;
  readonly amount: number;
  readonly fee: number;
  readonly outcome: CardOutcome;
  /** When the settle delay is over (on the deployment's clock). */
  readonly due: TimeWindow;
  /** The final status once known: decided by the card after the delay, or by the control API's settle. */
  final?: 'success' | 'failure' | undefined;
  /** Set once a receiver failure may have made an attempt for it fail: its webhook then waits for a retry. */
  mayAwaitRetry: boolean;
  /** Set once the deployment showed its delivery delivered. */
  delivered: boolean;
}

const ledger = defaultAssumptions;

/** Fee of an amount for a card type, by the ledger's table (`round_to_cents(amount × percent / 100 + fixed)`). */
export function modelFee(amount: number, cardType: string): number {
  const rule = ledger.feeTable.find((r) => r.card_type === cardType);
  if (!rule) throw new Error(`no fee rule for ${cardType}`);
  const raw = (amount * rule.percent) / 100 + rule.fixed;
  return (Math.sign(raw) * Math.round(Math.abs(raw) * 100 + 1e-9)) / 100;
}

/** The fee list of spec 4.4: one entry per card type of the ledger's table, in its order. */
export function modelFeeList(amount: number) {
  return ledger.feeTable.map((rule) => {
    const fees = modelFee(amount, rule.card_type);
    return { amount, fees, total_settlement_amount: round2(amount + fees), card_type: rule.card_type };
  });
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** How {@link ReferenceModel.usableRefresh} names a refresh token: its client and its string. */
export const refreshKey = (client: ClientIndex, refresh: string) => `${client}/${refresh}`;

/** The model's state: tokens, card accounts and payments per client, the clock's offset and the receiver. */
export class ReferenceModel {
  tokens: ModelToken[] = [];
  /** Access tokens revoked, by string. */
  revoked = new Set<string>();
  /**
   * Ledger: refresh tokens are single-use, and revoke-all, a reset or a restart forgets them. Kept by client and
   * string ({@link refreshKey}): after a reset two clients can be handed the same string.
   */
  usableRefresh = new Set<string>();
  /** Card account uids by client and card number, as the service answered them (spec 2.3). */
  cardAccounts: Map<string, string>[] = [new Map(), new Map()];
  payments: ModelPayment[] = [];
  /** How far the control API moved the clock since the last reset (the deployment adds real time). */
  offsetMs = 0;
  receiverUp = true;
  /** Clock moved while the receiver was down: bounded so a delivery never runs out of attempts (8 in 7 h 35 min). */
  downAdvancedMs = 0;

  constructor(readonly settleDelayMs: number) {}

  /** Spec 2.1: a token pair issued in `at`, valid 10 minutes (ledger `tokenTtlSeconds`), `exp` in whole seconds. */
  issue(client: ClientIndex, pair: { token: string; refresh: string }, at: TimeWindow): ModelToken {
    const ttl = ledger.tokenTtlSeconds;
    const token: ModelToken = {
      client,
      ...pair,
      expLo: (Math.floor(at.lo / 1000) + ttl) * 1000,
      expHi: (Math.floor(at.hi / 1000) + ttl) * 1000,
    };
    this.tokens.push(token);
    // A token just issued works, whatever an earlier token of the same string went through.
    this.revoked.delete(pair.token);
    this.usableRefresh.add(refreshKey(client, pair.refresh));
    return token;
  }

  /** Whether the token has expired at `at`; a second either side of `exp` is left open (`>` or `>=`). */
  expired(token: ModelToken, at: TimeWindow): Maybe {
    if (at.hi < token.expLo - 1000) return 'no';
    if (at.lo > token.expHi + 1000) return 'yes';
    return 'either';
  }

  /**
   * The reason codes a GraphQL call with `token` (sent by `asClient`'s x-client-id, or none) may get back; empty when
   * it must be answered. The document gives no order between the refusals, so any that applies is allowed.
   */
  refusals(token: ModelToken | undefined, asClient: ClientIndex | undefined, at: TimeWindow): Refusals {
    const codes = ledger.reasonCodes;
    if (!token) return { must: [codes.missingToken], may: [] };
    const must: string[] = [];
    const may: string[] = [];
    if (this.revoked.has(token.token)) must.push(codes.revokedToken);
    const expired = this.expired(token, at);
    if (expired === 'yes') must.push(codes.expiredToken);
    if (expired === 'either') may.push(codes.expiredToken);
    if (asClient !== undefined && asClient !== token.client) must.push(codes.clientMismatch);
    return { must, may };
  }

  /** The client's refresh tokens not used yet: what a revoke without a token also revokes. */
  unusedRefreshTokens(client: ClientIndex): number {
    return new Set(
      this.tokens
        .filter((t) => t.client === client && this.usableRefresh.has(refreshKey(client, t.refresh)))
        .map((t) => t.refresh),
    ).size;
  }

  /** Ledger "Which token revoke-token revokes": the one sent, or every token of the client (and its refresh tokens). */
  revoke(client: ClientIndex, token: ModelToken | undefined): void {
    if (token) this.revoked.add(token.token);
    else
      for (const t of this.tokens)
        if (t.client === client) {
          this.revoked.add(t.token);
          this.usableRefresh.delete(refreshKey(client, t.refresh));
        }
  }

  /** Control API reset: tokens keep their signatures but lose revocations and refresh tokens; the rest is forgotten. */
  reset(): void {
    this.revoked.clear();
    this.usableRefresh.clear();
    this.cardAccounts = [new Map(), new Map()];
    this.payments = [];
    this.offsetMs = 0;
    this.downAdvancedMs = 0;
  }

  /** Whether a payment's settle delay is over at `at`. */
  due(payment: ModelPayment, at: TimeWindow): Maybe {
    if (at.lo >= payment.due.hi) return 'yes';
    if (at.hi < payment.due.lo) return 'no';
    return 'either';
  }

  /** The final status a card decides once its delay is over; undefined for the card that stays processing. */
  static finalOf(outcome: CardOutcome): 'success' | 'failure' | undefined {
    if (outcome === 'success') return 'success';
    if (outcome === 'failure') return 'failure';
    return undefined;
  }

  /**
   * Moves the clock: every payment whose delay is surely over now has its final status. One whose delay may be over
   * stays open; {@link settleObserved} closes it from what the deployment shows.
   */
  advance(ms: number, at: TimeWindow): void {
    this.offsetMs += ms;
    if (!this.receiverUp) this.downAdvancedMs += ms;
    for (const p of this.payments)
      if (p.final === undefined && this.due(p, at) === 'yes') this.settle(p, ModelPaymentFinal.of(p));
  }

  /** Records a payment's final status; a receiver that is down now will make its first attempt fail. */
  settle(payment: ModelPayment, final: 'success' | 'failure' | undefined): void {
    if (final === undefined) return;
    payment.final = final;
    if (!this.receiverUp) payment.mayAwaitRetry = true;
  }

  /** A receiver going down: any delivery not yet made may have its next attempt fail. */
  receiverDown(): void {
    this.receiverUp = false;
    for (const p of this.payments) if (p.final !== undefined) p.mayAwaitRetry = true;
  }

  /** The receiver back: attempts failed so far count on, so the clock moved while down adds up over the sequence. */
  receiverUpAgain(): void {
    this.receiverUp = true;
  }
}

/** Refusals of a GraphQL call: reasons one of which must come, and reasons that may come instead of an answer. */
export interface Refusals {
  readonly must: readonly string[];
  readonly may: readonly string[];
}

/** The final status a payment's card decides. */
export const ModelPaymentFinal = {
  of: (payment: ModelPayment) => ReferenceModel.finalOf(payment.outcome),
};

/** Clock the commands may move while the receiver is down: short of the sixth attempt, so none runs out. */
export const maxDownAdvanceMs = 20 * 60_000;
