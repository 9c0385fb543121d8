/**
 * The error answers of the GraphQL endpoint, as a pact expects them or the service sends them: spec 7.2
 * (`{ errors: [{ message, extensions: { reason } }] }`) and 7.3 (`extensions.category = "validation"` with `extensions.validation` mapping a dotted input
 * path to messages). A 7.3 key must name an input position the operation's root field really has, in the guide the
 * exchange speaks (`input.contact.reference_no` exists only in the legacy guide).
 *
 * @module
 */
import { type GraphQLField, type GraphQLInputType, getNamedType, isInputObjectType } from 'graphql/index.js';
import { isPlainObject } from '../../internal/plain-object.ts';
import { errorShapeText, validationCategory } from '../error-shapes.ts';
import type { Finding } from './finding.ts';
import { describeValue } from './value-kind.ts';
import type { ValuePath } from './value-path.ts';

/** The 7.2 shape, as the reports name it. */
export const SPEC_72 = errorShapeText.graphql;
/** The 7.3 shape, as the reports name it. */
export const SPEC_73 = errorShapeText.validation;

/** Whether a dotted input path (`input.credit_card.expiry_year`) exists below the root field's arguments. */
function inputPathExists(field: GraphQLField<unknown, unknown>, dotted: string): boolean {
  const [first, ...rest] = dotted.split('.');
  const argument = field.args.find((a) => a.name === first);
  if (!argument) return false;
  let type: GraphQLInputType = argument.type;
  for (const name of rest) {
    const named = getNamedType(type);
    if (!isInputObjectType(named)) return false;
    const next = named.getFields()[name];
    if (!next) return false;
    type = next.type;
  }
  return true;
}

/**
 * Checks an `errors` list against the spec's error shapes. `rootField` is the operation's root field in
 * the exchange's guide, when the query named one; `otherRootField` the same field in the other guide, for a request
 * that used names of both (a key may then name an input path of either).
 *
 * @example
 * checkErrorShape(body.errors, schema.getMutationType()?.getFields().processPaymentRequest, 'schema.graphql', out);
 */
export function checkErrorShape(
  errors: unknown,
  rootField: GraphQLField<unknown, unknown> | undefined,
  source: string,
  out: Finding[],
  otherRootField?: GraphQLField<unknown, unknown>,
): void {
  const add = (path: ValuePath, message: string, expected: string) => out.push({ path, message, expected });
  if (!Array.isArray(errors) || errors.length === 0) {
    add(['errors'], `${describeValue(errors)} where a non-empty list of errors belongs`, SPEC_72);
    return;
  }
  errors.forEach((error, i) => {
    const at: ValuePath = ['errors', i];
    if (!isPlainObject(error)) {
      add(at, `${describeValue(error)} where an error object belongs`, SPEC_72);
      return;
    }
    if (typeof error.message !== 'string')
      add([...at, 'message'], `${describeValue(error.message)} as the message`, SPEC_72);
    const extensions = error.extensions;
    if (!isPlainObject(extensions)) {
      add([...at, 'extensions'], `${describeValue(extensions)} where the extensions object belongs`, SPEC_72);
      return;
    }
    if (extensions.category === undefined && extensions.validation === undefined) {
      if (typeof extensions.reason !== 'string')
        add([...at, 'extensions', 'reason'], `${describeValue(extensions.reason)} as the reason code`, SPEC_72);
      return;
    }
    if (extensions.category !== validationCategory)
      add([...at, 'extensions', 'category'], `${describeValue(extensions.category)} as the category`, SPEC_73);
    const validation = extensions.validation;
    if (!isPlainObject(validation)) {
      add(
        [...at, 'extensions', 'validation'],
        `${describeValue(validation)} where the path-to-messages object belongs`,
        SPEC_73,
      );
      return;
    }
    for (const [key, messages] of Object.entries(validation)) {
      const where: ValuePath = [...at, 'extensions', 'validation', key];
      if (!Array.isArray(messages) || messages.some((m) => typeof m !== 'string'))
        add(where, `${describeValue(messages)} where a list of message strings belongs`, SPEC_73);
      if (rootField && !inputPathExists(rootField, key) && !(otherRootField && inputPathExists(otherRootField, key)))
        add(
          where,
          `"${key}" is not an input path of ${rootField.name}`,
          `a dotted path through ${rootField.name}'s arguments in ${source}`,
        );
    }
  });
}
