/**
 * The concrete place of a value inside a JSON document, and how the reports write it: `verify` from a root such as
 * `$` (`$.data.fees[0]`), the checker's drifts without one (`data.fees[0]`, `errors[0].extensions.validation`).
 *
 * @module
 */

/** The concrete place of a value inside a document: property names and array indexes from the root. */
export type ValuePath = readonly (string | number)[];

/**
 * Writes a concrete path from a root such as `$` or `$.variables`; with the root `''` the leading dot is dropped.
 *
 * @example
 * formatPath(['data', 'fees', 0, 'card_type']); // '$.data.fees[0].card_type'
 * formatPath(['errors', 0, 'extensions', 'validation', 'input.contact'], ''); // "errors[0].extensions.validation['input.contact']"
 */
export function formatPath(path: ValuePath, root = '$'): string {
  const text = path.reduce<string>((out, step) => {
    if (typeof step === 'number') return `${out}[${step}]`;
    return /^[A-Za-z_][A-Za-z0-9_]*$/.test(step) ? `${out}.${step}` : `${out}['${step}']`;
  }, root);
  return root === '' && text.startsWith('.') ? text.slice(1) : text;
}
