/**
 * The payment state of a Redis store (decision 0040, steps 4 and 5): card accounts, payments, their pages and
 * counters, and the claimed settlement, each call one script of redis-payment-scripts.ts (where the keys are listed)
 * in the current epoch. A reset (a new epoch, made by the token reset script) unlinks them all.
 *
 * A payment is kept as the JSON it was accepted with, less its settlement, and a settlement part `<outcome> <at>
 * <status>` (`- -` while processing) that settle rewrites: the status name stays last, since a configured name may
 * hold spaces. The scripts never decode the JSON, so the payment comes back as it was written.
 *
 * @module
 */
import type { PagedPayment, PaymentFilter, PaymentSettlement, PaymentStatePort } from './payment-state.ts';
import { enqueueArgs } from './redis-delivery-state.ts';
import type { PaymentScriptClient } from './redis-payment-scripts.ts';
import type { CardAccount, SettlementOutcome, StoredPayment } from './stored.ts';

/** The settlement part of a payment as the scripts keep it: `<outcome> <at> <status>`, `- -` while processing. */
export function settlementPart(status: string, settled: Omit<PaymentSettlement, 'status'> | undefined): string {
  return settled === undefined ? `- - ${status}` : `${settled.outcome} ${String(settled.at)} ${status}`;
}

/** A payment as the scripts answer it: its JSON as accepted and its settlement part. */
export function paymentOf(json: string, part: string): StoredPayment {
  const match = /^(\S+) (\S+) ([\s\S]*)$/.exec(part);
  if (!match) throw new Error(`a payment's settlement part is not "<outcome> <at> <status>": ${part.slice(0, 80)}`);
  const fixed = JSON.parse(json) as Omit<StoredPayment, 'status' | 'settledOutcome' | 'settledAt'>;
  return {
    ...fixed,
    // JSON drops a field that is undefined; the payment names each as the memory state's does.
    metadata: fixed.metadata,
    vendor_device_id: fixed.vendor_device_id,
    status: match[3]!,
    settledOutcome: match[1] === '-' ? undefined : (match[1] as SettlementOutcome),
    settledAt: match[2] === '-' ? undefined : Number(match[2]),
  };
}

/** The payment's JSON less its settlement, which the settlement part holds. */
function fixedJson(payment: StoredPayment): string {
  const { status: _status, settledOutcome: _outcome, settledAt: _at, ...fixed } = payment;
  return JSON.stringify(fixed);
}

/** A filter value as the page script takes it: `=<value>`, or '' when not given (so '' itself can be a value). */
const given = (value: string | undefined): string => (value === undefined ? '' : `=${value}`);

/** A page query's cursor as the page script takes it: its kind ('' for none) and its sequence number. */
function cursorOf(query: { readonly before?: number; readonly after?: number }): [string, string] {
  if (query.after !== undefined) return ['after', String(query.after)];
  if (query.before !== undefined) return ['before', String(query.before)];
  return ['', ''];
}

/** The page script's reply as payments: the next cursor, then JSON, settlement part and sequence per payment. */
function pagedOf(reply: readonly string[]): { items: PagedPayment[]; next: number | null } {
  const items: PagedPayment[] = [];
  for (let i = 1; i + 2 < reply.length; i += 3) {
    items.push({ ...paymentOf(reply[i]!, reply[i + 1]!), seq: Number(reply[i + 2]) });
  }
  return { items, next: reply[0] === '' ? null : Number(reply[0]) };
}

/**
 * The payment state under `prefix`, over the store's `run` (which turns a Redis failure into `StoreUnavailableError`).
 *
 * @example
 * const payments = redisPaymentState((work) => run(work), 'pck:');
 * const caps = { paymentsPerClient: 10_000, cardAccountsPerClient: 10_000 };
 * const { seq } = await payments.accept(payment, account, dueAt, caps);
 */
export function redisPaymentState(
  /** A step on the store; `write`: a failure may have come after the script ran (the answer says so). */
  run: <T>(work: (redis: PaymentScriptClient) => Promise<T>, write?: boolean) => Promise<T>,
  prefix: string,
): PaymentStatePort {
  const epochKey = `${prefix}epoch`;
  return {
    registerCard: (account, caps) =>
      run(async (r) => {
        const { clientId, card_account_uid: uid } = account;
        const created = await r.pckPayRegisterCard(
          ...[epochKey, prefix, clientId, uid, JSON.stringify(account), caps.cardAccountsPerClient],
        );
        return { created: created === 1 };
      }),
    cardAccount: (clientId, uid) =>
      run(async (r) => {
        const json = await r.pckPayCard(epochKey, prefix, clientId, uid);
        return json === null ? undefined : (JSON.parse(json) as CardAccount);
      }),
    accept: (payment, account, dueAt, caps, accountNamed = false) =>
      run(async (r) => {
        const settled = payment.settledOutcome === undefined ? undefined : acceptedSettlement(payment);
        const [seq, created, evicted] = await r.pckPayAccept(
          ...[epochKey, prefix, payment.uuid, payment.clientId, fixedJson(payment)],
          ...[settlementPart(payment.status, settled), account.card_account_uid, JSON.stringify(account)],
          ...[dueAt === undefined ? '' : String(dueAt), caps.paymentsPerClient, caps.cardAccountsPerClient],
          accountNamed ? '1' : '0',
        );
        return seq === 0 ? undefined : { seq, accountCreated: created === 1, evicted };
      }, true),
    payment: (clientId, uuid) =>
      run(async (r) => {
        const reply = await r.pckPayRead(epochKey, prefix, uuid, given(clientId));
        return reply === null ? undefined : paymentOf(reply[0], reply[1]);
      }),
    page: (query, filter: PaymentFilter) =>
      run(async (r) => {
        const [kind, at] = cursorOf(query);
        const reply = await r.pckPayPage(
          ...[epochKey, prefix, query.limit, kind, at],
          ...[given(filter.clientId), given(filter.status), given(filter.uuid)],
        );
        const { items, next } = pagedOf(reply);
        return { items, order: query.after === undefined ? 'newest-first' : 'oldest-first', next };
      }),
    counts: () =>
      run(async (r) => {
        const [kept, processing, evicted, version] = await r.pckPayCounts(epochKey, prefix);
        return { kept, processing, evicted, version };
      }),
    claimDue: (max, visibilityMs, realNow) =>
      run(async (r) => {
        const token = globalThis.crypto.randomUUID();
        const [nextDue, ...uuids] = await r.pckPayClaimDue(
          ...[epochKey, prefix, Math.max(0, Math.floor(max)), String(visibilityMs), String(realNow), token],
        );
        return { token, uuids, nextDueAt: nextDue === '' || nextDue === undefined ? undefined : Number(nextDue) };
      }),
    settle: (uuid, settlement, claimToken, deliveries) =>
      run(async (r) => {
        const part = settlementPart(settlement.status, settlement);
        const caps = deliveries?.caps;
        const reply = await r.pckPaySettle(
          ...[
            epochKey,
            prefix,
            uuid,
            part,
            claimToken ?? '',
            caps?.maxDeliveries ?? 0,
            caps?.maxPendingDeliveries ?? 0,
          ],
          ...(deliveries?.items.flatMap(enqueueArgs) ?? []),
        );
        return reply === null ? undefined : paymentOf(reply[0], reply[1]);
      }),
  };
}

/** The settlement a payment accepted as settled already carries (a replay's; the mock accepts processing ones). */
function acceptedSettlement(payment: StoredPayment): Omit<PaymentSettlement, 'status'> {
  return { outcome: payment.settledOutcome!, at: payment.settledAt ?? 0 };
}
