// Shape checks of recorded GraphQL interactions against a schema: response examples against the selection set,
// variables against the input types, error bodies against spec 7.2 and 7.3.
import {
  coerceInputValue,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getDirectiveValues,
  getNullableType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type SelectionSetNode,
  typeFromAST,
  type VariableDefinitionNode,
} from 'graphql';

/**
 * Problems of an example value against a selection set on a parent type: missing or extra fields, wrong scalar
 * types, nulls in non-null positions, empty lists (an example must show an element to show its shape).
 */
export function shapeProblems(
  schema: GraphQLSchema,
  type: GraphQLOutputType,
  selectionSet: SelectionSetNode | undefined,
  value: unknown,
  path: string,
): string[] {
  if (isNonNullType(type)) {
    if (value === null || value === undefined) return [`${path}: null in a non-null position`];
    return shapeProblems(schema, type.ofType, selectionSet, value, path);
  }
  if (value === null) return [];
  if (isListType(type)) {
    if (!Array.isArray(value)) return [`${path}: expected a list`];
    if (value.length === 0) return [`${path}: an example list needs an element`];
    return value.flatMap((v, i) => shapeProblems(schema, type.ofType, selectionSet, v, `${path}[${i}]`));
  }
  if (isScalarType(type)) {
    const ok =
      type.name === 'Float'
        ? typeof value === 'number'
        : type.name === 'Int'
          ? Number.isInteger(value)
          : type.name === 'Boolean'
            ? typeof value === 'boolean'
            : type.name === 'String' || type.name === 'ID'
              ? typeof value === 'string'
              : typeof value === 'object';
    return ok ? [] : [`${path}: ${JSON.stringify(value)} is not a ${type.name}`];
  }
  if (!isObjectType(type) || !selectionSet) return [`${path}: unsupported type ${String(type)}`];
  if (typeof value !== 'object' || Array.isArray(value)) return [`${path}: expected an object`];
  const record = value as Record<string, unknown>;
  const problems: string[] = [];
  const selected = new Set<string>();
  for (const selection of selectionSet.selections) {
    if (selection.kind !== 'Field') return [`${path}: fragments are not used by the kit's operations`];
    const key = selection.alias?.value ?? selection.name.value;
    selected.add(key);
    if (selection.name.value === '__typename') continue;
    const field = type.getFields()[selection.name.value];
    if (!field) problems.push(`${path}.${key}: not a field of ${type.name}`);
    else if (!(key in record)) problems.push(`${path}.${key}: missing from the example`);
    else problems.push(...shapeProblems(schema, field.type, selection.selectionSet, record[key], `${path}.${key}`));
  }
  for (const key of Object.keys(record)) if (!selected.has(key)) problems.push(`${path}.${key}: not selected`);
  return problems;
}

/**
 * Problems of recorded variables against the schema's input types. A missing field marked
 * `@serverRequired(unlessPresent: "x")` is fine when its sibling `x` is given: that is how the schema writes spec
 * 4.6 rule 3 (a `card_account_uid` in place of the card details).
 */
export function variableProblems(
  schema: GraphQLSchema,
  definitions: readonly VariableDefinitionNode[],
  variables: Record<string, unknown>,
): string[] {
  const serverRequired = schema.getDirective('serverRequired');
  const problems: string[] = [];
  for (const definition of definitions) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type as never) as GraphQLInputType | undefined;
    if (!type) {
      problems.push(`$${name}: unknown type`);
      continue;
    }
    coerceInputValue(variables[name], type, (path, invalid, error) => {
      const missing = /^Field "(\w+)" of required type .* was not provided\.$/.exec(error.message)?.[1];
      let at: GraphQLInputType = type;
      for (const key of path) {
        const t = getNullableType(at);
        if (isListType(t)) at = t.ofType;
        else if (isInputObjectType(t) && typeof key === 'string' && t.getFields()[key]) at = t.getFields()[key]!.type;
      }
      const parent = getNullableType(at);
      if (missing && serverRequired && isInputObjectType(parent)) {
        const node = parent.getFields()[missing]?.astNode;
        const unless = node ? getDirectiveValues(serverRequired, node)?.unlessPresent : undefined;
        const given = invalid as Record<string, unknown> | null;
        if (typeof unless === 'string' && given?.[unless] !== undefined && given[unless] !== null) return;
      }
      problems.push(`$${[name, ...path].join('.')}: ${error.message}`);
    });
  }
  return problems;
}

/** Problems of a recorded GraphQL error body against spec 7.2 (reason) and 7.3 (validation). */
export function errorBodyProblems(body: Record<string, unknown>): string[] {
  const errors = body.errors;
  if (!Array.isArray(errors) || errors.length === 0) return ['errors: expected a non-empty list'];
  return errors.flatMap((e, i) => {
    const at = `errors[${i}]`;
    if (typeof e?.message !== 'string') return [`${at}.message: expected a string`];
    const ext = e.extensions as Record<string, unknown> | undefined;
    if (!ext) return [`${at}.extensions: missing`];
    if (ext.category === 'validation') {
      const validation = ext.validation as Record<string, unknown> | undefined;
      const entries = Object.entries(validation ?? {});
      if (entries.length === 0) return [`${at}.extensions.validation: expected an object with input paths`];
      return entries.flatMap(([key, messages]) =>
        Array.isArray(messages) && messages.length > 0 && messages.every((m) => typeof m === 'string')
          ? []
          : [`${at}.extensions.validation["${key}"]: expected a non-empty list of strings`],
      );
    }
    return typeof ext.reason === 'string' && /^[A-Z][A-Z0-9_]*$/.test(ext.reason)
      ? []
      : [`${at}.extensions: expected reason (an ERROR_CODE string) or category "validation"`];
  });
}
