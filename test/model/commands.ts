/**
 * The model's commands: each sends one request (or moves the clock, or the receiver), compares the answer with the
 * reference model at once, and updates the model. Written once against {@link Deployment}, run against every way
 * the mock runs. A command's `toString` is its replayable form, as fast-check prints a shrunk counterexample.
 *
 * @module
 */
import fc from 'fast-check';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { exampleCardAccountUid, testCardDetails } from '../../src/test-values.ts';
import type { Deployment, WireResponse } from './deployment.ts';
import {
  disagree,
  expectData,
  expectReason,
  expectRestError,
  expectThat,
  expectTokenPair,
  expectValidation,
  refusedForToken,
  sameMoney,
} from './expect.ts';
import {
  type ClientIndex,
  type ModelPayment,
  ModelPaymentFinal,
  maxDownAdvanceMs,
  modelCards,
  modelClients,
  modelFee,
  modelFeeList,
  ReferenceModel,
  refreshKey,
  type TimeWindow,
} from './reference-model.ts';

/** The deployment's side of a run, and the run number its payments carry in their metadata. */
export interface RealSide {
  readonly deployment: Deployment;
  run: number;
}

type Command = fc.AsyncCommand<ReferenceModel, RealSide>;

let lastRun = 0;

/**
 * A run number that no sequence and no reset had before: a run's payments carry it in their metadata, and the
 * receiver keeps only the current run's webhooks. A reset inside a sequence starts a run too, so one counter serves
 * both: when a reset's run was the current one plus one, the next sequence got the same number again, and a webhook
 * of that reset's run still in flight when the sequence ended (payment ids repeat after a reset) counted in the next
 * sequence, as a second delivery of its own first payment.
 */
export function nextRun(): number {
  lastRun += 1;
  return lastRun;
}

/** What the commands saw succeed, for a run's summary: payments accepted and webhooks awaited. */
export const outcomes = { accepted: 0, webhooks: 0 };

const paths = {
  generate: '/api/v2/accounting/token/generate-token',
  refresh: '/api/v2/accounting/token/refresh-token',
  revoke: '/api/v2/accounting/token/revoke-token',
};
const codes = defaultAssumptions.reasonCodes;
const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
const reference = { description: 'Order 42', reference_no: 'ORD-42' };
const feeListQuery =
  'query($amount: Float!){ paymentGatewayFeesCalc(amount: $amount) { amount fees total_settlement_amount card_type } }';
const legacyFeeListQuery =
  'query($amount: Float!){ paymentGatewayFeesCalc(amount: $amount) { amount fees total card_location card_type } }';
const cardFeeQuery =
  'query($amount: Float!, $credit_card: CreditCardInput!, $contact: ContactInput!){ paymentCreditCardFeeCalc(amount: $amount, credit_card: $credit_card, contact: $contact) { amount fees total_settlement_amount card_account_uid card_type } }';
const paymentFields = '{ amount payment_gateway_fee paid_at status { name } uuid }';
const paymentQuery = `mutation($input: ProcessPaymentRequestInput!){ processPaymentRequest(input: $input) ${paymentFields} }`;
const legacyPaymentQuery = `mutation($input: ProcessPaymentInput!){ processPaymentRequest(input: $input) ${paymentFields} }`;

function credentials(client: ClientIndex, apiKey: string = modelClients[client].apiKey): Record<string, string> {
  return { 'x-client-id': modelClients[client].clientId, 'x-api-key': apiKey };
}

/** Sends one request and gives the window of the deployment's clock it was answered in. */
async function timed(
  model: ReferenceModel,
  real: RealSide,
  send: () => Promise<WireResponse>,
): Promise<{ response: WireResponse; at: TimeWindow }> {
  const lo = real.deployment.wallNow() + model.offsetMs;
  const response = await send();
  return { response, at: { lo, hi: real.deployment.wallNow() + model.offsetMs } };
}

/** The `index`-th newest entry of a list (0 is the newest), wrapping; undefined when the list is empty. */
function pick<T>(list: readonly T[], index: number): { item: T; index: number } | undefined {
  if (list.length === 0) return undefined;
  const i = list.length - 1 - (index % list.length);
  return { item: list[i] as T, index: i };
}

/** A GraphQL call with the picked token (or none), optionally under the other client's x-client-id. */
async function graphql(
  model: ReferenceModel,
  real: RealSide,
  tokenPick: number | null,
  asClient: ClientIndex | undefined,
  query: string,
  variables: Record<string, unknown>,
) {
  const token = tokenPick === null ? undefined : pick(model.tokens, tokenPick);
  const headers: Record<string, string> = {};
  if (token) headers['x-jwt-token'] = token.item.token;
  if (asClient !== undefined) headers['x-client-id'] = modelClients[asClient].clientId;
  const { response, at } = await timed(model, real, () =>
    real.deployment.send({ method: 'POST', path: '/graphql', headers, json: { query, variables } }),
  );
  const refused = refusedForToken(response, model.refusals(token?.item, asClient, at));
  return { response, at, refused, client: token?.item.client };
}

class Generate implements Command {
  constructor(
    readonly client: ClientIndex,
    readonly variant: 'ok' | 'bad-key' | 'get',
  ) {}
  check = () => true;
  async run(model: ReferenceModel, real: RealSide) {
    const method = this.variant === 'get' ? 'GET' : 'POST';
    const headers = credentials(this.client, this.variant === 'bad-key' ? 'wrong-key' : undefined);
    const { response, at } = await timed(model, real, () =>
      real.deployment.send({ method, path: paths.generate, headers }),
    );
    if (this.variant === 'bad-key') return expectRestError(response, 401);
    if (this.variant === 'get') return expectRestError(response, 405);
    // Ledger repeatGenerateToken "reissue": a second call gives a new pair, earlier tokens stay valid.
    model.issue(this.client, expectTokenPair(response, at), at);
  }
  toString = () => `generate(${this.client}, ${this.variant})`;
}

class Refresh implements Command {
  constructor(
    readonly tokenPick: number,
    readonly variant: 'ok' | 'no-body',
  ) {}
  check = (m: Readonly<ReferenceModel>) => m.tokens.length > 0;
  async run(model: ReferenceModel, real: RealSide) {
    const token = pick(model.tokens, this.tokenPick) as { item: ReferenceModel['tokens'][0]; index: number };
    const refresh = token.item.refresh;
    const json = this.variant === 'no-body' ? {} : { refresh_token: refresh };
    const { response, at } = await timed(model, real, () =>
      real.deployment.send({ method: 'POST', path: paths.refresh, headers: credentials(token.item.client), json }),
    );
    if (this.variant === 'no-body') return expectRestError(response, 400);
    if (!model.usableRefresh.has(refreshKey(token.item.client, refresh))) return expectRestError(response, 401);
    // Ledger: refresh tokens are single-use.
    model.usableRefresh.delete(refreshKey(token.item.client, refresh));
    model.issue(token.item.client, expectTokenPair(response, at), at);
  }
  toString = () => `refresh(${this.tokenPick}, ${this.variant})`;
}

class Revoke implements Command {
  constructor(
    readonly client: ClientIndex,
    readonly tokenPick: number | null,
  ) {}
  check = () => true;
  async run(model: ReferenceModel, real: RealSide) {
    // Revoke a token of the client's own, and only one surely not expired: the document says nothing of the others.
    const own = model.tokens.flatMap((t) => (t.client === this.client ? [{ t }] : []));
    const chosen = this.tokenPick === null ? undefined : pick(own, this.tokenPick)?.item;
    const now = real.deployment.wallNow() + model.offsetMs;
    if (chosen && model.expired(chosen.t, { lo: now, hi: now + 60_000 }) !== 'no') return;
    const headers: Record<string, string> = credentials(this.client);
    if (chosen) headers['x-jwt-token'] = chosen.t.token;
    // Ledger revokeTokenBody: the status envelope, and what went: this token, or every token of the client with the
    // refresh tokens it still had unused.
    const data = chosen
      ? { revoked: 'token', refresh_tokens: 0 }
      : { revoked: 'client', refresh_tokens: model.unusedRefreshTokens(this.client) };
    const response = await real.deployment.send({ method: 'POST', path: paths.revoke, headers });
    const body = response.body as Record<string, unknown> | undefined;
    expectThat(
      response.status === 200 &&
        JSON.stringify(body) === JSON.stringify({ ...defaultAssumptions.revokeTokenBody, data }),
      `200 with the ledger revokeTokenBody (spec 4.3), data ${JSON.stringify(data)}`,
      response,
    );
    model.revoke(this.client, chosen?.t);
  }
  toString = () => `revoke(${this.client}, ${this.tokenPick})`;
}

class FeeList implements Command {
  constructor(
    readonly tokenPick: number | null,
    readonly asOther: boolean,
    readonly amount: number,
    readonly legacyFields: boolean,
  ) {}
  check = () => true;
  async run(model: ReferenceModel, real: RealSide) {
    const asClient = this.asOther ? otherClient(model, this.tokenPick) : undefined;
    const query = this.legacyFields ? legacyFeeListQuery : feeListQuery;
    const call = await graphql(model, real, this.tokenPick, asClient, query, { amount: this.amount });
    if (call.refused) return;
    // The mock serves the current guide: the legacy fee fields are a guide mismatch (ledger), never data.
    if (this.legacyFields) return expectReason(call.response, codes.guideMismatch);
    const list = expectData(call.response, 'paymentGatewayFeesCalc');
    expectThat(
      JSON.stringify(list) === JSON.stringify(modelFeeList(this.amount)),
      `the fee list of ${this.amount}: ${JSON.stringify(modelFeeList(this.amount))}`,
      call.response,
    );
  }
  toString = () => `feeList(${this.tokenPick}, asOther=${this.asOther}, ${this.amount}, legacy=${this.legacyFields})`;
}

/** The other client than the picked token's (for "one client's token used by another"). */
function otherClient(model: ReferenceModel, tokenPick: number | null): ClientIndex {
  const token = tokenPick === null ? undefined : pick(model.tokens, tokenPick)?.item;
  return token?.client === 1 ? 0 : 1;
}

class CardFee implements Command {
  constructor(
    readonly tokenPick: number,
    readonly card: number,
    readonly amount: number,
  ) {}
  check = () => true;
  async run(model: ReferenceModel, real: RealSide) {
    const card = modelCards[this.card % modelCards.length] as (typeof modelCards)[number];
    const credit_card = { ...testCardDetails, card_number: card.number };
    const call = await graphql(model, real, this.tokenPick, undefined, cardFeeQuery, {
      amount: this.amount,
      credit_card,
      contact,
    });
    if (call.refused || call.client === undefined) return;
    const fee = expectData(call.response, 'paymentCreditCardFeeCalc') as Record<string, unknown>;
    const fees = modelFee(this.amount, card.type);
    expectThat(
      sameMoney(fee.amount, this.amount) &&
        sameMoney(fee.fees, fees) &&
        sameMoney(fee.total_settlement_amount, this.amount + fees) &&
        fee.card_type === card.type &&
        typeof fee.card_account_uid === 'string',
      `the card fee of ${this.amount} on ${card.type}: ${fees}`,
      call.response,
    );
    const accounts = model.cardAccounts[call.client] as Map<string, string>;
    const known = accounts.get(card.number);
    // Ledger: a card account is stable for one card and client, and another client's is its own.
    expectThat(
      known === undefined || known === fee.card_account_uid,
      'the same card_account_uid as before',
      call.response,
    );
    const others = model.cardAccounts[call.client === 0 ? 1 : 0] as Map<string, string>;
    expectThat(others.get(card.number) !== fee.card_account_uid, "not the other client's card account", call.response);
    accounts.set(card.number, fee.card_account_uid as string);
  }
  toString = () => `cardFee(${this.tokenPick}, card=${this.card}, ${this.amount})`;
}

/** How a payment command goes wrong on purpose, or not. */
export type PayVariant = 'ok' | 'missing-contact' | 'past-expiry' | 'other-guide';

class Pay implements Command {
  constructor(
    readonly tokenPick: number,
    readonly card: number,
    readonly amount: number,
    readonly by: 'card' | 'account' | 'unknown-account' | 'other-client-account',
    readonly variant: PayVariant,
  ) {}
  check = () => true;
  async run(model: ReferenceModel, real: RealSide) {
    // The variants that break one rule pay with a card that succeeds, so the rule broken is the only one.
    const card = modelCards[this.variant === 'ok' ? this.card % modelCards.length : 0] as (typeof modelCards)[number];
    const payer = pick(model.tokens, this.tokenPick)?.item.client ?? 0;
    const accountClient = this.by === 'other-client-account' ? (payer === 0 ? 1 : 0) : payer;
    const known = model.cardAccounts[accountClient]?.get(card.number);
    const uid = this.by === 'unknown-account' ? undefined : known;
    // By the payer's own account when it has one for the card, else by the card; the other cases on purpose.
    const byAccount = this.variant === 'ok' && (this.by === 'account' ? known !== undefined : this.by !== 'card');
    const fees = modelFee(this.amount, card.type);
    const input = this.input(card.number, byAccount ? (uid ?? exampleCardAccountUid) : undefined, fees, real.run);
    const query = this.variant === 'other-guide' ? legacyPaymentQuery : paymentQuery;
    const call = await graphql(model, real, this.tokenPick, undefined, query, { input });
    if (call.refused) return;
    const v = (key: string) => `input.${key}`;
    if (this.variant === 'other-guide') return expectReason(call.response, codes.guideMismatch);
    if (this.variant === 'missing-contact') return expectValidation(call.response, [[v('contact')]]);
    if (this.variant === 'past-expiry') return expectValidation(call.response, [[v('credit_card.expiry_year')]]);
    // A card account of another client, or none, is not the payer's (per-client card accounts).
    if (byAccount && (uid === undefined || accountClient !== payer))
      return expectValidation(call.response, [[v('credit_card.card_account_uid')]]);
    if (card.outcome === 'rejected')
      return expectValidation(call.response, [[v('credit_card.card_number'), v('credit_card.card_account_uid')]]);
    this.accepted(model, call, card.outcome, fees);
  }

  private input(cardNumber: string, uid: string | undefined, fees: number, run: number) {
    const year = this.variant === 'past-expiry' ? '20' : testCardDetails.expiry_year;
    const credit_card =
      uid !== undefined
        ? { card_account_uid: uid }
        : { ...testCardDetails, expiry_year: year, card_number: cardNumber };
    if (this.variant === 'other-guide')
      return {
        amount: this.amount,
        fees,
        credit_card: { ...testCardDetails, number: cardNumber },
        contact: { ...contact, ...reference },
      };
    return {
      amount: this.amount,
      fees,
      credit_card,
      ...(this.variant === 'missing-contact' ? {} : { contact }),
      payment_reference: reference,
      // The run number, echoed in the webhook, keeps a delivery of an earlier run out of this one's.
      metadata: { run },
    };
  }

  private accepted(
    model: ReferenceModel,
    call: { response: WireResponse; at: TimeWindow; client: ClientIndex | undefined },
    outcome: ModelPayment['outcome'],
    fees: number,
  ) {
    const payment = expectData(call.response, 'processPaymentRequest') as Record<string, unknown>;
    const paidAt = typeof payment.paid_at === 'string' ? Date.parse(payment.paid_at) : Number.NaN;
    expectThat(
      sameMoney(payment.amount, this.amount) &&
        sameMoney(payment.payment_gateway_fee, fees) &&
        paidAt >= call.at.lo - 1 &&
        paidAt <= call.at.hi + 1 &&
        JSON.stringify(payment.status) === JSON.stringify({ name: defaultAssumptions.statusNames.processing }) &&
        typeof payment.uuid === 'string',
      'a payment, status processing, paid_at in the request window (spec 2.7, 4.6)',
      call.response,
    );
    expectThat(!model.payments.some((p) => p.uuid === payment.uuid), 'a uuid no other payment has', call.response);
    const delay = model.settleDelayMs;
    outcomes.accepted += 1;
    model.payments.push({
      uuid: payment.uuid as string,
      client: call.client ?? 0,
      amount: this.amount,
      fee: fees,
      outcome,
      due: { lo: paidAt + delay, hi: paidAt + delay },
      mayAwaitRetry: false,
      delivered: false,
    });
  }
  toString = () => `pay(${this.tokenPick}, card=${this.card}, ${this.amount}, ${this.by}, ${this.variant})`;
}

class Advance implements Command {
  constructor(readonly ms: number) {}
  check = (m: Readonly<ReferenceModel>) => m.receiverUp || m.downAdvancedMs + this.ms <= maxDownAdvanceMs;
  async run(model: ReferenceModel, real: RealSide) {
    await advanceClock(model, real, this.ms);
  }
  toString = () => `advance(${this.ms})`;
}

/**
 * Moves the clock by `ms`, in steps that end where a payment's delay ends or (receiver up) a retry is due, each step
 * followed by {@link settleInFlight}. Docs (webhooks): an attempt not answered within 10 s on the mock clock is
 * retried, so one long move would overtake the attempt it starts, however fast the receiver; in steps, the attempt
 * a step starts finishes before the next step, and the model knows each delivery's state.
 */
async function advanceClock(model: ReferenceModel, real: RealSide, ms: number): Promise<void> {
  await settleInFlight(model, real);
  const start = real.deployment.wallNow() + model.offsetMs;
  const ends = model.payments
    .filter((p) => p.final === undefined && ModelPaymentFinal.of(p) !== undefined)
    .map((p) => p.due.hi);
  if (model.receiverUp) {
    // Independent reads, sent together: a deployment that batches carries them in one round trip.
    const waiting = model.payments.filter((x) => x.mayAwaitRetry && !x.delivered);
    for (const delivery of await Promise.all(waiting.map((p) => deliveryOf(real, p))))
      if (delivery?.state === 'retry-scheduled' && delivery.nextAttemptAt !== undefined)
        ends.push(delivery.nextAttemptAt);
  }
  const steps = [...new Set(ends)].filter((t) => t > start && t < start + ms).sort((a, b) => a - b);
  let moved = 0;
  for (const end of [...steps.map((t) => t - start + stepMarginMs(real)), ms]) {
    const step = Math.min(ms, end) - moved;
    if (step <= 0) continue;
    await advanceOnce(model, real, step);
    moved += step;
    await settleInFlight(model, real);
  }
}

/** Past a boundary by this much where real time runs on (its timers fire by themselves a little late). */
function stepMarginMs(real: RealSide): number {
  return real.deployment.frozenClock ? 0 : 50;
}

async function advanceOnce(model: ReferenceModel, real: RealSide, ms: number): Promise<void> {
  const { response, at } = await timed(model, real, () =>
    real.deployment.send({ method: 'POST', path: '/__pck/clock/advance', json: { ms } }),
  );
  const now = (response.body as { now?: unknown } | undefined)?.now;
  const after = { lo: at.lo + ms, hi: at.hi + ms };
  expectThat(
    response.status === 200 && typeof now === 'number' && now >= after.lo && now <= after.hi,
    `the new time, ${ms} ms on (control API)`,
    response,
  );
  // Docs: "payments settle, due webhook retries fire, at once": every payment surely due is settled by the answer.
  model.advance(ms, after);
}

interface DeliveryView {
  readonly state?: string;
  readonly nextAttemptAt?: number;
}

async function deliveryOf(real: RealSide, payment: ModelPayment): Promise<DeliveryView | undefined> {
  const page = await real.deployment.send({ method: 'GET', path: `/__pck/deliveries?paymentUuid=${payment.uuid}` });
  const deliveries = (page.body as { deliveries?: DeliveryView[] }).deliveries;
  expectThat(
    page.status === 200 && Array.isArray(deliveries) && deliveries.length <= 1,
    'at most one delivery per payment',
    page,
  );
  return (deliveries as DeliveryView[])[0];
}

/**
 * Waits for every attempt in flight to end, as the model says it must: delivered with the receiver up, retried with
 * it down. An event wait on the control API, never a poll: the state it waits for is the only one possible.
 */
async function settleInFlight(model: ReferenceModel, real: RealSide): Promise<void> {
  const open = model.payments.filter((p) => p.final !== undefined && !p.delivered);
  // Read together before any wait: a delivery's state only moves on (queued, sending, then delivered or a retry),
  // so each read finds what a read after the earlier waits would, or a state before it that the wait then ends.
  const deliveries = await Promise.all(open.map((p) => deliveryOf(real, p)));
  for (const [i, payment] of open.entries()) {
    const delivery = deliveries[i];
    if (delivery?.state === 'delivered') payment.delivered = true;
    if (delivery !== undefined && delivery.state !== 'queued' && delivery.state !== 'sending') continue;
    const state = model.receiverUp ? 'delivered' : 'retry-scheduled';
    const response = await real.deployment.send({
      method: 'POST',
      path: '/__pck/deliveries/wait',
      json: { paymentUuid: payment.uuid, state, timeoutMs: 10_000 },
    });
    expectThat(response.status === 200, `the delivery of ${payment.uuid} ${state}`, response);
    if (state === 'delivered') payment.delivered = true;
  }
}

class Reset implements Command {
  check = () => true;
  async run(model: ReferenceModel, real: RealSide) {
    const response = await real.deployment.send({ method: 'POST', path: '/__pck/reset' });
    expectThat(response.status === 200, 'reset answers 200', response);
    model.reset();
    // Payment ids repeat after a reset (deterministic): the receiver starts a new run so old deliveries stay apart.
    real.run = nextRun();
    real.deployment.receiver.startRun(real.run);
    model.receiverUpAgain();
  }
  toString = () => 'reset()';
}

class ReadPayment implements Command {
  constructor(readonly paymentPick: number) {}
  check = (m: Readonly<ReferenceModel>) => m.payments.length > 0;
  async run(model: ReferenceModel, real: RealSide) {
    const payment = (pick(model.payments, this.paymentPick) as { item: ModelPayment }).item;
    const client = modelClients[payment.client].clientId;
    const other = modelClients[payment.client === 0 ? 1 : 0].clientId;
    // Both reads at once (one round trip where the deployment batches): neither changes what the other finds.
    const [{ response, at }, elsewhere] = await Promise.all([
      timed(model, real, () =>
        real.deployment.send({ method: 'GET', path: `/__pck/payments?uuid=${payment.uuid}&clientId=${client}` }),
      ),
      real.deployment.send({ method: 'GET', path: `/__pck/payments?uuid=${payment.uuid}&clientId=${other}` }),
    ]);
    const list = (response.body as { payments?: { status?: unknown; clientId?: unknown; amount?: unknown }[] })
      .payments;
    expectThat(response.status === 200 && Array.isArray(list) && list.length === 1, 'the payment, once', response);
    const seen = (list as { status?: unknown }[])[0]?.status;
    const names = defaultAssumptions.statusNames;
    if (payment.final === undefined && model.due(payment, at) === 'either' && seen !== names.processing)
      model.settle(payment, ModelPaymentFinal.of(payment));
    const expected = payment.final ?? names.processing;
    expectThat(seen === expected, `status ${expected}`, response);
    expectThat(
      ((elsewhere.body as { payments?: unknown[] }).payments ?? [1]).length === 0,
      "not among the other client's payments",
      elsewhere,
    );
  }
  toString = () => `readPayment(${this.paymentPick})`;
}

class Settle implements Command {
  constructor(
    readonly paymentPick: number,
    readonly outcome: 'success' | 'failure',
  ) {}
  check = (m: Readonly<ReferenceModel>) => m.payments.length > 0;
  async run(model: ReferenceModel, real: RealSide) {
    const payment = (pick(model.payments, this.paymentPick) as { item: ModelPayment }).item;
    const { response, at } = await timed(model, real, () =>
      real.deployment.send({
        method: 'POST',
        path: '/__pck/payments/settle',
        json: { uuid: payment.uuid, outcome: this.outcome },
      }),
    );
    // The card that stays processing waits for this call whatever the clock says (README test cards).
    const stays = ModelPaymentFinal.of(payment) === undefined;
    const open = payment.final === undefined && (stays || model.due(payment, at) !== 'yes');
    if (open && response.status === 200) return model.settle(payment, this.outcome);
    if (payment.final === undefined && model.due(payment, at) === 'either' && response.status === 409)
      return model.settle(payment, ModelPaymentFinal.of(payment));
    // Docs: 409 once settled.
    expectRestError(response, open ? 200 : 409);
  }
  toString = () => `settle(${this.paymentPick}, ${this.outcome})`;
}

class SettleUnknown implements Command {
  check = () => true;
  async run(_model: ReferenceModel, real: RealSide) {
    const uuid = '00000000-0000-4000-8000-000000000000';
    const response = await real.deployment.send({ method: 'POST', path: '/__pck/payments/settle', json: { uuid } });
    expectRestError(response, 404);
  }
  toString = () => 'settleUnknown()';
}

class AwaitWebhook implements Command {
  constructor(readonly paymentPick: number) {}
  check = (m: Readonly<ReferenceModel>) => m.receiverUp && m.payments.some((p) => p.final !== undefined);
  async run(model: ReferenceModel, real: RealSide) {
    const settled = model.payments.filter((p) => p.final !== undefined);
    const payment = (pick(settled, this.paymentPick) as { item: ModelPayment }).item;
    await catchUpRetry(model, real, payment);
    const response = await real.deployment.send({
      method: 'POST',
      path: '/__pck/deliveries/wait',
      json: { paymentUuid: payment.uuid, state: 'delivered', timeoutMs: 10_000 },
    });
    expectThat(response.status === 200, 'a delivered webhook', response);
    outcomes.webhooks += 1;
    payment.mayAwaitRetry = false;
    const got = real.deployment.receiver.delivered().filter((w) => w.payload.uuid === payment.uuid);
    const want = {
      amount: payment.amount,
      payment_gateway_fee: payment.fee,
      status: payment.final,
      uuid: payment.uuid,
      metadata: { run: real.run },
    };
    expectThat(got.length > 0, `the receiver got the webhook of ${payment.uuid}`);
    for (const w of got) {
      const { paid_at, ...rest } = w.payload;
      expectThat(
        JSON.stringify(rest) === JSON.stringify(want) &&
          typeof paid_at === 'string' &&
          w.clientId === modelClients[payment.client].clientId,
        `the webhook ${JSON.stringify(want)} (spec 6); got ${JSON.stringify(w)}`,
      );
    }
  }
  toString = () => `awaitWebhook(${this.paymentPick})`;
}

/**
 * A delivery waiting for a retry (its receiver failed: the model says when it may) gets it: the clock moves to the
 * retry's time, as the control API lists it, and no further, so the attempt it starts is not overtaken in turn.
 */
async function catchUpRetry(model: ReferenceModel, real: RealSide, payment: ModelPayment): Promise<void> {
  await settleInFlight(model, real);
  const delivery = await deliveryOf(real, payment);
  if (delivery?.state !== 'retry-scheduled') return;
  expectThat(payment.mayAwaitRetry, `no retry for ${payment.uuid}: the receiver never failed`);
  const clock = await real.deployment.send({ method: 'GET', path: '/__pck/clock' });
  const now = (clock.body as { now: number }).now;
  const ms = Math.max(0, (delivery.nextAttemptAt as number) - now) + stepMarginMs(real);
  if (ms > 0) await advanceClock(model, real, ms);
}

class Receiver implements Command {
  constructor(readonly up: boolean) {}
  check = (m: Readonly<ReferenceModel>) => m.receiverUp !== this.up;
  async run(model: ReferenceModel, real: RealSide) {
    // Attempts in flight end first, so each meets the receiver in the state the model has for it.
    await settleInFlight(model, real);
    real.deployment.receiver.setUp(this.up);
    if (this.up) model.receiverUpAgain();
    else model.receiverDown();
  }
  toString = () => `receiver(${this.up ? 'up' : 'down'})`;
}

class Restart implements Command {
  check = () => true;
  async run(model: ReferenceModel, real: RealSide) {
    // Docs (shared sandbox, "What a restart keeps"): a file store keeps tokens, refresh tokens, card accounts,
    // payments and deliveries; the model changes nothing.
    await real.deployment.restart?.();
    void model;
  }
  toString = () => 'restart()';
}

/** After every command: one delivery id and one final status per payment, at the receiver (spec 6, docs/webhooks). */
export function checkReceiver(real: RealSide): void {
  const byPayment = new Map<string, { id: string; status: unknown }>();
  for (const w of real.deployment.receiver.delivered()) {
    const uuid = String(w.payload.uuid);
    const first = byPayment.get(uuid);
    if (!first) byPayment.set(uuid, { id: w.deliveryId, status: w.payload.status });
    else if (first.id !== w.deliveryId || first.status !== w.payload.status)
      disagree(
        `payment ${uuid} reached the receiver as ${first.status} under ${first.id} and as ${w.payload.status} under ${w.deliveryId}`,
      );
  }
  const drifts = real.deployment.receiver.drifts();
  if (drifts.length > 0) disagree(`the checker calls a webhook drift of the service: ${JSON.stringify(drifts)}`);
}

const amounts = fc.constantFrom(10, 100, 250.5, 999.99);
/** Mostly the newest token, sometimes an older one ("use old and new tokens"). */
const tokenPick = fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.nat({ max: 50 }), weight: 1 });
const client = fc.constantFrom<ClientIndex>(0, 1);
/** Clock moves: the settle delay, past a retry, five minutes, past a token's life, an hour. */
const advances = (settleDelayMs: number) =>
  fc.constantFrom(settleDelayMs, settleDelayMs, 7_000, 7_000, 300_000, 601_000, 3_600_000);

/** Repeats an arbitrary: fc.commands picks uniformly among its list, so a repeat is a weight. */
const weight = <T>(times: number, arbitrary: fc.Arbitrary<T>) => Array.from({ length: times }, () => arbitrary);

/** The command arbitraries; `restarts` adds the SIGKILL-and-restart command for deployments with a process. */
export function modelCommands(settleDelayMs: number, restarts: boolean): fc.Arbitrary<Command>[] {
  const generate = fc
    .tuple(client, fc.constantFrom('ok', 'ok', 'ok', 'ok', 'bad-key', 'get') as fc.Arbitrary<'ok' | 'bad-key' | 'get'>)
    .map(([c, v]) => new Generate(c, v));
  const pay = fc
    .tuple(
      tokenPick,
      fc.nat({ max: 11 }),
      amounts,
      fc.constantFrom(
        'card',
        'card',
        'account',
        'account',
        'account',
        'unknown-account',
        'other-client-account',
      ) as fc.Arbitrary<Pay['by']>,
      fc.constantFrom(
        'ok',
        'ok',
        'ok',
        'ok',
        'missing-contact',
        'past-expiry',
        'other-guide',
      ) as fc.Arbitrary<PayVariant>,
    )
    .map(([t, c, a, b, v]) => new Pay(t, c, a, b, v));
  // Rare commands share one slot: a reset, a settle of an unknown payment.
  const rare = fc
    .nat({ max: 3 })
    .map((n): Command => (n === 0 ? new Reset() : n === 1 ? new SettleUnknown() : new Advance(settleDelayMs)));
  const commands: fc.Arbitrary<Command>[] = [
    ...weight(2, generate),
    fc
      .tuple(tokenPick, fc.constantFrom('ok', 'ok', 'ok', 'no-body') as fc.Arbitrary<'ok' | 'no-body'>)
      .map(([t, v]) => new Refresh(t, v)),
    fc.tuple(client, fc.option(tokenPick, { freq: 4 })).map(([c, t]) => new Revoke(c, t)),
    fc
      .tuple(fc.option(tokenPick, { freq: 8 }), fc.nat({ max: 3 }), amounts, fc.nat({ max: 4 }))
      .map(([t, o, a, l]) => new FeeList(t, o === 0, a, l === 0)),
    ...weight(
      2,
      fc.tuple(tokenPick, fc.nat({ max: 11 }), amounts).map(([t, c, a]) => new CardFee(t, c, a)),
    ),
    ...weight(4, pay),
    ...weight(
      2,
      advances(settleDelayMs).map((ms) => new Advance(ms)),
    ),
    rare,
    fc.nat({ max: 50 }).map((p) => new ReadPayment(p)),
    fc
      .tuple(fc.nat({ max: 50 }), fc.constantFrom('success', 'failure') as fc.Arbitrary<'success' | 'failure'>)
      .map(([p, o]) => new Settle(p, o)),
    ...weight(
      2,
      fc.nat({ max: 50 }).map((p) => new AwaitWebhook(p)),
    ),
    fc.boolean().map((up) => new Receiver(up)),
  ];
  if (restarts) commands.push(fc.constant(new Restart()));
  return commands;
}

/** What every sequence starts with: a token for each client (generate-token once, as spec 4.1 asks). */
export function openingCommands(): Command[] {
  return [new Generate(0, 'ok'), new Generate(1, 'ok')];
}

export { ReferenceModel };
