// Checks the committed pact files against the kit's sources: every recorded GraphQL query is the printed shipped
// operation and valid against its guide's schema; the variables of successful interactions coerce; every recorded
// `data` example has exactly the fields and types the operation selects; every recorded error is in the spec's
// 7.2 or 7.3 shape. contracts/ holds exactly the kit's pact files, one per consumer.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, type DocumentNode, type GraphQLSchema, parse, print, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import * as current from '../../src/index.ts';
import * as legacy from '../../src/legacy.ts';
import { operationOf } from '../../src/pact/graphql-request.ts';
import { graphqlPath } from '../../src/pact/names.ts';
import { errorBodyProblems, shapeProblems, variableProblems } from './support/graphql-shapes.ts';
import { committedPactFiles, consumers, contractsDir, pactFileName, root } from './support/pact-files.ts';

type Guide = 'current' | 'legacy';

const schemas: Record<Guide, GraphQLSchema> = {
  current: buildSchema(readFileSync(join(root, 'schema.graphql'), 'utf8')),
  legacy: buildSchema(readFileSync(join(root, 'generated/legacy/schema.graphql'), 'utf8')),
};

/** The shipped typed documents of each guide, by operation name. */
const shipped: Record<Guide, Map<string, DocumentNode>> = {
  current: byName([
    current.PaymentGatewayFeesCalcDocument,
    current.PaymentCreditCardFeeCalcDocument,
    current.ProcessPaymentRequestDocument,
  ]),
  legacy: byName([
    legacy.PaymentGatewayFeesCalcDocument,
    legacy.PaymentCreditCardFeeCalcDocument,
    legacy.ProcessPaymentRequestDocument,
  ]),
};

function byName(documents: DocumentNode[]): Map<string, DocumentNode> {
  return new Map(documents.map((d) => [operationOf(d).name.value, d]));
}

interface Interaction {
  type: string;
  description: string;
  request?: { method: string; path: string; body?: { content?: Record<string, unknown> } };
  response?: { status: number; body?: { content?: Record<string, unknown> } };
}

const guideOf = (file: string): Guide => (file === pactFileName(consumers.legacy) ? 'legacy' : 'current');

const graphqlInteractions = (await committedPactFiles()).flatMap((file) => {
  const pact = JSON.parse(readFileSync(join(contractsDir, file), 'utf8')) as { interactions: Interaction[] };
  return pact.interactions
    .filter((i) => i.type === 'Synchronous/HTTP' && i.request?.path === graphqlPath)
    .map((i): [string, { guide: Guide; interaction: Interaction }] => [
      `${file}: ${i.description}`,
      { guide: guideOf(file), interaction: i },
    ]);
});

describe('contracts/', () => {
  it('holds exactly the pact files of the kit’s consumers', async () => {
    expect(await committedPactFiles()).toEqual(Object.values(consumers).map(pactFileName).sort());
  });

  it('keeps card numbers and CVVs in request bodies only', async () => {
    const leaks: string[] = [];
    for (const file of await committedPactFiles()) {
      const pact = JSON.parse(readFileSync(join(contractsDir, file), 'utf8')) as {
        interactions: Record<string, unknown>[];
      };
      for (const interaction of pact.interactions) {
        const { request, ...rest } = interaction as { request?: Record<string, unknown> };
        const { body: _body, ...requestRest } = request ?? {};
        const outside = JSON.stringify({ ...rest, request: requestRest });
        if (/\b\d{12,19}\b/.test(outside) || /cvv/i.test(outside)) leaks.push(`${file}: ${interaction.description}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it('records GraphQL interactions for both guides', () => {
    const guides = new Set(graphqlInteractions.map(([, { guide }]) => guide));
    expect([...guides].sort()).toEqual(['current', 'legacy']);
  });
});

describe.each(graphqlInteractions)('%s', (_name, { guide, interaction }) => {
  const request = interaction.request?.body?.content ?? {};
  const response = interaction.response?.body?.content ?? {};
  const query = String(request.query);
  const document = parse(query);
  const operation = operationOf(document);

  it('sends a shipped operation, printed', () => {
    const doc = shipped[guide].get(operation.name.value);
    expect(doc, `no shipped ${guide} operation named ${operation.name.value}`).toBeDefined();
    expect(query).toBe(print(doc!));
    expect(request.operationName).toBe(operation.name.value);
  });

  it(`is a valid query against the ${guide} guide's schema`, () => {
    expect(validate(schemas[guide], document).map((e) => e.message)).toEqual([]);
  });

  if ('data' in response && !('errors' in response)) {
    it('sends variables that the schema accepts', () => {
      const variables = (request.variables as Record<string, unknown>) ?? {};
      expect(variableProblems(schemas[guide], operation.variableDefinitions ?? [], variables)).toEqual([]);
    });

    it('expects data with exactly the selected fields and their types', () => {
      const root =
        operation.operation === 'mutation' ? schemas[guide].getMutationType() : schemas[guide].getQueryType();
      expect(root).toBeTruthy();
      const data = response.data as Record<string, unknown>;
      const problems = operation.selectionSet.selections.flatMap((selection) => {
        if (selection.kind !== 'Field') return ['fragment at the root'];
        const field = root!.getFields()[selection.name.value];
        if (!field) return [`${selection.name.value}: not a root field`];
        const key = selection.alias?.value ?? selection.name.value;
        return shapeProblems(schemas[guide], field.type, selection.selectionSet, data?.[key], `data.${key}`);
      });
      expect(problems).toEqual([]);
      expect(Object.keys(data ?? {}).sort()).toEqual(
        operation.selectionSet.selections
          .map((s) => (s.kind === 'Field' ? (s.alias?.value ?? s.name.value) : ''))
          .sort(),
      );
    });
  } else {
    it('expects an error body in the shape of spec 7.2 or 7.3', () => {
      expect(errorBodyProblems(response)).toEqual([]);
    });
  }
});

describe('the shape check itself', () => {
  const schema = schemas.legacy;
  const doc = parse(print(legacy.PaymentGatewayFeesCalcDocument));
  const op = operationOf(doc);
  const field = schema.getQueryType()!.getFields().paymentGatewayFeesCalc!;
  const selection = op.selectionSet.selections[0];
  const set = selection?.kind === 'Field' ? selection.selectionSet : undefined;
  const entry = { amount: 1, fees: 0.3, total: 1.3, card_type: 'visa', card_location: 'domestic' };
  const cases: [string, { value: unknown; want: string[] }][] = [
    ['a complete entry', { value: [entry], want: [] }],
    [
      'a current-guide entry',
      {
        value: [{ amount: 1, fees: 0.3, total_settlement_amount: 1.3, card_type: 'visa' }],
        want: [
          'data[0].total: missing from the example',
          'data[0].card_location: missing from the example',
          'data[0].total_settlement_amount: not selected',
        ],
      },
    ],
    ['a number as a string', { value: [{ ...entry, fees: '0.3' }], want: ['data[0].fees: "0.3" is not a Float'] }],
    ['an empty list', { value: [], want: ['data: an example list needs an element'] }],
    ['null', { value: null, want: ['data: null in a non-null position'] }],
  ];
  it.each(cases)('reports %s', (_what, { value, want }) => {
    expect(shapeProblems(schema, field.type, set, value, 'data')).toEqual(want);
  });

  it('accepts a card_account_uid in place of the card details, and nothing else missing', () => {
    const definitions = operationOf(parse(print(current.ProcessPaymentRequestDocument))).variableDefinitions ?? [];
    const input = {
      amount: 1,
      fees: 0.3,
      credit_card: { card_account_uid: 'uid' },
      contact: { first_name: 'A', last_name: 'B', email: 'a@b.c' },
      payment_reference: { description: 'd', reference_no: 'r' },
    };
    expect(variableProblems(schemas.current, definitions, { input })).toEqual([]);
    const { contact: _c, ...withoutContact } = input;
    expect(variableProblems(schemas.current, definitions, { input: withoutContact })).toEqual([
      '$input: Field "contact" of required type "ContactInput!" was not provided.',
    ]);
    expect(variableProblems(schemas.current, definitions, { input: { ...input, credit_card: {} } })).toHaveLength(5);
  });

  it('reports an error entry without reason or validation', () => {
    expect(errorBodyProblems({ errors: [{ message: 'x', extensions: {} }] })).toEqual([
      'errors[0].extensions: expected reason (an ERROR_CODE string) or category "validation"',
    ]);
    expect(errorBodyProblems({ errors: [{ message: 'x', extensions: { reason: 'TOKEN_EXPIRED' } }] })).toEqual([]);
  });
});
