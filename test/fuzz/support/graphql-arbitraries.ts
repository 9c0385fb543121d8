/**
 * Random GraphQL requests derived from `schema.graphql`: operations of every kind (subscription included, which the
 * schema does not define) over the root fields, with aliases, directives, fragments and selections that are valid or
 * one step off (an unknown field, a missing or extra selection), and arguments given as literals or as variables whose
 * values follow the input types or break them. Plus garbage query text and mutated operation documents.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  buildSchema,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  getNamedType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
} from 'graphql';
import { testCards } from '../../support/mock-internals/domain.ts';
import { hostileValue, RawJson, sentCvvs, toJsonText } from './json-arbitraries.ts';

const root = join(import.meta.dirname, '../../..');
/** The current guide's schema, as the kit publishes it. */
export const schema = buildSchema(readFileSync(join(root, 'schema.graphql'), 'utf8'));

/** The operation documents the kit ships, both guides. */
export const operationDocuments: readonly string[] = ['current', 'legacy'].flatMap((guide) =>
  ['payment-gateway-fees-calc', 'payment-credit-card-fee-calc', 'process-payment-request'].map((name) =>
    readFileSync(join(root, 'operations', guide, `${name}.graphql`), 'utf8'),
  ),
);

type Gen = fc.GeneratorValue;

const cardNumbers = Object.values(testCards).map((c) => c.number);

/** A value for a String field, chosen by the field's name where the name says what it holds. */
function stringFor(g: Gen, name: string): unknown {
  if (g(fc.nat, { max: 9 }) === 0) return g(() => hostileValue);
  switch (name) {
    case 'card_number':
    case 'number':
      return g(fc.constantFrom, ...cardNumbers, '4111111111111112', '1234', '');
    case 'cvv':
      return g(fc.constantFrom, ...sentCvvs);
    case 'expiry_month':
      return g(fc.constantFrom, '12', '01', '13', '1', 'ab');
    case 'expiry_year':
      return g(fc.constantFrom, '39', '20', '3', '2039');
    case 'email':
      return g(fc.constantFrom, 'ada@example.com', 'not-an-email', '');
    default:
      return g(fc.string, { maxLength: 12 });
  }
}

/** A JSON value for an input type: mostly well-formed, sometimes with a wrong type or a field missing or extra. */
function inputValue(g: Gen, type: GraphQLInputType, name: string, depth = 0): unknown {
  if (g(fc.nat, { max: 14 }) === 0) return g(() => hostileValue);
  if (isNonNullType(type)) return inputValue(g, type.ofType, name, depth);
  if (isListType(type))
    return Array.from({ length: g(fc.nat, { max: 2 }) }, () => inputValue(g, type.ofType, name, depth + 1));
  if (isInputObjectType(type)) {
    const out: Record<string, unknown> = {};
    for (const [fieldName, field] of Object.entries(type.getFields())) {
      if (!isNonNullType(field.type) && g(fc.boolean)) continue;
      if (g(fc.nat, { max: 19 }) === 0) continue; // a required field left out
      out[fieldName] = inputValue(g, field.type, fieldName, depth + 1);
    }
    if (g(fc.nat, { max: 19 }) === 0) out[g(fc.string, { maxLength: 8 })] = 'extra';
    return out;
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case 'Float':
        return g(() =>
          fc.oneof(fc.constant(100), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(1.8)),
        );
      case 'Int':
        return g(fc.integer);
      case 'Boolean':
        return g(fc.boolean);
      case 'JSON':
        // Metadata: small, with no card-like digits (the webhook echoes it by design).
        return g(fc.dictionary, fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 10 }), fc.integer()), {
          maxKeys: 3,
        });
      default:
        return stringFor(g, name);
    }
  }
  return null;
}

/** GraphQL literal text of a JSON value (objects with bare keys, strings as JSON strings). */
function literal(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${/^[_A-Za-z][_0-9A-Za-z]*$/.test(k) ? k : 'bad_key'}: ${literal(v)}`)
      .join(', ')}}`;
  if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
  return JSON.stringify(value) ?? 'null';
}

interface DocState {
  vars: { name: string; type: string; value: unknown }[];
  fragments: string[];
}

function directives(g: Gen, state: DocState): string {
  const n = g(fc.nat, { max: 12 });
  if (n > 2) return '';
  if (n === 0) return ` @include(if: ${g(fc.boolean)})`;
  if (n === 1) {
    const name = `v${state.vars.length}`;
    state.vars.push({
      name,
      type: 'Boolean!',
      value: g(() => fc.oneof(fc.boolean(), fc.constant<unknown>('yes'), fc.constant(null))),
    });
    return ` @skip(if: $${name})`;
  }
  return ` @${g(fc.constantFrom, 'deprecated', 'serverRequired', 'unknown', 'include')}`;
}

function selection(g: Gen, type: GraphQLOutputType, state: DocState, depth: number): string {
  const named: GraphQLNamedType = getNamedType(type);
  if (!isObjectType(named)) return g(fc.nat, { max: 19 }) === 0 ? ' { a }' : '';
  if (g(fc.nat, { max: 29 }) === 0) return ''; // a selection left out
  const fields = Object.values(named.getFields());
  // By name: fast-check compares generator arguments, and schema objects are cyclic.
  const picked = g(
    fc.subarray,
    fields.map((f) => f.name),
    { minLength: 1 },
  ).map((n) => named.getFields()[n]!);
  const parts = picked.map((f) => fieldText(g, f, state, depth + 1));
  if (g(fc.nat, { max: 9 }) === 0) parts.push('__typename');
  if (g(fc.nat, { max: 19 }) === 0)
    parts.push(g(fc.constantFrom, 'nope', 'card_number', 'cvv', '__schema { types { name } }'));
  if (g(fc.nat, { max: 19 }) === 0) {
    const name = `F${state.fragments.length}`;
    state.fragments.push(`fragment ${name} on ${named.name} { ${fields[0]!.name} }`);
    parts.push(`...${name}`);
  }
  if (g(fc.nat, { max: 19 }) === 0) parts.push(`... on ${named.name} { ${fields[0]!.name} }`);
  return ` { ${parts.join(' ')} }`;
}

function fieldText(g: Gen, field: GraphQLField<unknown, unknown>, state: DocState, depth: number): string {
  const alias = g(fc.nat, { max: 9 }) === 0 ? `${g(fc.constantFrom, 'a', 'b', 'x_1', field.name)}: ` : '';
  const args: string[] = [];
  for (const arg of field.args) {
    if (g(fc.nat, { max: 14 }) === 0) continue; // an argument left out
    const value = inputValue(g, arg.type, arg.name);
    if (g(fc.boolean)) {
      const name = `v${state.vars.length}`;
      const declared =
        g(fc.nat, { max: 14 }) === 0 ? g(fc.constantFrom, 'String', 'Int!', 'JSON', '[Float]') : String(arg.type);
      state.vars.push({ name, type: declared, value });
      args.push(`${arg.name}: $${name}`);
    } else args.push(`${arg.name}: ${literal(value)}`);
  }
  if (g(fc.nat, { max: 19 }) === 0) args.push(`unknownArg: ${literal(g(() => hostileValue))}`);
  const argText = args.length > 0 ? `(${args.join(', ')})` : '';
  return `${alias}${field.name}${argText}${directives(g, state)}${depth > 4 ? '' : selection(g, field.type, state, depth)}`;
}

/** A GraphQL request body `{ query, variables, operationName? }` derived from the schema. */
export const schemaRequest: fc.Arbitrary<Record<string, unknown>> = fc.gen().map((g) => {
  const kind = g(fc.constantFrom, 'query', 'query', 'mutation', 'mutation', 'subscription', '');
  const rootType = kind === 'mutation' ? schema.getMutationType()! : schema.getQueryType()!;
  const state: DocState = { vars: [], fragments: [] };
  const fields = rootType.getFields();
  const picked = g(fc.subarray, Object.keys(fields), { minLength: 1, maxLength: 2 }).map((n) => fields[n]!);
  const body = picked.map((f) => fieldText(g, f, state, 0)).join(' ');
  const name = g(fc.constantFrom, '', 'Op', 'ProcessPaymentRequest', 'PaymentGatewayFeesCalc');
  const varDefs = state.vars.length > 0 ? `(${state.vars.map((v) => `$${v.name}: ${v.type}`).join(', ')})` : '';
  const head = kind === '' ? '' : `${kind}${name ? ` ${name}` : ''}${varDefs}`;
  const query = `${head} {${body}} ${state.fragments.join(' ')}`.trim();
  const variables = Object.fromEntries(
    state.vars.filter(() => g(fc.nat, { max: 19 }) !== 0).map((v) => [v.name, v.value]),
  );
  const request: Record<string, unknown> = { query, variables };
  if (g(fc.nat, { max: 9 }) === 0) request.operationName = g(fc.constantFrom, name, 'Other', null, 7);
  return request;
});

/** Query text that is mostly not GraphQL: random text, or a shipped document cut, spliced or with bytes changed. */
export const garbageQuery: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 100 }),
  fc
    .tuple(fc.constantFrom(...operationDocuments), fc.nat(), fc.nat(), fc.string({ maxLength: 5 }))
    .map(([doc, a, b, insert]) => {
      const i = a % doc.length;
      return doc.slice(0, i) + insert + doc.slice(i + (b % 4));
    }),
  fc.constantFrom(
    'subscription { __typename }',
    'subscription S { paymentGatewayFeesCalc(amount: 1) { fees } }',
    '{ __schema { types { name fields { name } } } }',
    '{ __type(name: "CreditCardInput") { inputFields { name } } }',
    '{'.repeat(500),
    'query { a }'.repeat(50),
    '#',
    '',
  ),
);

/** JSON text of a schema-derived request (RawJson values written verbatim). */
export const schemaRequestText: fc.Arbitrary<string> = schemaRequest.map(toJsonText);
