import { parse, print } from 'graphql/index.js';
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import { testCardNumbers } from '../../../../src/test-values.ts';
import { createMockState } from '../../../support/mock-internals/domain.ts';
import { createClock, createSeededRandom } from '../../../support/mock-internals/foundations.ts';
import {
  createGraphqlEngine,
  nodeJitLoader,
  redactDocument,
  redactVariables,
  scrubMessage,
} from '../../../support/mock-internals/graphql.ts';
import { nodeCrypto } from '../../../support/mock-internals/platform.ts';
import { legacyPayInput, payInput, q, testEngine } from './engine-fixtures.ts';

const pan = testCardNumbers.visaSuccess;
const amexPan = '378282246310005';
const cvv = '739';
const ctx = { clientId: 'test-client', ip: '203.0.113.7' };

/** Everything a reply must never carry: the numbers sent, or any other long digit run. */
function expectNoSecrets(json: string, secrets: readonly string[]) {
  for (const s of secrets) expect(json).not.toContain(s);
  expect(json).not.toMatch(/\d{12,19}/);
}

describe('redactVariables', () => {
  it.each<[string, { given: Record<string, unknown>; want: Record<string, unknown> }]>([
    [
      'current guide card',
      {
        given: { input: { credit_card: { card_number: pan, cvv, full_name: 'Ada' } } },
        want: { input: { credit_card: { card_number: '411111******1111', cvv: '***', full_name: 'Ada' } } },
      },
    ],
    [
      'legacy guide card',
      { given: { c: { number: amexPan, cvv: '1234' } }, want: { c: { number: '378282*****0005', cvv: '***' } } },
    ],
    [
      'numbers keep their kind',
      { given: { c: { card_number: 4111111111111111, cvv: 739 } }, want: { c: { card_number: 0, cvv: 0 } } },
    ],
    [
      'anything under a card key',
      {
        given: { c: { cvv: [cvv, { x: cvv }], card_number: { n: pan } } },
        want: { c: { cvv: ['***', { x: '***' }], card_number: { n: '411111******1111' } } },
      },
    ],
    [
      'other values untouched',
      { given: { amount: 12, metadata: { order: 'A-1' } }, want: { amount: 12, metadata: { order: 'A-1' } } },
    ],
  ])('%s', (_name, { given, want }) => {
    expect(redactVariables(given)).toEqual(want);
  });

  it('does not copy (or recurse through) a hostile, deeply nested value', () => {
    let deep: unknown = pan;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => redactVariables({ deep })).not.toThrow();
  });
});

describe('redactDocument', () => {
  it('masks inline card numbers and CVVs, keeping kinds and locations', () => {
    const doc = parse(`{ f(a: { card_number: "${pan}", number: 4111111111111111, cvv: "${cvv}", other: "${pan}" }) }`);
    const printed = print(redactDocument(doc));
    expect(printed).toContain('card_number: "411111******1111"');
    expect(printed).toContain('number: 0');
    expect(printed).toContain('cvv: "***"');
    // Only card fields are redacted; the last guard (scrubMessage) covers a number anywhere else.
    expect(printed).toContain(`other: "${pan}"`);
  });

  it('returns the document itself when there is nothing to redact', () => {
    const doc = parse('{ f(a: { amount: 1 }) }');
    expect(redactDocument(doc)).toBe(doc);
  });
});

describe('scrubMessage', () => {
  it.each<[string, string, boolean, string]>([
    ['long digit run', `found ${pan}.`, false, 'found 411111******1111.'],
    ['digits with spaces', 'found 4111 1111 1111 1111.', false, 'found 411111******1111.'],
    [
      'quoted CVV in a syntax error',
      `Syntax Error: Expected ":", found String "${cvv}".`,
      true,
      'Syntax Error: Expected ":", found String "***".',
    ],
    ['short numbers elsewhere stay', 'Expected 2 digits, found 123.', false, 'Expected 2 digits, found 123.'],
  ])('%s', (_name, message, syntax, want) => {
    expect(scrubMessage(message, syntax)).toBe(want);
  });
});

describe('no reply carries a card number or CVV (engine, both execution paths)', () => {
  const card = { full_name: 'Ada', card_number: pan, expiry_month: '12', expiry_year: '31', cvv };
  const legacyCard = { full_name: 'Ada', number: pan, expiry_month: '12', expiry_year: '31', cvv };
  const cases: [string, 'current' | 'legacy' | 'both', string, Record<string, unknown> | undefined][] = [
    [
      'unknown field next to the card (current)',
      'current',
      q.pay,
      { input: { ...payInput, credit_card: card, foo: 1 } },
    ],
    [
      'unknown field in the card (current)',
      'current',
      q.pay,
      { input: { ...payInput, credit_card: { ...card, foo: 1 } } },
    ],
    [
      'unknown field next to the card (legacy)',
      'legacy',
      q.legacyPay,
      { input: { ...legacyPayInput, credit_card: legacyCard, foo: 1 } },
    ],
    [
      'unknown field next to the card (both)',
      'both',
      q.legacyPay,
      { input: { ...legacyPayInput, credit_card: legacyCard, foo: 1 } },
    ],
    [
      'card number sent as a number',
      'current',
      q.pay,
      { input: { ...payInput, credit_card: { ...card, card_number: Number(pan) } } },
    ],
    ['CVV sent as a number', 'current', q.pay, { input: { ...payInput, credit_card: { ...card, cvv: 739 }, foo: 1 } }],
    ['amount of the wrong type', 'current', q.pay, { input: { ...payInput, credit_card: card, amount: 'x' } }],
    [
      'card fee calc with an unknown contact field',
      'current',
      q.cardFee,
      { amount: 1, credit_card: card, contact: { bad: 1 } },
    ],
    [
      'inline literal with an unknown field',
      'current',
      `mutation { processPaymentRequest(input: { amount: 1, fees: 1, foo: 1, credit_card: { card_number: "${pan}", cvv: "${cvv}" } }) { uuid } }`,
      undefined,
    ],
    [
      'inline card where a number belongs',
      'current',
      `mutation { processPaymentRequest(input: { amount: { card_number: "${pan}", cvv: "${cvv}" } }) { uuid } }`,
      undefined,
    ],
    [
      'inline legacy card where a number belongs',
      'legacy',
      `mutation { processPaymentRequest(input: { amount: { number: "${pan}", cvv: "${cvv}" } }) { uuid } }`,
      undefined,
    ],
    ['inline CVV in a syntax error', 'current', `{ a(x: { cvv "${cvv}" }) }`, undefined],
    ['inline card number in a syntax error', 'current', `{ a(x: { card_number "${pan}" }) }`, undefined],
  ];
  for (const execution of ['interpreted', 'compiled'] as const)
    it.each(cases)(`${execution}: %s`, async (_name, guide, query, variables) => {
      const engine = createGraphqlEngine({
        assumptions: defaultAssumptions,
        guide,
        state: createMockState({ assumptions: defaultAssumptions, seed: 'seed', sha256Hex: nodeCrypto.sha256Hex }),
        clock: createClock({ realNow: () => Date.UTC(2030, 5, 15) }),
        random: createSeededRandom('seed', nodeCrypto.sha512Hex),
        onPaymentAccepted: () => {},
        execution,
        jit: nodeJitLoader,
      });
      if (execution === 'compiled') await engine.warmUp();
      // Twice: the second answer may come from the compiled query or the cached validation verdict.
      for (let i = 0; i < 2; i++) {
        const r = engine.execute({ query, variables }, ctx);
        expect(r.status).toBe(defaultAssumptions.graphqlErrorHttpStatus);
        expect(r.internalError).toBeUndefined();
        expectNoSecrets(r.json, [pan, `"${cvv}"`, ` ${cvv}`]);
      }
    });

  it('keeps graphql-js wording, with the card masked', () => {
    const engine = testEngine({ execution: 'interpreted' });
    const r = engine.execute({ query: q.pay, variables: { input: { ...payInput, credit_card: card, foo: 1 } } }, ctx);
    const message = (r.body as { errors: { message: string }[] }).errors[0]?.message;
    expect(message).toContain('Variable "$input" got invalid value');
    expect(message).toContain('card_number: "411111******1111"');
    expect(message).toContain('cvv: "***"');
    expect(message).toContain('Field "foo" is not defined by type "ProcessPaymentRequestInput".');
  });
});
