import { createMockStore } from '@graphql-tools/mock';
import { buildSchema, type GraphQLObjectType } from 'graphql/index.js';
import { describe, expect, it } from 'vitest';
import { createCompleter } from '../../../support/mock-internals/graphql.ts';

const schema = buildSchema(`
  type Status { name: String! code: Int }
  type Item { label: String! price: Float! status: Status! }
  type Result { ref: String! count: Int! status: Status! items: [Item!]! tags: [String!] }
  type Query { result: Result! results: [Result!]! plain: String }
`);
const field = (name: string) => (schema.getQueryType() as GraphQLObjectType).getFields()[name]!;

function setup() {
  let n = 0;
  const store = createMockStore({ schema, mocks: { String: () => `mock-${++n}`, Int: () => 7, Float: () => 1.5 } });
  return { store, complete: createCompleter(field('result').type, store) };
}

describe('createCompleter', () => {
  it('leaves a complete result as it is: same object, same values', () => {
    const { complete } = setup();
    const status = { name: 'ok', code: null };
    const value = { ref: 'a', count: 1, status, items: [{ label: 'x', price: 2, status }], tags: null };
    const before = structuredClone(value);
    expect(complete(value)).toBe(value);
    expect(value).toEqual(before);
  });

  it('fills fields the resolver left undefined from the MockStore, at any depth, stably', () => {
    const { complete } = setup();
    const first = complete({ count: 2, items: [{ label: 'x', price: 3, status: { code: 1 } }] }) as Record<
      string,
      unknown
    >;
    expect(first).toMatchObject({
      ref: expect.stringMatching(/^mock-/),
      count: 2,
      status: { name: expect.stringMatching(/^mock-/), code: 7 },
      items: [{ label: 'x', price: 3, status: { name: expect.stringMatching(/^mock-/), code: 1 } }],
    });
    expect(Array.isArray(first.tags)).toBe(true);
    const second = complete({ count: 2, items: [] }) as Record<string, unknown>;
    // The store keeps one fallback object per type: the same field gets the same value again.
    expect(second.ref).toBe(first.ref);
    expect(second.status).toEqual(first.status);
  });

  it('keeps nulls the resolver chose, and completes each item of a list result', () => {
    const { store } = setup();
    const completeList = createCompleter(field('results').type, store);
    const list = [{ ref: 'a', count: 1, status: { name: 's' }, items: [], tags: null }, { ref: 'b' }];
    completeList(list);
    expect(list[0]).toMatchObject({ tags: null, status: { name: 's', code: 7 } });
    expect(list[1]).toMatchObject({ ref: 'b', count: 7, items: expect.any(Array) });
    expect(createCompleter(field('plain').type, store)('text')).toBe('text');
  });

  it('gives the same fallback values again after the store is reset with its mocks', () => {
    const { store, complete } = setup();
    const before = (complete({}) as { ref: string }).ref;
    store.reset();
    expect((complete({}) as { ref: string }).ref).not.toBe(before); // the test mocks count on, the store forgot
    expect((complete({}) as { ref: string }).ref).toBe((complete({}) as { ref: string }).ref);
  });
});
