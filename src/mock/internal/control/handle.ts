/**
 * The control handle's implementation: each operation checks its arguments (a mistake is a {@link MockHttpError} in
 * the 7.1 shape, so the HTTP control API answers it as it is) and delegates to the part that owns the state.
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import type { CoverageReport } from '../../../contract/coverage/report.ts';
import { kitMessage } from '../../../internal/messages.ts';
import { servicePaths } from '../../../spec-names.ts';
import { checkCardNumber, expiryProblems } from '../domain/cards.ts';
import { type Clock, maxClockTime } from '../domain/clock.ts';
import type { EventBus } from '../domain/events.ts';
import type { FailureInjection } from '../domain/failure-injection.ts';
import type { JournalReads } from '../domain/journal.ts';
import type { CardAccountInput, MockState } from '../domain/payments.ts';
import type { Settlement } from '../domain/settlement.ts';
import type { SharedPayments } from '../domain/shared-payments.ts';
import type { TokenService } from '../domain/tokens.ts';
import type { EngineLoader } from '../graphql/engine-loader.ts';
import { cardNumberMessage } from '../graphql/validation-messages.ts';
import type { MockControl, MockRequestMatcher, MockRequestRecord, MockStoreStatus } from '../handle/control-handle.ts';
import type { RouteEntry } from '../http/exchange.ts';
import type { Router } from '../http/routes.ts';
import { badRequest, restError } from '../http-error.ts';
import type { Recorder } from '../store/records.ts';
import type { SandboxEpoch } from '../store/sandbox-epoch.ts';
import type { RedeliverResult } from '../webhooks/dispatcher-rules.ts';
import type { WebhookFanout } from '../webhooks/fanout.ts';
import type { SharedDeliveries } from '../webhooks/shared-deliveries.ts';

/** The parts the handle drives. */
export interface ControlDeps {
  readonly assumptions: Assumptions;
  readonly clock: Clock;
  readonly state: MockState;
  readonly tokens: TokenService;
  readonly settlement: Settlement;
  /** The payments a shared store holds (Redis): read and settled there instead of in `state` and `settlement`. */
  readonly sharedPayments?: SharedPayments | undefined;
  /** The webhook deliveries a shared store holds (Redis): read and redelivered there instead of in `webhooks`. */
  readonly sharedDeliveries?: SharedDeliveries | undefined;
  readonly webhooks: WebhookFanout;
  /** The request journal's reads: this process's ring, or the store's (journal.ts). */
  readonly journal: JournalReads;
  readonly failures: FailureInjection;
  readonly engine: EngineLoader;
  readonly router: Router<RouteEntry>;
  /** Entries the journal keeps (`journalSize`). */
  readonly journalSize: number;
  /** Everything `reset()` rewinds, in order (the clock first: the others cancel their tasks on it). */
  readonly resettable: readonly { reset(): void }[];
  /** Receives `rst` and `clk` records when a state store is configured (not one with an epoch); undefined with memory. */
  readonly record?: Recorder | undefined;
  /** The store's epoch and clock (Redis, store/sandbox-epoch.ts): resets and clock moves go there, not to records. */
  readonly epoch?: Pick<SandboxEpoch, 'reset' | 'advanced'> | undefined;
  /** Where a reset (`sandbox.reset`) and a clock move (`clock.moved`) are told. */
  readonly events?: EventBus | undefined;
  /** The state store's side of the handle, bound once the store is: undefined with memory. */
  readonly store?: (() => StoreControl | undefined) | undefined;
  /** The coverage report of what the sandbox exercised so far. */
  readonly coverage: () => CoverageReport;
}

/** What the handle asks of a state store's layer. */
export interface StoreControl {
  readonly kind: 'file' | 'redis';
  /** Every change made so far, durable; rejects with the store's fault. */
  flush(): Promise<void>;
  compact(): Promise<boolean>;
  deferredLost(): number;
  /** Outcomes the store refused from this process because its claim had lapsed (Redis; 0 on a file). */
  fencedOut(): number;
  compactions(): number;
}

/** The store's counters, all 0 with memory. */
function storeStatus(store: StoreControl | undefined): MockStoreStatus {
  return {
    kind: store?.kind ?? 'memory',
    lostJournalEntries: store?.deferredLost() ?? 0,
    fencedOut: store?.fencedOut() ?? 0,
    compactions: store?.compactions() ?? 0,
    rebuiltFromSnapshot: 0,
  };
}

/** The handle's state store methods: all answer at once with memory. */
function storeMethods(
  store: ControlDeps['store'],
  journal: JournalReads,
): Pick<MockControl, 'store' | 'durable' | 'compactNow'> {
  return {
    store: () => storeStatus(store?.()),
    async durable() {
      await store?.()
        ?.flush()
        .catch((error: unknown) => {
          throw notDurable(error);
        });
      // The requests answered so far are changes another replica reads too (its requests() and waits).
      await journal.written();
    },
    compactNow: async () =>
      (await store?.()
        ?.compact()
        .catch(() => false)) ?? false,
  };
}

/** A store fault as `durable()` rejects with it: what was not kept, and what to do. */
function notDurable(error: unknown): Error {
  const reason = (error as { reason?: string }).reason ?? String(error);
  return new Error(
    kitMessage(
      `the state store did not take the latest changes (${reason}): they are not kept, and other replicas will not see them. The mock rebuilds its state once the store is back; make the change again then.`,
    ),
    { cause: error },
  );
}

function toPredicate(
  match: ((r: MockRequestRecord) => boolean) | MockRequestMatcher,
): (r: MockRequestRecord) => boolean {
  if (typeof match === 'function') return match;
  const entries = Object.entries(match).filter(([, v]) => v !== undefined) as [keyof MockRequestRecord, unknown][];
  return (r) => entries.every(([k, v]) => r[k] === v);
}

/** The card details `registerCardAccount` was given, checked by the rules a fee calculation's input is checked by. */
function checkedCard(
  card: Parameters<MockControl['registerCardAccount']>[1],
  assumptions: Assumptions,
  now: number,
): CardAccountInput {
  const number = card?.card_number;
  if (typeof number !== 'string') throw badRequest('registerCardAccount: card_number must be a string of digits.');
  // The same rule as a fee calculation's input validation, with the same messages.
  const check = checkCardNumber(number, assumptions);
  if (!check.ok)
    throw badRequest(
      `registerCardAccount: ${cardNumberMessage(check.problem, 'card_number', assumptions)} See testCards.`,
    );
  if (
    typeof card.expiry_month !== 'string' ||
    typeof card.expiry_year !== 'string' ||
    expiryProblems(card.expiry_month, card.expiry_year, now).length > 0
  )
    throw badRequest('registerCardAccount: expiry_month and expiry_year must be 2 digits each and not in the past.');
  return { card_number: number, expiry_month: card.expiry_month, expiry_year: card.expiry_year };
}

/** The payments kept in this process (memory, the file store), read as a shared store's are. */
function paymentsInProcess(
  state: MockState,
  settlement: Settlement,
): Pick<SharedPayments, 'payments' | 'page' | 'counts' | 'settleNow'> {
  return {
    payments: async (clientId) => state.payments(clientId),
    page: async (query, filter) => state.paymentPage(query, filter),
    counts: async () => state.paymentCounts(),
    settleNow: async (uuid, outcome) => settlement.settleNow(uuid, outcome),
  };
}

/** Creates the control handle over `deps`. */
export function createControl(deps: ControlDeps): MockControl {
  const { assumptions, clock, state, tokens, settlement, webhooks, journal, failures, engine, router } = deps;
  const shared = deps.sharedPayments;
  const sharedHooks = deps.sharedDeliveries;
  const payments = shared ?? paymentsInProcess(state, settlement);
  const hooks = sharedHooks ?? webhooks;
  const knownClient = (fn: string, clientId: string) => {
    if (!tokens.isClient(clientId))
      throw restError(
        404,
        kitMessage(
          `${fn}: client "${clientId}" is not configured on this mock (see clients / --client-id / --config).`,
        ),
      );
  };
  return {
    assumptions,
    reset() {
      for (const part of deps.resettable) part.reset();
      if (deps.epoch) deps.epoch.reset();
      else deps.record?.({ t: 'rst' });
      // After the `rst`: a file store drops everything up to its last reset at the next start, and these must stay.
      if (deps.record) for (const r of tokens.keptOverReset()) deps.record(r);
      deps.events?.emit({ kind: 'sandbox.reset' });
    },
    now: () => clock.now(),
    advanceClock(ms) {
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
        throw badRequest(`advanceClock needs a finite, non-negative number of milliseconds; got ${String(ms)}.`);
      if (clock.now() + ms > maxClockTime)
        throw badRequest(
          `advanceClock(${ms}) would move the clock past the latest date JavaScript can hold (${new Date(maxClockTime).toISOString()}); advance by less.`,
        );
      const at = clock.advance(ms);
      if (deps.epoch) deps.epoch.advanced(ms);
      else deps.record?.({ t: 'clk', ms });
      // What the move made due is settled before the answer (it waits for the store's writes).
      shared?.clockMoved();
      deps.events?.emit({ kind: 'clock.moved', ms });
      return at;
    },
    payments: (clientId) => payments.payments(clientId),
    async paymentPage(query = {}) {
      const { limit, before, after, clientId, status, uuid } = query;
      return payments.page({ limit, before, after }, { clientId, status, uuid });
    },
    async settlePayment(uuid, outcome) {
      if (outcome !== undefined && outcome !== 'success' && outcome !== 'failure')
        throw badRequest(`settlePayment outcome must be "success" or "failure"; got ${String(outcome)}.`);
      const r = await payments.settleNow(uuid, outcome);
      if (r.ok) return r.payment;
      throw r.problem === 'unknown'
        ? restError(404, kitMessage(`No payment with uuid "${uuid}": list them with payments().`))
        : restError(
            409,
            kitMessage(`Payment "${uuid}" is already settled (${r.payment?.status}); reset() to start over.`),
          );
    },
    requests: (o) => journal.entries(o?.since),
    async requestPage(query = {}) {
      const { limit, before, after, method, path, operationName, status, clientId } = query;
      return journal.page({ limit, before, after }, { method, path, operationName, status, clientId });
    },
    cursor: async () => (await journal.counts()).cursor,
    waitForRequest: (match, o) => journal.waitFor(toPredicate(match), o),
    issueToken(clientId) {
      knownClient('issueToken', clientId);
      return tokens.issue(clientId);
    },
    registerCardAccount(clientId, card) {
      knownClient('registerCardAccount', clientId);
      return state.upsertCardAccount(clientId, checkedCard(card, assumptions, clock.now())).card_account_uid;
    },
    deliveries: async () => hooks.deliveries(),
    async deliveryPage(query = {}) {
      const { limit, before, after, state: deliveryState, paymentUuid, clientId, url } = query;
      const filter = { state: deliveryState, paymentUuid, clientId, url };
      return hooks.deliveryPage({ limit, before, after }, filter);
    },
    async history() {
      const { kept, cursor } = await journal.counts();
      const requests = { kept, capacity: deps.journalSize, cursor };
      return { payments: await payments.counts(), deliveries: await hooks.deliveryCounts(), requests };
    },
    ...storeMethods(deps.store, deps.journal),
    coverage: deps.coverage,
    waitForDelivery: (predicate, o) => hooks.waitFor(predicate, o),
    redeliver(id) {
      if (typeof id !== 'string' || id === '')
        throw badRequest('redeliver needs the id of a delivery (see deliveries()).');
      const refused = (r: RedeliverResult) => {
        if (!r.ok) throw restError(r.problem === 'unknown' ? 404 : 409, r.message);
      };
      if (sharedHooks) return sharedHooks.redeliver(id).then(refused);
      refused(webhooks.redeliver(id));
    },
    failNextRequest(path, status, o = {}) {
      const known = router.match('POST', path);
      if (known.found === 'none' || known.route.kind === 'control')
        throw badRequest(
          `failNextRequest: "${path}" is not a service path; use one of ${Object.values(servicePaths).join(', ')}.`,
        );
      if (!Number.isInteger(status) || status < 400 || status > 599)
        throw badRequest(
          `failNextRequest: status must be an HTTP error status from 400 to 599; got ${String(status)}.`,
        );
      const times = o.times ?? 1;
      if (!Number.isInteger(times) || times < 1)
        throw badRequest(`failNextRequest: times must be a positive integer; got ${String(times)}.`);
      failures.arm(path, status, o.message, times);
    },
    async warmUp(options) {
      await (await engine.load()).warmUp(options);
    },
  };
}
