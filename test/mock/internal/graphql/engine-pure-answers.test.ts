import { getOperationAST, parse } from 'graphql/index.js';
import { describe, expect, it } from 'vitest';
import { isPureOperation } from '../../../support/mock-internals/graphql.ts';
import { card, contact, q, testEngine } from './engine-fixtures.ts';

// The fee list is a pure function of its request: the engine marks its compiled success `kept` (engine.ts),
// and the /graphql route keeps it by body text (http/routes.test.ts). The engine itself keeps no answer.

const ctx = { clientId: 'test-client', ip: '203.0.113.7' };
const fees = (amount: unknown) => ({ query: q.fees, variables: { amount } });

async function compiledEngine(guide: 'current' | 'both' = 'current') {
  const engine = testEngine({ guide });
  await engine.warmUp();
  return engine;
}

const operationOf = (query: string) => getOperationAST(parse(query)) ?? undefined;

describe('GraphQL engine: answers of configuration-only queries marked for keeping', () => {
  it('marks a compiled fee list kept, answering byte for byte what graphql-js answers, and runs it every time', async () => {
    const engine = await compiledEngine();
    const interpreted = testEngine({ execution: 'interpreted' });
    const first = engine.execute(fees(100), ctx);
    expect(first.executedBy).toBe('graphql-jit');
    expect(first.kept).toBe(true);
    expect(first.json).toBe(interpreted.execute(fees(100), ctx).json);
    const second = engine.execute(fees(100), ctx);
    expect(second).not.toBe(first);
    expect(second.json).toBe(first.json);
    expect(engine.execute(fees(250.5), ctx).json).toBe(interpreted.execute(fees(250.5), ctx).json);
  });

  it('marks the fee list of each guide in its own guide', async () => {
    const engine = await compiledEngine('both');
    const current = engine.execute(fees(10), ctx);
    const legacy = engine.execute({ query: q.legacyFees, variables: { amount: 10 } }, ctx);
    expect([current.guide, current.kept, legacy.guide, legacy.kept]).toEqual(['current', true, 'legacy', true]);
    expect(legacy.json).not.toBe(current.json);
  });

  it('marks no refusal: a bad amount is worded for its request', async () => {
    const engine = await compiledEngine();
    const bad = engine.execute(fees(-1), ctx);
    expect(bad.json).toContain('"validation"');
    expect(bad.kept).toBeUndefined();
    const wrongType = engine.execute(fees('lots'), ctx);
    expect(wrongType.json).toContain('"errors"');
    expect(wrongType.kept).toBeUndefined();
  });

  it('marks nothing graphql-js answered', () => {
    const interpreted = testEngine({ execution: 'interpreted' });
    const byGraphqlJs = interpreted.execute(fees(100), ctx);
    expect(byGraphqlJs.executedBy).toBe('graphql-js');
    expect(byGraphqlJs.kept).toBeUndefined();
  });

  it('tells configuration-only queries from the rest', () => {
    expect(isPureOperation(operationOf(q.fees))).toBe(true);
    expect(isPureOperation(operationOf('query T { __typename }'))).toBe(true);
    expect(isPureOperation(operationOf(q.pay))).toBe(false);
    expect(isPureOperation(operationOf(q.cardFee))).toBe(false);
    expect(isPureOperation(operationOf('{ __typename paymentCreditCardFeeCalc(amount: 1) { fees } }'))).toBe(false);
    expect(isPureOperation(operationOf('{ ...F } fragment F on Query { __typename }'))).toBe(false);
    expect(isPureOperation(operationOf('{ __schema { queryType { name } } }'))).toBe(false);
    expect(isPureOperation(undefined)).toBe(false);
  });

  it('never marks the card fee or the payment (they read and write state)', async () => {
    const engine = await compiledEngine();
    const cardFee = engine.execute({ query: q.cardFee, variables: { amount: 100, credit_card: card, contact } }, ctx);
    expect(cardFee.executedBy).toBe('graphql-jit');
    expect(cardFee.kept).toBeUndefined();
  });
});
