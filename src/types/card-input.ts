/**
 * Hand-written refinements of the generated input types for rule 3 of the service's process-payment rules:
 * `credit_card` carries either the full card details or only a `card_account_uid` from an earlier card fee
 * calculation. The generated types, made from the SDL, can only say "all details required".
 *
 * @module
 */
import type * as Current from '../../generated/current/graphql.ts';
import type * as Legacy from '../../generated/legacy/graphql.ts';

type Never<T> = { [K in keyof T]?: never };

/** Full card details (current guide); `card_account_uid` may ride along. */
export type CardDetails = Current.CreditCardInput;

/** A card known to the service, named only by the `card_account_uid` from `paymentCreditCardFeeCalc`. */
export type CardAccountReference = { card_account_uid: string } & Never<
  Omit<Current.CreditCardInput, 'card_account_uid'>
>;

/** The card of a payment: full details, or a reference to a card account (current guide). */
export type CreditCardInput = CardDetails | CardAccountReference;

/** Input of `processPaymentRequest` (current guide), accepting either form of card. */
export type ProcessPaymentRequestInput = Omit<Current.ProcessPaymentRequestInput, 'credit_card'> & {
  credit_card: CreditCardInput;
};

/** Variables of the current guide's `ProcessPaymentRequest` operation, accepting either form of card. */
export type ProcessPaymentRequestMutationVariables = { input: ProcessPaymentRequestInput };

/** Full card details (legacy guide, card number in `number`). */
export type LegacyCardDetails = Legacy.CreditCardInput;

/** A card account reference in the legacy guide's card input. */
export type LegacyCardAccountReference = { card_account_uid: string } & Never<
  Omit<Legacy.CreditCardInput, 'card_account_uid'>
>;

/** The card of a payment in the legacy guide: full details, or a reference to a card account. */
export type LegacyCreditCardInput = LegacyCardDetails | LegacyCardAccountReference;

/** Input of `processPaymentRequest` in the legacy guide (`ProcessPaymentInput`), accepting either form of card. */
export type ProcessPaymentInput = Omit<Legacy.ProcessPaymentInput, 'credit_card'> & {
  credit_card: LegacyCreditCardInput;
};

/** Variables of the legacy guide's `ProcessPaymentRequest` operation, accepting either form of card. */
export type LegacyProcessPaymentRequestMutationVariables = { input: ProcessPaymentInput };
