import { describe, expect, it } from 'vitest';
import { testCardNumbers } from '../../../../src/test-values.ts';
import { createJournal } from '../../../support/mock-internals/domain.ts';
import { summarizeVariables } from '../../../support/mock-internals/graphql.ts';

const add = (j: ReturnType<typeof createJournal>, path: string, status = 200) =>
  j.record({ method: 'POST', path, status, at: 0, durationMs: 1, outcome: 'ok' });

describe('journal', () => {
  it('keeps the latest entries in a ring, with seq and since', () => {
    const j = createJournal(3);
    for (const p of ['/a', '/b', '/c', '/d']) add(j, p);
    expect(j.entries().map((e) => e.path)).toEqual(['/b', '/c', '/d']);
    expect(j.entries(3).map((e) => e.path)).toEqual(['/d']);
    expect(j.cursor()).toBe(4);
    j.reset();
    expect([j.entries(), j.cursor()]).toEqual([[], 0]);
  });

  it('gives back every field of an entry as recorded, for reads and for waits', async () => {
    const j = createJournal(2);
    const summary = { input: { amount: 5 } };
    const waiting = j.waitFor((e) => e.operationName === 'processPaymentRequest');
    const outcome = 'validation: input.contact';
    j.record({
      method: 'POST',
      path: '/graphql',
      status: 422,
      at: 1_700_000_000_123,
      durationMs: 1.25,
      operationName: 'processPaymentRequest',
      guide: 'legacy',
      clientId: 'client-a',
      summary,
      outcome,
    });
    const expected = {
      seq: 1,
      method: 'POST',
      path: '/graphql',
      operationName: 'processPaymentRequest',
      guide: 'legacy',
      status: 422,
      at: 1_700_000_000_123,
      durationMs: 1.25,
      clientId: 'client-a',
      summary,
      outcome,
    };
    await expect(waiting).resolves.toEqual(expected);
    expect(j.entries()).toEqual([expected]);
    add(j, '/b');
    add(j, '/c'); // the first entry's slot is reused
    expect(j.entries()).toMatchObject([
      { seq: 2, path: '/b', operationName: undefined, guide: undefined, clientId: undefined, summary: undefined },
      { seq: 3, path: '/c', status: 200, durationMs: 1 },
    ]);
  });

  it('hands a state store each entry as a positional jr record, and a replica replays it as the same entry', () => {
    const records: { t: string; a?: unknown }[] = [];
    const first = createJournal(5, (record) => records.push(record));
    const entry = {
      method: 'POST',
      path: '/graphql',
      status: 200,
      at: 1_700_000_000_000,
      durationMs: 2.5,
      operationName: 'processPaymentRequest',
      guide: 'current' as const,
      clientId: 'client-a',
      summary: { input: { amount: 5 } },
      outcome: 'ok',
    };
    first.record(entry);
    first.record({ method: 'GET', path: '/nowhere', status: 404, at: 1, durationMs: 0.5, outcome: 'HTTP 404' });
    // The order and the nulls are the stored format (files and Redis streams written before keep replaying).
    expect(records).toEqual([
      {
        t: 'jr',
        a: [
          'POST',
          '/graphql',
          200,
          1_700_000_000_000,
          2.5,
          'processPaymentRequest',
          'current',
          'client-a',
          entry.summary,
          'ok',
        ],
      },
      { t: 'jr', a: ['GET', '/nowhere', 404, 1, 0.5, null, null, null, null, 'HTTP 404'] },
    ]);
    const replica = createJournal(5);
    for (const record of records) replica.apply(JSON.parse(JSON.stringify(record)));
    expect(replica.entries()).toEqual(first.entries());
  });

  it('resolves a wait with an entry already recorded, or the next matching one', async () => {
    const j = createJournal(10);
    add(j, '/a');
    await expect(j.waitFor((e) => e.path === '/a')).resolves.toMatchObject({ seq: 1 });
    const later = j.waitFor((e) => e.path === '/a', { since: j.cursor() });
    add(j, '/b');
    add(j, '/a');
    await expect(later).resolves.toMatchObject({ seq: 3 });
  });

  it('rejects on timeout and on close, saying what to do', async () => {
    const j = createJournal(10);
    await expect(j.waitFor(() => false, { timeoutMs: 10 })).rejects.toThrow(/No request matched within 10 ms/);
    const pending = j.waitFor(() => false);
    j.close();
    await expect(pending).rejects.toThrow(/closed/);
  });
});

describe('summarizeVariables', () => {
  it('masks card numbers of both guides and drops CVVs at any depth', () => {
    const summary = summarizeVariables({
      input: {
        credit_card: { card_number: testCardNumbers.visaSuccess, cvv: '123' },
        legacy: [{ number: testCardNumbers.mastercardSuccess, cvv: '999' }],
      },
    });
    expect(summary).toEqual({
      input: { credit_card: { card_number: '411111******1111' }, legacy: [{ number: '555555******4444' }] },
    });
  });

  it.each([
    [
      'a card number in another text field',
      { name: 'card 4111 1111 1111 1111 here' },
      { name: 'card 411111******1111 here' },
    ],
    ['a card number sent as a JSON number', { amount: -4111111111111111 }, { amount: '-411111******1111' }],
    ['an 11-digit number, too short to be a card', { amount: 12345678901 }, { amount: 12345678901 }],
    ['an ordinary amount and a short string', { amount: 100.5, ref: 'R-1' }, { amount: 100.5, ref: 'R-1' }],
  ])('masks card-like digit runs outside the card fields: %s', (_name, variables, want) => {
    expect(summarizeVariables(variables)).toEqual(want);
  });
});
