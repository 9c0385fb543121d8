/**
 * Types of argument values as the wire schema delivers them to resolvers: derived from the generated types, with
 * every field optional and nullable, because `@serverRequired` positions are nullable on the wire and reach the
 * validator possibly missing.
 *
 * @module
 */
import type * as Current from '../../../../../generated/current/graphql.ts';
import type * as Legacy from '../../../../../generated/legacy/graphql.ts';
import type { FeeListEntry } from '../../domain/fees.ts';

/** A generated input type as it may arrive on the wire: any field missing or null, recursively. */
export type Wire<T> = {
  [K in keyof T]?: (NonNullable<T[K]> extends Record<string, unknown> ? Wire<NonNullable<T[K]>> : T[K]) | null;
};

/** Card input of either guide on the wire (`card_number` in the current guide, `number` in the legacy one). */
export type WireCreditCardInput = Wire<Current.CreditCardInput> & Wire<Pick<Legacy.CreditCardInput, 'number'>>;

/** Contact input of either guide on the wire (the legacy contact also holds description and reference_no). */
export type WireContactInput = Wire<Legacy.ContactInput>;

/**
 * Payment input of either guide on the wire. `metadata` is the JSON scalar, which accepts any JSON value on the
 * wire (the validator insists on an object), hence unknown.
 */
export type WirePaymentInput = Omit<
  Wire<Current.ProcessPaymentRequestInput>,
  'credit_card' | 'contact' | 'metadata'
> & {
  credit_card?: WireCreditCardInput | null;
  contact?: WireContactInput | null;
  metadata?: unknown;
};

/** Arguments of `processPaymentRequest` on the wire. */
export type WireProcessPaymentArgs = { input?: WirePaymentInput | null };

/** Arguments of `paymentCreditCardFeeCalc` on the wire. */
export type WireCardFeeCalcArgs = Omit<Wire<Current.QueryPaymentCreditCardFeeCalcArgs>, 'credit_card' | 'contact'> & {
  credit_card?: WireCreditCardInput | null;
  contact?: WireContactInput | null;
};

/** Arguments of `paymentGatewayFeesCalc` on the wire. */
export type WireFeesCalcArgs = Current.QueryPaymentGatewayFeesCalcArgs;

/** Arguments of the work-in-progress `creditCardValidation` on the wire. */
export type WireCardValidationArgs = { input?: { credit_card?: WireCreditCardInput | null } | null };

/**
 * Root fields whose arguments arrive in another shape than `Wire<generated arguments>` (the resolver table's
 * default): both guides' card and contact fields, the JSON metadata, and a required amount the schema enforces.
 */
export interface WireArgOverrides {
  readonly paymentGatewayFeesCalc: WireFeesCalcArgs;
  readonly paymentCreditCardFeeCalc: WireCardFeeCalcArgs;
  readonly processPaymentRequest: WireProcessPaymentArgs;
  readonly creditCardValidation: WireCardValidationArgs;
}

/**
 * Root fields whose answer is wider than the current guide's type (the default): one answer serves both guides, and
 * the engine's result mapping keeps the fields of the requesting guide.
 */
export interface WireResultOverrides {
  readonly paymentGatewayFeesCalc: readonly FeeListEntry[];
}
