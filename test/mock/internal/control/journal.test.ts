import { describe, expect, it } from 'vitest';
import { createJournal, summarizeVariables } from '../../../../src/mock/internal/control/journal.ts';
import { testCardNumbers } from '../../../../src/test-values.ts';

const add = (j: ReturnType<typeof createJournal>, path: string, status = 200) =>
  j.record('POST', path, status, 0, 1, undefined, undefined, undefined, undefined, 'ok');

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
    j.record(
      'POST',
      '/graphql',
      422,
      1_700_000_000_123,
      1.25,
      'processPaymentRequest',
      'legacy',
      'client-a',
      summary,
      outcome,
    );
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
