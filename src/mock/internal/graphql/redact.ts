/**
 * Keeps card numbers and CVVs out of graphql-js's own messages. Its coercion and validation messages quote the
 * offending value, which can hold the whole payment input (`card_number: "4111…"`, `cvv: "739"`). Instead of
 * rewriting those messages, the engine asks graphql-js again with a redacted copy of the request, so the wording
 * stays graphql-js's and no secret can be in it: card numbers keep their first 6 and last 4 digits (as the request
 * log does), CVVs are replaced whole. The copy keeps every value's kind (a string stays a string, a number a
 * number), so graphql-js finds the same problems in it. This runs only for requests that already failed.
 *
 * The journal's summary of a request's variables (`summarizeVariables`, in engine-loader.ts) masks the same way,
 * on every request, without graphql-js.
 *
 * @module
 */
import { type DocumentNode, Kind, type ObjectFieldNode, type ValueNode, visit } from 'graphql/index.js';
import { maskCardNumber, maskDigits } from '../../../contract/card-masking.ts';
import { cardNumberFields } from '../../../contract/guides.ts';

const cvvField = 'cvv';
/** What a CVV is replaced with: nothing of its digits or length is left. */
export const redactedCvv = '***';

// Input positions are at most a few levels deep and graphql-js prints values at most 3 levels deep, so below this
// depth the original values are kept as they are (and a hostile, deeply nested body is not copied).
const maxRedactionDepth = 32;

type Secret = 'card' | 'cvv' | undefined;

function secretOf(key: string): Secret {
  if (key === cvvField) return 'cvv';
  return cardNumberFields.has(key) ? 'card' : undefined;
}

function redactValue(value: unknown, secret: Secret, depth: number): unknown {
  if (secret !== undefined) {
    if (typeof value === 'string') return secret === 'cvv' ? redactedCvv : maskCardNumber(value);
    if (typeof value === 'number') return 0;
  }
  if (typeof value !== 'object' || value === null || depth >= maxRedactionDepth) return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secret, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = redactValue(v, secret ?? secretOf(key), depth + 1);
  return out;
}

/**
 * A copy of request variables with every card number masked and every CVV replaced, at any depth (anything under
 * a `card_number`, `number` or `cvv` key). Numbers there become 0, so a wrong type is still reported as one.
 *
 * @example
 * redactVariables({ input: { credit_card: { card_number: '4111111111111111', cvv: '739' } } })
 * // { input: { credit_card: { card_number: '411111******1111', cvv: '***' } } }
 */
export function redactVariables(variables: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return redactValue(variables, undefined, 0) as Record<string, unknown>;
}

function redactNode(node: ValueNode, secret: Exclude<Secret, undefined>): ValueNode {
  switch (node.kind) {
    case Kind.STRING:
      return { ...node, value: secret === 'cvv' ? redactedCvv : maskCardNumber(node.value), block: false };
    case Kind.INT:
    case Kind.FLOAT:
      return { ...node, value: '0' };
    case Kind.ENUM:
      return { ...node, value: secret === 'cvv' ? 'REDACTED' : maskCardNumber(node.value) };
    case Kind.LIST:
      return { ...node, values: node.values.map((v) => redactNode(v, secret)) };
    case Kind.OBJECT:
      return { ...node, fields: node.fields.map((f) => ({ ...f, value: redactNode(f.value, secret) })) };
    default:
      return node;
  }
}

/**
 * A copy of a document whose inline card numbers and CVVs (values of `card_number`, `number` or `cvv` object
 * fields) are redacted, keeping each value's kind and location, for validation messages. The original is returned
 * when it has none.
 */
export function redactDocument(document: DocumentNode): DocumentNode {
  return visit(document, {
    ObjectField(node: ObjectFieldNode) {
      const secret = secretOf(node.name.value);
      return secret === undefined ? undefined : { ...node, value: redactNode(node.value, secret) };
    },
  });
}

// A quoted run of digits in a syntax error ("Expected Name, found String "739"."): possibly a CVV.
const quotedDigits = /"\d{3,}"/g;

/**
 * The last guard on a message graphql-js wrote: masks any card-number-like digit run (as the request log does)
 * and, in syntax errors, any quoted run of digits, which could be a CVV out of place.
 */
export function scrubMessage(message: string, syntaxError = false): string {
  const masked = maskDigits(message);
  return syntaxError ? masked.replace(quotedDigits, `"${redactedCvv}"`) : masked;
}
