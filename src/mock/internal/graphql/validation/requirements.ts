/**
 * The requirements the wire schema takes out of the types (wire-schema.ts collects them from `@serverRequired`) and
 * the validator checks instead: kept beside the validator that reads them, so the validator imports nothing from the
 * GraphQL folder above it.
 *
 * @module
 */

/** One input position the service requires, checked by the validator instead of the type system. */
export interface Requirement {
  /** Field or argument name. */
  readonly name: string;
  /** Sibling field whose presence lifts the requirement (from `@serverRequired(unlessPresent:)`). */
  readonly unlessPresent: string | undefined;
}

/** An input position holding an input object, which the validator descends into. */
export interface NestedInput {
  /** Field or argument name. */
  readonly name: string;
  /** Name of the input object type. */
  readonly type: string;
}

/** What the validator checks for the fields of one input object type, or the arguments of one root field. */
export interface InputRequirements {
  readonly required: readonly Requirement[];
  readonly nested: readonly NestedInput[];
}

/** Requirement metadata of one wire schema. */
export interface WireRequirements {
  /** Input object type name → its required and nested fields. */
  readonly inputTypes: ReadonlyMap<string, InputRequirements>;
  /** `Type.field` of a root field (for example `Mutation.processPaymentRequest`) → its arguments. */
  readonly fieldArguments: ReadonlyMap<string, InputRequirements>;
}
