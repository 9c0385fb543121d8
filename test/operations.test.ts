import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildSchema,
  type DocumentNode,
  type GraphQLSchema,
  getVariableValues,
  type OperationDefinitionNode,
  parse,
  print,
  type SelectionSetNode,
  validate,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { testCardNumbers } from '../src/test-values.ts';

const root = join(import.meta.dirname, '..');
type Guide = 'current' | 'legacy';

const schemas: Record<Guide, GraphQLSchema> = {
  current: buildSchema(readFileSync(join(root, 'schema.graphql'), 'utf8')),
  legacy: buildSchema(readFileSync(join(root, 'generated/legacy/schema.graphql'), 'utf8')),
};

/** Every operation document of one guide, by file name. */
function documents(guide: Guide): Map<string, DocumentNode> {
  const dir = join(root, 'operations', guide);
  return new Map(
    readdirSync(dir)
      .filter((f) => f.endsWith('.graphql'))
      .sort()
      .map((f) => [f, parse(readFileSync(join(dir, f), 'utf8'))]),
  );
}

const docs: Record<Guide, Map<string, DocumentNode>> = { current: documents('current'), legacy: documents('legacy') };

function operation(guide: Guide, file: string): OperationDefinitionNode {
  const doc = docs[guide].get(file);
  const op = doc?.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  if (!op) throw new Error(`operations/${guide}/${file} has no operation`);
  return op;
}

/** A selection set as nested field names: `status { name }` becomes `['status', ['name']]`. */
type Shape = (string | [string, Shape])[];
function shape(set: SelectionSetNode | undefined): Shape {
  return (set?.selections ?? []).map((s) => {
    if (s.kind !== 'Field') throw new Error(`unexpected ${s.kind} in an operation selection`);
    return s.selectionSet ? [s.name.value, shape(s.selectionSet)] : s.name.value;
  });
}

/** `$name: Type` of each variable, in written order. */
const variablesOf = (op: OperationDefinitionNode) =>
  (op.variableDefinitions ?? []).map((v) => `$${v.variable.name.value}: ${print(v.type)}`);

// The spec's operations (4.4-4.6) and what each guide's document must look like.
const spec: [
  string,
  {
    file: string;
    kind: 'query' | 'mutation';
    field: string;
    variables: Record<Guide, string[]>;
    args: string[];
    selection: Record<Guide, Shape>;
  },
][] = [
  [
    '4.4 paymentGatewayFeesCalc',
    {
      file: 'payment-gateway-fees-calc.graphql',
      kind: 'query',
      field: 'paymentGatewayFeesCalc',
      variables: { current: ['$amount: Float!'], legacy: ['$amount: Float!'] },
      args: ['amount'],
      selection: {
        current: ['amount', 'fees', 'total_settlement_amount', 'card_type'],
        legacy: ['amount', 'fees', 'total', 'card_type', 'card_location'],
      },
    },
  ],
  [
    '4.5 paymentCreditCardFeeCalc',
    {
      file: 'payment-credit-card-fee-calc.graphql',
      kind: 'query',
      field: 'paymentCreditCardFeeCalc',
      variables: {
        current: ['$amount: Float!', '$credit_card: CreditCardInput!', '$contact: ContactInput!'],
        legacy: ['$amount: Float!', '$credit_card: CreditCardInput!', '$contact: ContactInput!'],
      },
      args: ['amount', 'credit_card', 'contact'],
      selection: {
        current: ['amount', 'fees', 'total_settlement_amount', 'card_account_uid', 'card_type'],
        legacy: ['amount', 'fees', 'total_settlement_amount', 'card_account_uid', 'card_type'],
      },
    },
  ],
  [
    '4.6 processPaymentRequest',
    {
      file: 'process-payment-request.graphql',
      kind: 'mutation',
      field: 'processPaymentRequest',
      variables: { current: ['$input: ProcessPaymentRequestInput!'], legacy: ['$input: ProcessPaymentInput!'] },
      args: ['input'],
      // The spec fixes this selection for both guides.
      selection: {
        current: ['amount', 'payment_gateway_fee', 'paid_at', ['status', ['name']], 'uuid'],
        legacy: ['amount', 'payment_gateway_fee', 'paid_at', ['status', ['name']], 'uuid'],
      },
    },
  ],
];

describe.each(['current', 'legacy'] as const)('operations/%s', (guide) => {
  it('holds exactly one document per spec operation', () => {
    expect([...docs[guide].keys()]).toEqual(spec.map(([, s]) => s.file).sort());
  });

  it.each([...docs[guide].keys()])('%s validates against its guide schema', (file) => {
    expect(validate(schemas[guide], docs[guide].get(file)!).map((e) => e.message)).toEqual([]);
  });

  it.each(spec)('%s: operation, variables, arguments and selection match the spec', (_name, s) => {
    const op = operation(guide, s.file);
    expect(op.operation).toBe(s.kind);
    expect(variablesOf(op)).toEqual(s.variables[guide]);
    const [root, ...others] = op.selectionSet.selections;
    expect(others).toEqual([]);
    if (root?.kind !== 'Field') throw new Error('expected one root field');
    expect(root.name.value).toBe(s.field);
    // Each argument is passed straight from the variable of the same name.
    expect((root.arguments ?? []).map((a) => `${a.name.value}: ${print(a.value)}`)).toEqual(
      s.args.map((a) => `${a}: $${a}`),
    );
    expect(shape(root.selectionSet)).toEqual(s.selection[guide]);
  });
});

describe('the guides really differ', () => {
  // Documents whose text must fail against the other guide's schema, with the reason graphql reports.
  const crossCases: [string, { from: Guide; against: Guide; file: string; want: RegExp }][] = [
    [
      'current fee list asks for total_settlement_amount',
      {
        from: 'current',
        against: 'legacy',
        file: 'payment-gateway-fees-calc.graphql',
        want: /total_settlement_amount/,
      },
    ],
    [
      'current payment names ProcessPaymentRequestInput',
      {
        from: 'current',
        against: 'legacy',
        file: 'process-payment-request.graphql',
        want: /ProcessPaymentRequestInput/,
      },
    ],
    [
      'legacy fee list asks for total and card_location',
      { from: 'legacy', against: 'current', file: 'payment-gateway-fees-calc.graphql', want: /total|card_location/ },
    ],
    [
      'legacy payment names ProcessPaymentInput',
      { from: 'legacy', against: 'current', file: 'process-payment-request.graphql', want: /ProcessPaymentInput/ },
    ],
  ];

  it.each(crossCases)('%s: rejected by the other schema', (_name, { from, against, file, want }) => {
    const errors = validate(schemas[against], docs[from].get(file)!).map((e) => e.message);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join('\n')).toMatch(want);
  });

  it('the card fee document reads the same in both guides; the difference is in its variables', () => {
    const file = 'payment-credit-card-fee-calc.graphql';
    expect(print(docs.legacy.get(file)!)).toBe(print(docs.current.get(file)!));
    expect(validate(schemas.legacy, docs.current.get(file)!)).toEqual([]);
  });

  const card = { full_name: 'Ada Lovelace', expiry_month: '12', expiry_year: '39', cvv: '123' };
  const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
  const reference = { description: 'Invoice 42', reference_no: 'INV-42' };
  const payment = { amount: 100, fees: 1.8, metadata: { order: 42 } };
  // Variables written to each guide's field names (spec 2.4-2.6), each tried against both schemas; `foreign` is
  // what the other guide's schema must complain about.
  const variableCases: [string, { file: string; guide: Guide; variables: Record<string, unknown>; foreign: RegExp }][] =
    [
      [
        'current card fee variables (card_number)',
        {
          file: 'payment-credit-card-fee-calc.graphql',
          guide: 'current',
          variables: { amount: 100, credit_card: { ...card, card_number: testCardNumbers.visaSuccess }, contact },
          foreign: /"card_number" is not defined/,
        },
      ],
      [
        'legacy card fee variables (number)',
        {
          file: 'payment-credit-card-fee-calc.graphql',
          guide: 'legacy',
          // The legacy ContactInput is shared by both operations, so its required reference fields apply here too.
          variables: {
            amount: 100,
            credit_card: { ...card, number: testCardNumbers.visaSuccess },
            contact: { ...contact, ...reference },
          },
          foreign: /"number" is not defined/,
        },
      ],
      [
        'current payment variables (payment_reference)',
        {
          file: 'process-payment-request.graphql',
          guide: 'current',
          variables: {
            input: {
              ...payment,
              credit_card: { card_account_uid: 'ca_1', ...card, card_number: testCardNumbers.visaSuccess },
              contact,
              payment_reference: reference,
              vendor_device_id: 'dev-1',
              ip_address: '203.0.113.7',
            },
          },
          foreign: /"payment_reference" is not defined/,
        },
      ],
      [
        'legacy payment variables (reference in contact)',
        {
          file: 'process-payment-request.graphql',
          guide: 'legacy',
          variables: {
            input: {
              ...payment,
              credit_card: { ...card, number: testCardNumbers.visaSuccess },
              contact: { ...contact, ...reference },
            },
          },
          foreign: /"description" is not defined/,
        },
      ],
    ];

  /** Coerces variables for a guide's document against a schema; returns graphql's error messages. */
  function coerce(schema: GraphQLSchema, guide: Guide, file: string, variables: Record<string, unknown>) {
    const result = getVariableValues(schema, operation(guide, file).variableDefinitions ?? [], variables);
    return result.errors?.map((e) => e.message) ?? [];
  }

  it.each(variableCases)('%s are accepted by their own guide', (_name, { file, guide, variables }) => {
    expect(coerce(schemas[guide], guide, file, variables)).toEqual([]);
  });

  it.each(variableCases)('%s are rejected by the other guide', (_name, { file, guide, variables, foreign }) => {
    const other: Guide = guide === 'current' ? 'legacy' : 'current';
    // The other guide's own document, so only the variable shapes differ.
    expect(coerce(schemas[other], other, file, variables).join('\n')).toMatch(foreign);
  });
});
