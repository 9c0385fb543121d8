/**
 * Whether a GraphQL answer's `data` is what its selection set asks for: every key is a selected field, every
 * selected non-null field is there, nesting, list against object and scalar types agree with the schema. `verify`
 * walks a pact's expected answer with it (adding its matcher checks through `positionProblems`), the checker a live
 * answer: one walk for both.
 *
 * @module
 */
import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isCompositeType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type OperationTypeNode,
  type SelectionSetNode,
} from 'graphql/index.js';
import type { Finding } from './finding.ts';
import { describeValue, type PositionType, type ValueKind, valueFits } from './value-kind.ts';
import type { ValuePath } from './value-path.ts';

/** What the response walk needs besides the value. */
export interface ResponseContext {
  readonly schema: GraphQLSchema;
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  /**
   * Extra problems at each position (verify's matchers against the schema's type there); none when omitted.
   */
  readonly positionProblems?: ((path: ValuePath, position: PositionType, value: unknown) => string[]) | undefined;
  /** The guide's name for the reports (`schema.graphql (current guide)`). */
  readonly source: string;
  /** What the walked value is, for the reports: `the response` (default), `the expected response` for a pact. */
  readonly subject?: string | undefined;
  /** Where the findings go. */
  readonly out: Finding[];
}

/** A selected field: its response key, definition and the merged sub-selections of every occurrence. */
interface SelectedField {
  readonly definition: GraphQLField<unknown, unknown> | undefined;
  readonly name: string;
  readonly selections: SelectionSetNode[];
}

const scalarKinds: Readonly<Record<string, ValueKind>> = {
  Int: 'integer',
  Float: 'number',
  String: 'string',
  Boolean: 'boolean',
  ID: 'string',
};

/** What the walk asks of a position's type, read once per type object (graphql-js's `isListType` and friends are
 * slow outside production mode, and `String(type)` builds its label anew each time). */
interface TypeFacts {
  readonly position: PositionType;
  /** The type without its non-null wrapper. */
  readonly inner: GraphQLOutputType;
  readonly list: boolean;
  readonly composite: boolean;
  readonly enum: boolean;
}

const typeFacts = new WeakMap<GraphQLOutputType, TypeFacts>();

function factsOf(type: GraphQLOutputType): TypeFacts {
  let facts = typeFacts.get(type);
  if (facts) return facts;
  const inner = isNonNullType(type) ? type.ofType : type;
  const list = isListType(inner);
  const composite = !list && isCompositeType(inner);
  const isEnum = !list && !composite && isEnumType(inner);
  const kind: ValueKind = list
    ? 'list'
    : composite
      ? 'object'
      : isEnum
        ? 'string'
        : (scalarKinds[(inner as { name: string }).name] ?? 'any');
  facts = { position: { kind, nullable: inner === type, label: String(type) }, inner, list, composite, enum: isEnum };
  typeFacts.set(type, facts);
  return facts;
}

/** Fields collected for one selection set on one type: the same query's answers are walked again and again. */
const collected = new WeakMap<SelectionSetNode, WeakMap<GraphQLCompositeType, Map<string, SelectedField>>>();

/** {@link collectFields} for a single selection set, remembered (fragments come from the set's own document). */
function fieldsOf(
  context: ResponseContext,
  type: GraphQLCompositeType,
  selectionSets: readonly SelectionSetNode[],
): ReadonlyMap<string, SelectedField> {
  const only = selectionSets.length === 1 ? selectionSets[0] : undefined;
  if (!only) return collectFields(context, type, selectionSets);
  let byType = collected.get(only);
  if (!byType) {
    byType = new WeakMap();
    collected.set(only, byType);
  }
  let fields = byType.get(type);
  if (!fields) {
    fields = collectFields(context, type, selectionSets);
    byType.set(type, fields);
  }
  return fields;
}

/** Collects the fields a selection set asks of `type`, following fragments whose condition `type` satisfies. */
function collectFields(
  context: ResponseContext,
  type: GraphQLCompositeType,
  selectionSets: readonly SelectionSetNode[],
  into = new Map<string, SelectedField>(),
): Map<string, SelectedField> {
  const applies = (condition: string | undefined) => {
    if (condition === undefined || condition === type.name) return true;
    const conditionType = context.schema.getType(condition);
    return conditionType !== undefined && isAbstractType(conditionType) && isObjectType(type)
      ? context.schema.isSubType(conditionType, type)
      : false;
  };
  for (const set of selectionSets) {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        const definition = isObjectType(type) || 'getFields' in type ? fieldOf(type, selection) : undefined;
        const existing = into.get(key);
        const selections = selection.selectionSet ? [selection.selectionSet] : [];
        if (existing) existing.selections.push(...selections);
        else into.set(key, { definition, name: selection.name.value, selections });
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (applies(selection.typeCondition?.name.value)) collectFields(context, type, [selection.selectionSet], into);
      } else {
        const fragment = context.fragments.get(selection.name.value);
        if (fragment && applies(fragment.typeCondition.name.value))
          collectFields(context, type, [fragment.selectionSet], into);
      }
    }
  }
  return into;
}

function fieldOf(type: GraphQLCompositeType, node: FieldNode): GraphQLField<unknown, unknown> | undefined {
  if (node.name.value === '__typename') return undefined;
  return 'getFields' in type ? type.getFields()[node.name.value] : undefined;
}

function mismatch(context: ResponseContext, path: ValuePath, message: string, expected: string): void {
  context.out.push({ path, message, expected });
}

/**
 * Walks an expected value against its GraphQL output type and the selection sets that asked for it.
 *
 * @example
 * checkSelection(context, body.data, schema.getQueryType()!, [operation.selectionSet], ['data']);
 */
export function checkSelection(
  context: ResponseContext,
  value: unknown,
  type: GraphQLOutputType,
  selections: readonly SelectionSetNode[],
  path: ValuePath,
): void {
  const facts = factsOf(type);
  const here = facts.position;
  for (const problem of context.positionProblems?.(path, here, value) ?? [])
    mismatch(context, path, problem, `${here.label} in ${context.source}`);
  if (value === null || value === undefined) {
    if (!here.nullable) mismatch(context, path, 'null where the field cannot be null', `non-null ${here.label}`);
    return;
  }
  const inner = facts.inner;
  if (facts.list && isListType(inner)) {
    if (!Array.isArray(value)) {
      mismatch(
        context,
        path,
        `${describeValue(value)} where the schema has a list`,
        `${here.label} in ${context.source}`,
      );
      return;
    }
    value.forEach((item, i) => {
      checkSelection(context, item, inner.ofType, selections, [...path, i]);
    });
    return;
  }
  if (Array.isArray(value)) {
    mismatch(
      context,
      path,
      `a list where the schema has ${facts.composite ? 'an object' : 'a single value'}`,
      `${here.label} in ${context.source}`,
    );
    return;
  }
  if (!facts.composite) {
    if (!valueFits(here.kind, value))
      mismatch(context, path, `wrong scalar type: ${describeValue(value)}`, `${here.label} in ${context.source}`);
    else if (facts.enum && isEnumType(inner) && !inner.getValue(String(value)))
      mismatch(
        context,
        path,
        `${describeValue(value)} is not a value of enum ${inner.name}`,
        `one of ${inner
          .getValues()
          .map((v) => v.name)
          .join(', ')}`,
      );
    return;
  }
  if (typeof value !== 'object') {
    mismatch(
      context,
      path,
      `${describeValue(value)} where the schema has an object`,
      `${here.label} in ${context.source}`,
    );
    return;
  }
  checkObject(context, value as Record<string, unknown>, inner as GraphQLCompositeType, selections, path);
}

function checkObject(
  context: ResponseContext,
  value: Record<string, unknown>,
  type: GraphQLCompositeType,
  selections: readonly SelectionSetNode[],
  path: ValuePath,
): void {
  // An abstract type answers with one of its object types: the example's __typename says which, when given.
  const typename = typeof value.__typename === 'string' ? value.__typename : undefined;
  const concrete = typename && isAbstractType(type) ? context.schema.getType(typename) : undefined;
  const objectType = concrete && isObjectType(concrete) ? concrete : type;
  const fields = fieldsOf(context, objectType, selections);
  for (const [key, item] of Object.entries(value)) {
    const selected = fields.get(key);
    if (!selected) {
      const known = 'getFields' in objectType && key in objectType.getFields();
      mismatch(
        context,
        [...path, key],
        known ? `field "${key}" is not selected by the query` : `unknown field "${key}"`,
        known
          ? `only the selected fields of ${objectType.name} (${[...fields.keys()].join(', ')})`
          : `a field of ${objectType.name} in ${context.source}: ${fieldNames(objectType)}`,
      );
      continue;
    }
    if (selected.name === '__typename') {
      if (typeof item !== 'string')
        mismatch(context, [...path, key], `wrong scalar type: ${describeValue(item)}`, 'String! (__typename)');
      continue;
    }
    if (!selected.definition) continue; // Reported by query validation already.
    checkSelection(context, item, selected.definition.type, selected.selections, [...path, key]);
  }
  for (const [key, selected] of fields) {
    if (key in value || !selected.definition || !isNonNullType(selected.definition.type)) continue;
    mismatch(
      context,
      [...path, key],
      `non-null field "${selected.name}" is selected but missing from ${context.subject ?? 'the response'}`,
      `${String(selected.definition.type)} (the service always answers it)`,
    );
  }
}

function fieldNames(type: GraphQLCompositeType): string {
  return 'getFields' in type ? Object.keys(type.getFields()).join(', ') : String(getNamedType(type));
}

/** The root type of an operation, as an output type (`data` itself may be null after an error). */
export function rootType(schema: GraphQLSchema, operation: OperationTypeNode): GraphQLOutputType | undefined {
  return schema.getRootType(operation) ?? undefined;
}
