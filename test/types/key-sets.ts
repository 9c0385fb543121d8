/**
 * Key-set helpers for the type tests: they turn "which fields are required" into a union that `expectTypeOf` can
 * compare exactly, so a field that turns optional (or a new required one) fails the test.
 *
 * @module
 */

/** Keys of `T` that must be present. */
export type RequiredKeys<T> = { [K in keyof T]-?: Pick<T, K> extends Required<Pick<T, K>> ? K : never }[keyof T];

/** Keys of `T` that may be left out. */
export type OptionalKeys<T> = { [K in keyof T]-?: Pick<T, K> extends Required<Pick<T, K>> ? never : K }[keyof T];
