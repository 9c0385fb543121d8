/**
 * The mock's resolvers: thin, one per root field. Each parses (the wire schema already coerced the types),
 * validates, calls the domain (fees, cards), writes the per-client state and returns. Output objects are built in
 * the generated types' shapes; failures are thrown as {@link GraphqlAnswerError}, which carries its spec-shaped entry.
 *
 * @module
 */
import type { RootFields } from '../../../../generated/root-fields.ts';
import type { Assumptions } from '../../../assumptions.ts';
import { type GraphqlErrorEntry, validationError } from '../../../contract/error-shapes.ts';
import { kitMessage } from '../../../internal/messages.ts';
import type { Clock } from '../domain/clock.ts';
import type { FeeCalculator } from '../domain/fees.ts';
import type { CardAccount, Guide, MockState, StoredPayment } from '../domain/payments.ts';
import type { SeededRandom } from '../domain/random.ts';
import {
  type ValidationRequest,
  validateCardFeeCalcArgs,
  validateCardForValidation,
  validateFeesCalcAmount,
  validatePaymentInput,
} from './validation.ts';
import type { CardLookup, ValidationDeps } from './validation-messages.ts';
import type { ValidatedCard } from './validation-rules.ts';
import type { Wire, WireArgOverrides, WireRequirements, WireResultOverrides } from './wire-schema.ts';

/**
 * An error a resolver throws to answer with a prepared GraphQL error entry (7.2 or 7.3 shape). Its `extensions`
 * are the entry's, so an executor that copies `originalError.extensions` keeps them; the engine prefers `entry`.
 */
export class GraphqlAnswerError extends Error {
  /** The error entry to answer with, exactly. */
  readonly entry: GraphqlErrorEntry;
  /** The entry's extensions, where GraphQL executors look for them. */
  readonly extensions: GraphqlErrorEntry['extensions'];

  constructor(entry: GraphqlErrorEntry) {
    super(entry.message);
    this.name = 'GraphqlAnswerError';
    this.entry = entry;
    this.extensions = entry.extensions;
  }
}

/** Per-request context the engine passes to every resolver. */
export interface ResolverContext {
  /** Client id from the verified access token. */
  readonly clientId: string;
  /** Requesting IP; the default of `ip_address`. */
  readonly ip: string;
  /** Guide chosen for this request. */
  readonly guide: Guide;
}

/** What the resolvers need; built once per engine. */
export interface ResolverDeps {
  readonly assumptions: Assumptions;
  readonly state: MockState;
  readonly clock: Clock;
  readonly random: SeededRandom;
  readonly fees: FeeCalculator;
  /** Requirement metadata of each guide's wire schema. */
  readonly requirements: Readonly<Record<Guide, WireRequirements>>;
  /** Called once per accepted payment, after it is stored. */
  onPaymentAccepted(payment: StoredPayment): void;
}

// A promise only on a shared store (a card account read there); memory answers synchronously.
type Resolver<Args, Result> = (parent: unknown, args: Args, ctx: ResolverContext) => Result | Promise<Result>;

/** One root type's resolvers: one per field of the generated schema, with its wire arguments and answer type. */
type RootResolvers<Fields> = {
  readonly [F in keyof Fields]: Resolver<
    F extends keyof WireArgOverrides ? WireArgOverrides[F] : Wire<Field<Fields, F>['args']>,
    F extends keyof WireResultOverrides ? WireResultOverrides[F] : Field<Fields, F>['result']
  >;
};
type Field<Fields, F extends keyof Fields> = Fields[F] & { readonly args: unknown; readonly result: unknown };

/**
 * The resolver map: a resolver for every root field of schema.graphql (generated/root-fields.ts), so a root field
 * added to the schema without one fails to compile here, naming it.
 */
export type MockResolvers = { readonly [Root in keyof RootFields]: RootResolvers<RootFields[Root]> };

/** Builds the resolvers over one engine's dependencies. */
export function createResolvers(deps: ResolverDeps): MockResolvers {
  const { assumptions, state, clock, random, fees, requirements } = deps;
  const validationDeps: ValidationDeps = { assumptions, state, fees, now: () => clock.now() };
  // paid_at of the latest payment: payments come many to a millisecond under load, so the string of the last
  // millisecond is kept instead of formatting the same date again with toISOString.
  let isoMs = Number.NaN;
  let iso = '';
  const isoOf = (ms: number): string => {
    if (ms !== isoMs) {
      iso = new Date(ms).toISOString();
      isoMs = ms;
    }
    return iso;
  };

  const request = (
    ctx: { readonly guide: Guide; readonly clientId: string },
    cards?: CardLookup,
  ): ValidationRequest => ({
    guide: ctx.guide,
    clientId: ctx.clientId,
    requirements: requirements[ctx.guide],
    deps: cards === undefined ? validationDeps : { ...validationDeps, state: cards },
  });

  /** `carried`: a payment that writes the account itself to a shared store (see `upsertCardAccount`). */
  function accountFor(clientId: string, card: ValidatedCard, carried = false): CardAccount {
    if (card.account) return card.account;
    // details is set whenever account is not: a passed card holds one or the other.
    return state.upsertCardAccount(clientId, card.details!, carried);
  }

  return {
    Query: {
      paymentGatewayFeesCalc(_parent, args) {
        const problems = validateFeesCalcAmount(args.amount, validationDeps);
        if (problems) throw new GraphqlAnswerError(validationError('paymentGatewayFeesCalc', problems));
        return fees.list(args.amount);
      },
      paymentCreditCardFeeCalc: withCardLookup(state, (args, ctx, cards) => {
        const r = validateCardFeeCalcArgs(args, request(ctx, cards));
        if (!r.ok) throw new GraphqlAnswerError(validationError('paymentCreditCardFeeCalc', r.problems));
        const { amount, card } = r.value;
        const account = accountFor(ctx.clientId, card);
        // The card type passed validation against the fee table, so a fee exists.
        const fee = fees.forCardType(amount, card.card_type)!;
        return { ...fee, card_account_uid: account.card_account_uid };
      }),
    },
    Mutation: {
      processPaymentRequest: withCardLookup(state, (args, ctx, cards) => {
        const r = validatePaymentInput(args.input, request(ctx, cards));
        if (!r.ok) throw new GraphqlAnswerError(validationError('processPaymentRequest', r.problems));
        const v = r.value;
        const account = accountFor(ctx.clientId, v.card, true);
        const fee = fees.forCardType(v.amount, v.card.card_type)!.fees;
        const payment: StoredPayment = {
          uuid: random.uuid(),
          clientId: ctx.clientId,
          guide: ctx.guide,
          amount: v.amount,
          payment_gateway_fee: fee,
          paid_at: isoOf(clock.now()),
          status: assumptions.statusNames.processing,
          outcome: v.card.outcome,
          settledOutcome: undefined,
          settledAt: undefined,
          metadata: v.metadata,
          card_account_uid: account.card_account_uid,
          card_type: account.card_type,
          masked_card_number: account.masked_card_number,
          ip_address: v.ip_address ?? ctx.ip,
          vendor_device_id: v.vendor_device_id,
          payment_reference: v.payment_reference,
        };
        const kept = state.addPayment(payment, v.card.account !== undefined, account);
        deps.onPaymentAccepted(payment);
        const answer = {
          amount: payment.amount,
          payment_gateway_fee: payment.payment_gateway_fee,
          paid_at: payment.paid_at,
          status: { name: payment.status },
          uuid: payment.uuid,
        };
        if (kept === undefined) return answer;
        return kept.then((accepted) => {
          if (accepted) return answer;
          // The account it named was evicted by another replica since it was read: refused as an unknown one.
          const again = validatePaymentInput(args.input, request(ctx, { cardAccount: () => undefined }));
          if (!again.ok) throw new GraphqlAnswerError(validationError('processPaymentRequest', again.problems));
          throw new Error(kitMessage('a refused payment passed validation again (a bug).'));
        });
      }),
      creditCardValidation: withCardLookup(state, (args, ctx, cards) => {
        const r = validateCardForValidation(args.input?.credit_card, request(ctx, cards));
        if (r.ok) return { valid: true, card_type: r.value.card_type, message: null };
        const messages: string[] = [];
        for (const list of Object.values(r.problems)) messages.push(...list);
        return { valid: false, card_type: null, message: messages.join(' ') };
      }),
    },
  };
}

/**
 * A resolver that may look a card account up. With the accounts in this process it runs as it is. With a shared
 * store it runs once with a lookup that only notes the uid asked for; validation writes nothing and refuses an
 * unknown account, so when a uid was asked, that first run is dropped, the account is read from the store, and the
 * resolver runs again with it. A request naming no card account runs once and reads nothing more.
 */
function withCardLookup<Args, Result>(
  state: MockState,
  resolve: (args: Args, ctx: ResolverContext, cards: CardLookup | undefined) => Result | Promise<Result>,
): Resolver<Args, Result> {
  const read = state.readSharedCardAccount;
  if (read === undefined) return (_parent, args, ctx) => resolve(args, ctx, undefined);
  return (_parent, args, ctx) => {
    let asked: string | undefined;
    const noting: CardLookup = {
      cardAccount(_clientId, uid) {
        asked ??= uid;
        return undefined;
      },
    };
    let first: Result | Promise<Result>;
    try {
      first = resolve(args, ctx, noting);
    } catch (error) {
      if (asked === undefined) throw error;
    }
    if (asked === undefined) return first!;
    const uid = asked;
    return read(ctx.clientId, uid).then((account) =>
      resolve(args, ctx, { cardAccount: (_clientId, u) => (u === uid ? account : undefined) }),
    );
  };
}
