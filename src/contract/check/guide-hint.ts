/**
 * A hint for names of the other guide: when a query or its variables use a name the checked guide lacks and the
 * other guide has (`total`, `card_location`, `number`, `ProcessPaymentInput`, a contact's `reference_no`), the
 * mismatch says which guide the name belongs to and how to fix it. graphql-js's messages name the field and the
 * type, so the hint reads them instead of guessing from a list.
 *
 * @module
 */
import { type GraphQLSchema, isInputObjectType, isObjectType } from 'graphql/index.js';
import type { GuideName } from './graphql-schemas.ts';

/** Whether `schema` has the type, or the field of the type, a validation message names. */
function hasName(schema: GraphQLSchema, message: string): string | undefined {
  const field = /(?:Cannot query field|Field) "([^"]+)" (?:on|is not defined by) type "([^"]+)"/.exec(message);
  if (field) {
    const [, name = '', typeName = ''] = field;
    const type = schema.getType(typeName);
    return (isObjectType(type) || isInputObjectType(type)) && name in type.getFields() ? name : undefined;
  }
  const type = /Unknown type "([^"]+)"/.exec(message);
  return type?.[1] && schema.getType(type[1]) ? type[1] : undefined;
}

/**
 * The hint for a message of a check against `guide`, or undefined when the other guide lacks the name too;
 * `subject` names what is checked (a pact for `verify`, traffic for the checker).
 *
 * @example
 * guideHint('Cannot query field "total" on type "PaymentGatewayFee".', 'current', legacySchema);
 * // ' "total" is a name of the legacy guide: use the current guide's name, or check this pact with --guide legacy'
 */
export function guideHint(
  message: string,
  guide: GuideName,
  otherSchema: GraphQLSchema,
  subject = 'this pact',
): string | undefined {
  const name = hasName(otherSchema, message);
  if (!name) return undefined;
  const other: GuideName = guide === 'current' ? 'legacy' : 'current';
  return ` "${name}" is a name of the ${other} guide: use the ${guide} guide's name, or check ${subject} with --guide ${other}`;
}
