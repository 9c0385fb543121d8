import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import {
  cardOutcome,
  detectCardType,
  type ExpiryProblem,
  expiryProblems,
  isDigits,
  luhnValid,
  testCards,
} from '../../../support/mock-internals/domain.ts';

describe('luhnValid', () => {
  it.each([
    ['visa test card', { given: '4111111111111111', want: true }],
    ['mastercard test card', { given: '5555555555554444', want: true }],
    ['amex test card (15 digits)', { given: '378282246310005', want: true }],
    ['diners test card (14 digits)', { given: '36227206271667', want: true }],
    ['last digit off by one', { given: '4111111111111112', want: false }],
    ['adjacent digits transposed', { given: '4111111111111121', want: false }],
    ['all zeros', { given: '0000000000000000', want: true }],
    ['non-digit', { given: '4111-1111', want: false }],
    ['single digit', { given: '0', want: false }],
    ['empty', { given: '', want: false }],
  ] as const)('%s', (_name, { given, want }) => {
    expect(luhnValid(given)).toBe(want);
  });
});

describe('isDigits', () => {
  it.each([
    ['digits', { given: '0123456789', want: true }],
    ['empty', { given: '', want: false }],
    ['space', { given: '12 3', want: false }],
    ['full-width digit', { given: '１２', want: false }],
  ] as const)('%s', (_name, { given, want }) => {
    expect(isDigits(given)).toBe(want);
  });
});

describe('detectCardType', () => {
  it.each([
    ['visa', { given: '4111111111111111', want: 'visa' }],
    ['mastercard 51-55', { given: '5555555555554444', want: 'mastercard' }],
    ['mastercard 2-series', { given: '2223003122003222', want: 'mastercard' }],
    ['amex 34', { given: '340000000000009', want: 'amex' }],
    ['amex 37', { given: '378282246310005', want: 'amex' }],
    ['diners 36', { given: '36227206271667', want: 'diners' }],
    ['diners 300-305', { given: '30569309025904', want: 'diners' }],
    ['discover is not supported by default', { given: '6011111111111117', want: undefined }],
    ['unknown prefix', { given: '9999999999999995', want: undefined }],
  ] as const)('%s', (_name, { given, want }) => {
    expect(detectCardType(given, defaultAssumptions.cardTypes)).toBe(want);
  });

  it('reads the patterns from the assumptions (first match wins)', () => {
    const cardTypes = [
      { card_type: 'first', pattern: /^4/ },
      { card_type: 'second', pattern: /^41/ },
    ];
    expect(detectCardType('4111111111111111', cardTypes)).toBe('first');
  });
});

describe('expiryProblems', () => {
  // 15 June 2030, UTC: June of year 30.
  const now = Date.UTC(2030, 5, 15, 12);
  it.each<[string, { given: [string, string]; want: ExpiryProblem[] }]>([
    ['later year', { given: ['01', '31'], want: [] }],
    ['this month is still valid', { given: ['06', '30'], want: [] }],
    ['later month this year', { given: ['12', '30'], want: [] }],
    [
      'month past this year → on expiry_month',
      { given: ['05', '30'], want: [{ field: 'expiry_month', reason: 'past' }] },
    ],
    ['year past → on expiry_year', { given: ['12', '29'], want: [{ field: 'expiry_year', reason: 'past' }] }],
    ['one-digit month', { given: ['6', '31'], want: [{ field: 'expiry_month', reason: 'format' }] }],
    ['four-digit year', { given: ['06', '2031'], want: [{ field: 'expiry_year', reason: 'format' }] }],
    ['month 00', { given: ['00', '31'], want: [{ field: 'expiry_month', reason: 'range' }] }],
    ['month 13', { given: ['13', '31'], want: [{ field: 'expiry_month', reason: 'range' }] }],
    [
      'both malformed',
      {
        given: ['x', 'yy'],
        want: [
          { field: 'expiry_month', reason: 'format' },
          { field: 'expiry_year', reason: 'format' },
        ],
      },
    ],
  ])('%s', (_name, { given, want }) => {
    expect(expiryProblems(given[0], given[1], now)).toEqual(want);
  });

  it('turns the year over on the first of January, UTC', () => {
    expect(expiryProblems('12', '30', Date.UTC(2030, 11, 31, 23, 59))).toEqual([]);
    expect(expiryProblems('12', '30', Date.UTC(2031, 0, 1))).toEqual([{ field: 'expiry_year', reason: 'past' }]);
  });
});

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
