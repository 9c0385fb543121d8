/**
 * The typed template of a Pact body: the shape of a generated type, where any value may be replaced by a Pact
 * matcher. Field names are checked against the kit's generated types, so a contract cannot name a field the
 * operation does not select.
 *
 * @module
 */
import type { Matcher } from '@pact-foundation/pact';

/**
 * Any Pact matcher or provider-state injected value, whatever its example type.
 *
 * @example
 * const uid: AnyMatcher = MatchersV3.fromProviderState('${cardAccountUid}', 'uid-example');
 */
export type AnyMatcher = Matcher<unknown>;

/**
 * `T` with every value (object, array or scalar) replaceable by a matcher. Arrays take either a template per
 * element or an array matcher such as `MatchersV3.eachLike(...)`.
 *
 * @example
 * import type { PaymentGatewayFeesCalcQuery } from 'payment-contract-kit';
 * import type { Template } from 'payment-contract-kit/pact';
 * const data: Template<PaymentGatewayFeesCalcQuery> = { paymentGatewayFeesCalc: MatchersV3.eachLike(feeEntry()) };
 */
export type Template<T> =
  | AnyMatcher
  | (T extends readonly (infer E)[]
      ? readonly Template<E>[]
      : T extends Record<string, unknown>
        ? { [K in keyof T]: Template<T[K]> }
        : T);
