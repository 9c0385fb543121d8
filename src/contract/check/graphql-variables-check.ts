/**
 * Whether a GraphQL interaction's `variables` fit the operation's variable definitions, coerced with graphql-js's
 * own `coerceInputValue` so the verdict is the one a GraphQL server gives. Values are never echoed: variables hold
 * card numbers and CVVs.
 *
 * @module
 */
import {
  coerceInputValue,
  type GraphQLInputType,
  type GraphQLSchema,
  getNamedType,
  isInputObjectType,
  isInputType,
  isListType,
  isNonNullType,
  Kind,
  type OperationDefinitionNode,
  typeFromAST,
} from 'graphql/index.js';
import { isPlainObject } from '../../internal/plain-object.ts';
import { maskDigits } from '../card-masking.ts';
import type { Finding } from './finding.ts';

/** graphql-js ends some messages with the offending value (`…: "4111…"`); the reports leave the value out. */
function withoutValue(message: string): string {
  return maskDigits(message.replace(/(cannot represent[^:]*):\s.*$/s, '$1.').replace(/ got invalid value .*?;/s, ':'));
}

type Add = (path: readonly (string | number)[], message: string, expected: string) => void;

/** The `unlessPresent` of a field's `@serverRequired`, `null` without one, undefined when the field has none. */
function serverRequirement(
  astNode:
    | {
        directives?: readonly {
          name: { value: string };
          arguments?: readonly { name: { value: string }; value: { kind: string; value?: unknown } }[];
        }[];
      }
    | undefined
    | null,
): string | null | undefined {
  const directive = astNode?.directives?.find((d) => d.name.value === 'serverRequired');
  if (!directive) return undefined;
  const unless = directive.arguments?.find((a) => a.name.value === 'unlessPresent')?.value;
  return unless?.kind === Kind.STRING ? String(unless.value) : null;
}

/**
 * The positions the service requires with its own validation (`@serverRequired`): a request that expects data must
 * fill them, or the service answers a 7.3 validation error instead. `unlessPresent` lifts the requirement when the
 * named sibling is given (card details beside `card_account_uid`).
 */
function checkServerRequired(
  type: GraphQLInputType,
  value: unknown,
  path: (string | number)[],
  source: string,
  add: Add,
): void {
  if (value === null || value === undefined) return;
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    if (Array.isArray(value))
      value.forEach((item, i) => {
        checkServerRequired(inner.ofType, item, [...path, i], source, add);
      });
    return;
  }
  const named = getNamedType(inner);
  if (!isInputObjectType(named) || !isPlainObject(value)) return;
  for (const field of Object.values(named.getFields())) {
    const unless = serverRequirement(field.astNode);
    const given = value[field.name] !== undefined && value[field.name] !== null;
    if (unless !== undefined && !given && !(unless !== null && value[unless] !== undefined && value[unless] !== null)) {
      add(
        [...path, field.name],
        `${[...path, field.name].join('.')} is missing, so the service answers a validation error (spec 7.3), not data`,
        `${named.name}.${field.name}: ${String(field.type)}${unless ? ` unless ${unless} is given` : ''} in ${source}`,
      );
    }
    if (given) checkServerRequired(field.type, value[field.name], [...path, field.name], source, add);
  }
}

/**
 * Checks `variables` against `operation`'s definitions, coerced as the service's served schema does; when the
 * exchange expects data, also checks the positions the service's own validation requires. Pushes one mismatch
 * finding per problem (paths from the body's root: `variables.amount`).
 *
 * @example
 * checkVariables(guideSchemas('current'), true, operation, { amount: 'ten' }, 'schema.graphql (current guide)', out);
 * // out: variables.amount: Float cannot represent a non numeric value.
 */
export function checkVariables(
  schemas: { readonly published: GraphQLSchema; readonly served: GraphQLSchema },
  expectsData: boolean,
  operation: OperationDefinitionNode,
  variables: unknown,
  source: string,
  out: Finding[],
): void {
  const schema = schemas.served;
  const add: Add = (path: readonly (string | number)[], message: string, expected: string) =>
    out.push({ path: ['variables', ...path], message, expected });
  if (variables !== undefined && variables !== null && !isPlainObject(variables)) {
    add([], 'variables is not an object', 'an object of variable values (spec 2)');
    return;
  }
  const values = variables ?? {};
  const declared = new Set<string>();
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    declared.add(name);
    const type = typeFromAST(schema, definition.type as never);
    if (!type || !isInputType(type)) continue; // Reported by query validation.
    const label = `$${name}: ${String(type)} in ${source}`;
    if (!(name in values)) {
      if (isNonNullType(type) && !definition.defaultValue) add([name], `required variable $${name} is missing`, label);
      continue;
    }
    let coerced = true;
    coerceInputValue(values[name], type, (path, _invalid, error) => {
      coerced = false;
      add([name, ...path], withoutValue(error.message), label);
    });
    const publishedType = typeFromAST(schemas.published, definition.type as never);
    if (expectsData && coerced && publishedType && isInputType(publishedType))
      checkServerRequired(publishedType, values[name], [name], source, add);
  }
  for (const name of Object.keys(values))
    if (!declared.has(name))
      add(
        [name],
        `variable "${name}" is not declared by the operation`,
        `one of the operation's variables (${[...declared].map((d) => `$${d}`).join(', ') || 'none'})`,
      );
}
