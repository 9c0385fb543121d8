import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import { cardOutcome, detectCardType, luhnValid, testCards } from '../../../support/mock-internals/foundations.ts';

describe('testCards', () => {
  it.each(Object.entries(testCards))('%s is Luhn-valid and detected as its card type', (_name, card) => {
    expect(luhnValid(card.number)).toBe(true);
    expect(detectCardType(card.number, defaultAssumptions.cardTypes)).toBe(card.card_type);
    expect(defaultAssumptions.feeTable.map((r) => r.card_type)).toContain(card.card_type);
  });

  it('has one success card per card type of the default fee table', () => {
    const successTypes = Object.values(testCards)
      .filter((c) => c.outcome === 'success')
      .map((c) => c.card_type)
      .sort();
    expect(successTypes).toEqual(defaultAssumptions.feeTable.map((r) => r.card_type).sort());
  });

  it.each([
    ['4000000000000002 settles as failure (the issue)', { given: '4000000000000002', want: 'failure' }],
    ['the rejected card', { given: testCards.visaRejectedAsInvalid.number, want: 'rejected' }],
    ['the card that stays processing', { given: testCards.visaStaysProcessing.number, want: 'processing' }],
    ['any other card succeeds', { given: '4242424242424242', want: 'success' }],
  ] as const)('cardOutcome: %s', (_name, { given, want }) => {
    expect(cardOutcome(given)).toBe(want);
  });

  it('numbers are unique', () => {
    const numbers = Object.values(testCards).map((c) => c.number);
    expect(new Set(numbers).size).toBe(numbers.length);
  });
});

describe('docs/mock-behaviour.md "Test cards"', () => {
  it.each(Object.entries(testCards))('lists the key %s with its number, type and outcome', async (key, card) => {
    const page = await readFile(new URL('../../../../docs/mock-behaviour.md', import.meta.url), 'utf8');
    expect(page).toMatch(new RegExp(`^\\| \`${key}\` \\| \`${card.number}\` \\| ${card.card_type} \\|`, 'm'));
  });
});
