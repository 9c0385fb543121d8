/**
 * The wire schema the mock serves, derived from a guide's SDL: every `@serverRequired` input field and argument is
 * made nullable, so that a missing value reaches the validator and is answered in the service's 7.3 shape instead
 * of as a GraphQL coercion error. The requirements removed from the types are collected here, in one place, for
 * the validator, with the types of argument values as the wire schema delivers them to resolvers. Used for both
 * guides.
 *
 * @module
 */
import {
  buildASTSchema,
  type ConstDirectiveNode,
  type DefinitionNode,
  type DocumentNode,
  type FieldDefinitionNode,
  type GraphQLSchema,
  type InputValueDefinitionNode,
  Kind,
  type NamedTypeNode,
  parse,
  type TypeNode,
} from 'graphql/index.js';
import type * as Current from '../../../../generated/current/graphql.ts';
import type * as Legacy from '../../../../generated/legacy/graphql.ts';
import type { FeeListEntry } from '../domain/fees.ts';

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

/** A generated input type as it may arrive on the wire: any field missing or null, recursively. */
export type Wire<T> = {
  [K in keyof T]?: (NonNullable<T[K]> extends Record<string, unknown> ? Wire<NonNullable<T[K]>> : T[K]) | null;
};

/** Card input of either guide on the wire (`card_number` in the current guide, `number` in the legacy one). */
export type WireCreditCardInput = Wire<Current.CreditCardInput> & Wire<Pick<Legacy.CreditCardInput, 'number'>>;

/** Contact input of either guide on the wire (the legacy contact also holds description and reference_no). */
type WireContactInput = Wire<Legacy.ContactInput>;

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

/** Arguments of `paymentCreditCardFeeCalc` on the wire. */
export type WireCardFeeCalcArgs = Omit<Wire<Current.QueryPaymentCreditCardFeeCalcArgs>, 'credit_card' | 'contact'> & {
  credit_card?: WireCreditCardInput | null;
  contact?: WireContactInput | null;
};

/**
 * Root fields whose arguments arrive in another shape than `Wire<generated arguments>` (the resolver table's
 * default): both guides' card and contact fields, the JSON metadata, and a required amount the schema enforces.
 */
export interface WireArgOverrides {
  readonly paymentGatewayFeesCalc: Current.QueryPaymentGatewayFeesCalcArgs;
  readonly paymentCreditCardFeeCalc: WireCardFeeCalcArgs;
  readonly processPaymentRequest: { input?: WirePaymentInput | null };
  readonly creditCardValidation: { input?: { credit_card?: WireCreditCardInput | null } | null };
}

/**
 * Root fields whose answer is wider than the current guide's type (the default): one answer serves both guides, and
 * the engine's result mapping keeps the fields of the requesting guide.
 */
export interface WireResultOverrides {
  readonly paymentGatewayFeesCalc: readonly FeeListEntry[];
}

/** A guide's wire schema with its requirement metadata. */
export interface WireSchema {
  /** The wire schema, built on first read (and once): the requirements alone do not need it. */
  readonly schema: GraphQLSchema;
  readonly requirements: WireRequirements;
  /** The relaxed SDL's document, from which each mock instance builds its own executable schema. */
  readonly document: DocumentNode;
}

const SERVER_REQUIRED = 'serverRequired';

/** Options of every wire schema build: the SDL is generated and tested (see {@link buildWireSchema}). */
export const wireBuildOptions = { assumeValidSDL: true, assumeValid: true } as const;

type Entry = { required: Requirement[]; nested: NestedInput[] };

/** The root operation type names of a schema document: its `schema { }` block, else the default names. */
function rootTypeNames(definitions: readonly DefinitionNode[]): Set<string> {
  const roots = new Set<string>();
  for (const d of definitions)
    if (d.kind === Kind.SCHEMA_DEFINITION || d.kind === Kind.SCHEMA_EXTENSION)
      for (const op of d.operationTypes ?? []) roots.add(op.type.name.value);
  return roots.size > 0 ? roots : new Set(['Query', 'Mutation', 'Subscription']);
}

const namedTypeOf = (type: TypeNode): NamedTypeNode => (type.kind === Kind.NAMED_TYPE ? type : namedTypeOf(type.type));

/**
 * Builds the wire schema of a guide from its SDL, or from the SDL already parsed without locations (the generated
 * documents the mock reads, `generated/schema-documents.ts`). The relaxation is done on the parsed document, before the one
 * schema build: relaxing a built schema (graphql-tools' mapSchema) would build every type a second time, on the
 * way to the mock's first GraphQL answer. The SDL is generated from schema.graphql and checked by the test suite
 * (wire-schema.test.ts validates both guides' wire schemas in full, and holds this walk to the mapSchema one), so
 * it is built without validation: validating it again on every start would only repeat that check on the first
 * /graphql request's time.
 *
 * @example
 * const { schema, requirements } = buildWireSchema(currentSchemaSdl);
 * requirements.inputTypes.get('ContactInput')?.required // [{ name: 'first_name', unlessPresent: undefined }, …]
 */
export function buildWireSchema(sdl: string | DocumentNode): WireSchema {
  const source = typeof sdl === 'string' ? parse(sdl, { noLocation: true }) : sdl;
  const inputTypes = new Map<string, Entry>();
  const fieldArguments = new Map<string, Entry>();
  const inputObjects = new Set<string>();
  for (const d of source.definitions)
    if (d.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION || d.kind === Kind.INPUT_OBJECT_TYPE_EXTENSION)
      inputObjects.add(d.name.value);
  const roots = rootTypeNames(source.definitions);

  const entry = (map: Map<string, Entry>, key: string): Entry => {
    let e = map.get(key);
    if (!e) {
      e = { required: [], nested: [] };
      map.set(key, e);
    }
    return e;
  };

  function relax(value: InputValueDefinitionNode, into: Entry): InputValueDefinitionNode {
    const name = value.name.value;
    const named = namedTypeOf(value.type).name.value;
    if (inputObjects.has(named)) into.nested.push({ name, type: named });
    const directive = value.directives?.find((d) => d.name.value === SERVER_REQUIRED);
    if (!directive) return value;
    into.required.push({ name, unlessPresent: unlessPresentOf(directive) });
    return value.type.kind === Kind.NON_NULL_TYPE ? { ...value, type: value.type.type } : value;
  }

  const relaxField = (typeName: string, field: FieldDefinitionNode): FieldDefinitionNode => {
    const into = entry(fieldArguments, `${typeName}.${field.name.value}`);
    return field.arguments ? { ...field, arguments: field.arguments.map((arg) => relax(arg, into)) } : field;
  };

  const definitions = source.definitions.map((d): DefinitionNode => {
    if (d.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION || d.kind === Kind.INPUT_OBJECT_TYPE_EXTENSION) {
      const into = entry(inputTypes, d.name.value);
      return d.fields ? { ...d, fields: d.fields.map((f) => relax(f, into)) } : d;
    }
    if ((d.kind === Kind.OBJECT_TYPE_DEFINITION || d.kind === Kind.OBJECT_TYPE_EXTENSION) && roots.has(d.name.value))
      return d.fields ? { ...d, fields: d.fields.map((f) => relaxField(d.name.value, f)) } : d;
    return d;
  });
  const document: DocumentNode = { kind: Kind.DOCUMENT, definitions };
  let schema: GraphQLSchema | undefined;
  return {
    get schema() {
      schema ??= buildASTSchema(document, wireBuildOptions);
      return schema;
    },
    requirements: { inputTypes, fieldArguments },
    document,
  };
}

/** The `unlessPresent` argument of one `@serverRequired`, when it is a string. */
function unlessPresentOf(directive: ConstDirectiveNode): string | undefined {
  const arg = directive.arguments?.find((a) => a.name.value === 'unlessPresent');
  return arg?.value.kind === Kind.STRING ? arg.value.value : undefined;
}
