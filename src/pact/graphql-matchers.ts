/**
 * Matchers for the GraphQL answers of both guides: fee list entries (spec 2.2, current and legacy), the card fee
 * (2.3), the payment (2.7), and the error bodies of 7.2 (authentication and other errors with a reason code) and
 * 7.3 (validation).
 *
 * @module
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { MatchersV3 } from '@pact-foundation/pact';
import { defaultAssumptions } from '../assumptions.ts';
import { graphqlError, validationError } from '../contract/error-shapes.ts';
import type { CreditCardFee, PaymentGatewayFee, ProcessPaymentRequestMutation } from '../index.ts';
import type { PaymentGatewayFee as LegacyPaymentGatewayFee } from '../legacy.ts';
import { exampleValues } from './example-values.ts';
import { errorCode, isoTimestamp, money, text } from './internal/primitives.ts';
import type { AnyMatcher, Template } from './template.ts';

/** A fee entry without `__typename`, as the kit's operations select it. */
type Selected<T> = Omit<T, '__typename'>;

/**
 * One entry of `paymentGatewayFeesCalc` in the current guide (spec 2.2). Money fields are numbers (spec: float,
 * no fixed value); `card_type` is any string (the list of card types is not published).
 *
 * @example
 * graphqlData(PaymentGatewayFeesCalcDocument, { paymentGatewayFeesCalc: MatchersV3.eachLike(feeEntry({ amount: 100 })) })
 */
export function feeEntry(
  example: { amount?: number; fees?: number; total_settlement_amount?: number; card_type?: string } = {},
): Template<Selected<PaymentGatewayFee>> {
  const amount = example.amount ?? 100;
  const fees = example.fees ?? 1.8;
  return {
    amount: money(amount),
    fees: money(fees),
    total_settlement_amount: money(example.total_settlement_amount ?? amount + fees),
    card_type: text(example.card_type ?? exampleValues.cardType),
  };
}

/**
 * One entry of `paymentGatewayFeesCalc` in the legacy guide (spec 2.2, older variant): `total` instead of
 * `total_settlement_amount`, plus `card_location`. Same matcher choices as {@link feeEntry}; `card_location` is any
 * string (its values are not published).
 *
 * @example
 * graphqlData(LegacyPaymentGatewayFeesCalcDocument, { paymentGatewayFeesCalc: MatchersV3.eachLike(legacyFeeEntry()) })
 */
export function legacyFeeEntry(
  example: { amount?: number; fees?: number; total?: number; card_type?: string; card_location?: string } = {},
): Template<Selected<LegacyPaymentGatewayFee>> {
  const amount = example.amount ?? 100;
  const fees = example.fees ?? 1.8;
  return {
    amount: money(amount),
    fees: money(fees),
    total: money(example.total ?? amount + fees),
    card_type: text(example.card_type ?? exampleValues.cardType),
    card_location: text(example.card_location ?? exampleValues.cardLocation),
  };
}

/**
 * The answer of `paymentCreditCardFeeCalc` (spec 2.3), both guides. `card_account_uid` is any string: the spec
 * says string and nothing more (the kit's mock formats it as a uuid, which is its own choice).
 *
 * @example
 * graphqlData(PaymentCreditCardFeeCalcDocument, { paymentCreditCardFeeCalc: creditCardFee({ amount: 100 }) })
 */
export function creditCardFee(
  example: {
    amount?: number;
    fees?: number;
    total_settlement_amount?: number;
    card_account_uid?: string;
    card_type?: string;
  } = {},
): Template<Selected<CreditCardFee>> {
  const amount = example.amount ?? 100;
  const fees = example.fees ?? 1.8;
  return {
    amount: money(amount),
    fees: money(fees),
    total_settlement_amount: money(example.total_settlement_amount ?? amount + fees),
    card_account_uid: text(example.card_account_uid ?? exampleValues.cardAccountUid),
    card_type: text(example.card_type ?? exampleValues.cardType),
  };
}

/**
 * The answer of `processPaymentRequest` (spec 2.7), both guides. `status.name` is the literal `processing` by
 * default: spec sections 3 and 6 name the state a new payment is in. `paid_at` is an ISO 8601 timestamp (the spec
 * gives the form); `uuid` matches the uuid pattern (the field is the payment's uuid); money fields are numbers.
 *
 * @example
 * graphqlData(ProcessPaymentRequestDocument, { processPaymentRequest: payment({ amount: 100, payment_gateway_fee: 1.8 }) })
 */
export function payment(
  example: {
    amount?: number;
    payment_gateway_fee?: number;
    paid_at?: string;
    uuid?: string;
    /** Status name: a literal string, or a matcher. Defaults to the literal `processing`. */
    status?: string | AnyMatcher;
  } = {},
): Template<ProcessPaymentRequestMutation['processPaymentRequest']> {
  return {
    amount: money(example.amount ?? 100),
    payment_gateway_fee: money(example.payment_gateway_fee ?? 1.8),
    paid_at: isoTimestamp(example.paid_at ?? exampleValues.paidAt),
    status: { name: example.status ?? exampleValues.statusProcessing },
    uuid: MatchersV3.uuid(example.uuid ?? exampleValues.paymentUuid),
  };
}

/**
 * A successful GraphQL answer `{ data }` for a typed document: the template is checked against the operation's
 * result type, so it names exactly the fields the shipped operation selects.
 *
 * @example
 * .willRespondWith(200, (b) => b.jsonBody(graphqlData(PaymentCreditCardFeeCalcDocument, {
 *   paymentCreditCardFeeCalc: creditCardFee(),
 * })))
 */
export function graphqlData<TResult, TVariables>(
  _document: TypedDocumentNode<TResult, TVariables>,
  data: Template<TResult>,
): { data: Template<TResult> } {
  return { data };
}

/**
 * The validation error body of spec 7.3 for one root field. `category` is the literal `"validation"` and the
 * dotted input paths are literal keys (the spec fixes both); the messages are any strings (the spec paraphrases
 * them), at least one per path.
 *
 * @param field Root field that failed, such as `processPaymentRequest`.
 * @param validation Dotted input path → an example message for it.
 * @example
 * .willRespondWith(graphqlErrorStatus(), (b) => b.jsonBody(validationErrorBody('processPaymentRequest', {
 *   'input.contact': 'The input.contact field is required.',
 * })))
 */
export function validationErrorBody(field: string, validation: Readonly<Record<string, string>>) {
  // The contract layer's 7.3 builder gives the shape; each literal becomes the matcher the spec allows.
  const entry = validationError(field, {});
  const paths: Record<string, AnyMatcher> = {};
  for (const [path, message] of Object.entries(validation)) paths[path] = MatchersV3.eachLike(text(message));
  return {
    errors: MatchersV3.eachLike({
      message: text(entry.message),
      extensions: { category: entry.extensions.category, validation: paths },
    }),
  };
}

/**
 * A GraphQL error body with a reason code (spec 7.2), such as a missing or expired `x-jwt-token`. The reason is
 * matched by its upper-snake form, with the kit's code as the example: the spec publishes the form
 * (`<ERROR_CODE string>`), not the catalogue, so a literal would fail a provider that names codes differently.
 *
 * @param exampleReason A reason code, such as `defaultAssumptions.reasonCodes.expiredToken`.
 * @example
 * .willRespondWith(graphqlErrorStatus(), (b) => b.jsonBody(authErrorBody(defaultAssumptions.reasonCodes.missingToken)))
 */
export function authErrorBody(exampleReason: string, exampleMessage = 'The x-jwt-token header is missing.') {
  const entry = graphqlError(exampleMessage, exampleReason);
  return {
    errors: MatchersV3.eachLike({
      message: text(entry.message),
      extensions: { reason: errorCode(exampleReason) },
    }),
  };
}

/**
 * HTTP statuses a GraphQL error answer may carry: 200 (GraphQL over HTTP with application/json) or a 4xx.
 *
 * @example
 * expect(graphqlErrorStatuses).toContain(response.status);
 */
export const graphqlErrorStatuses: readonly number[] = [200, 400, 401, 403, 422];

/**
 * The HTTP status of a GraphQL error answer. The spec does not publish it (7.2, 7.3: "not shown"), so the
 * contract accepts 200 and the usual 4xx; the example is the kit's assumption (`graphqlErrorHttpStatus`).
 *
 * @example
 * .willRespondWith(graphqlErrorStatus(), (b) => b.jsonBody(authErrorBody('TOKEN_EXPIRED')))
 */
export function graphqlErrorStatus(example: number = defaultAssumptions.graphqlErrorHttpStatus) {
  return MatchersV3.matchStatus(example, [...graphqlErrorStatuses]);
}
