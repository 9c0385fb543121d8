import { getOperationAST, parse } from 'graphql/index.js';
import { describe, expect, it } from 'vitest';
import { isPureOperation, maxAnswersPerPlan, maxKeyLength } from '../../../support/mock-internals/graphql.ts';
import { card, contact, q, testEngine } from './engine-fixtures.ts';

// The fee list is a pure function of document, guide and variables: the engine keeps its compiled answer per
// variables (pure-answers.ts). These tests hold the kept answers to the answers of an engine that keeps none.

const ctx = { clientId: 'test-client', ip: '203.0.113.7' };
const fees = (amount: unknown) => ({ query: q.fees, variables: { amount } });

async function compiledEngine(guide: 'current' | 'both' = 'current') {
  const engine = testEngine({ guide });
  await engine.warmUp();
  return engine;
}

const operationOf = (query: string) => getOperationAST(parse(query)) ?? undefined;

describe('GraphQL engine: kept answers of configuration-only queries', () => {
  it('answers a repeated fee list with the answer it kept, byte for byte what graphql-js answers', async () => {
    const engine = await compiledEngine();
    const interpreted = testEngine({ execution: 'interpreted' });
    const first = engine.execute(fees(100), ctx);
    const second = engine.execute(fees(100), ctx);
    expect(first.executedBy).toBe('graphql-jit');
    expect(second).toBe(first);
    expect(second.json).toBe(interpreted.execute(fees(100), ctx).json);
    const other = engine.execute(fees(250.5), ctx);
    expect(other).not.toBe(first);
    expect(other.json).toBe(interpreted.execute(fees(250.5), ctx).json);
    expect(engine.execute(fees(100), ctx)).toBe(first);
  });

  it('keeps answers per guide: the legacy fee list is not answered with the current one', async () => {
    const engine = await compiledEngine('both');
    const current = engine.execute(fees(10), ctx);
    const legacy = engine.execute({ query: q.legacyFees, variables: { amount: 10 } }, ctx);
    expect(legacy.guide).toBe('legacy');
    expect(legacy.json).not.toBe(current.json);
    expect(engine.execute({ query: q.legacyFees, variables: { amount: 10 } }, ctx)).toBe(legacy);
    expect(engine.execute(fees(10), ctx)).toBe(current);
  });

  it('keeps no refusal: a bad amount is validated again on every request', async () => {
    const engine = await compiledEngine();
    const first = engine.execute(fees(-1), ctx);
    expect(first.json).toContain('"validation"');
    const second = engine.execute(fees(-1), ctx);
    expect(second).not.toBe(first);
    expect(second.json).toBe(first.json);
    const wrongType = engine.execute(fees('lots'), ctx);
    expect(wrongType.json).toContain('"errors"');
    expect(engine.execute(fees('lots'), ctx)).not.toBe(wrongType);
  });

  it('keeps nothing graphql-js answered, nor for variables too long to key', async () => {
    const interpreted = testEngine({ execution: 'interpreted' });
    const byGraphqlJs = interpreted.execute(fees(100), ctx);
    expect(byGraphqlJs.executedBy).toBe('graphql-js');
    expect(interpreted.execute(fees(100), ctx)).not.toBe(byGraphqlJs);
    const engine = await compiledEngine();
    const long = { query: q.fees, variables: { amount: 5, note: 'x'.repeat(maxKeyLength) } };
    const a = engine.execute(long, ctx);
    expect(a.status).toBe(200);
    expect(a.executedBy).toBe('graphql-jit');
    expect(engine.execute(long, ctx)).not.toBe(a);
  });

  it('forgets kept answers on reset, and keeps at most maxAnswersPerPlan variable sets', async () => {
    const engine = await compiledEngine();
    const first = engine.execute(fees(1), ctx);
    engine.reset();
    const afterReset = engine.execute(fees(1), ctx);
    expect(afterReset).not.toBe(first);
    expect(afterReset.json).toBe(first.json);
    for (let amount = 2; amount <= maxAnswersPerPlan; amount++) engine.execute(fees(amount), ctx);
    expect(engine.execute(fees(1), ctx)).toBe(afterReset);
    // One set more starts the kept set over.
    engine.execute(fees(maxAnswersPerPlan + 1), ctx);
    const again = engine.execute(fees(1), ctx);
    expect(again).not.toBe(afterReset);
    expect(again.json).toBe(afterReset.json);
  });

  it('keeps answers only of queries that read configuration alone', () => {
    expect(isPureOperation(operationOf(q.fees))).toBe(true);
    expect(isPureOperation(operationOf('query T { __typename }'))).toBe(true);
    expect(isPureOperation(operationOf(q.pay))).toBe(false);
    expect(isPureOperation(operationOf(q.cardFee))).toBe(false);
    expect(isPureOperation(operationOf('{ __typename paymentCreditCardFeeCalc(amount: 1) { fees } }'))).toBe(false);
    expect(isPureOperation(operationOf('{ ...F } fragment F on Query { __typename }'))).toBe(false);
    expect(isPureOperation(operationOf('{ __schema { queryType { name } } }'))).toBe(false);
    expect(isPureOperation(undefined)).toBe(false);
  });

  it('runs the card fee and the payment every time (they read and write state)', async () => {
    const engine = await compiledEngine();
    const request = {
      query: q.cardFee,
      variables: { amount: 100, credit_card: card, contact },
    };
    const a = engine.execute(request, ctx);
    expect(engine.execute(request, ctx)).not.toBe(a);
  });
});
