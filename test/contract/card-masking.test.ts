import { describe, expect, it } from 'vitest';
import { luhnValid, maskCardNumber, maskCardNumbers, maskDigits } from '../../src/contract/card-masking.ts';
import { showValue } from '../../src/contract/check/show-value.ts';
import { describeValue } from '../../src/contract/check/value-kind.ts';

describe('maskCardNumber', () => {
  it.each([
    ['16 digits: first 6 and last 4', { given: '4111111111111111', want: '411111******1111' }],
    ['15 digits', { given: '378282246310005', want: '378282*****0005' }],
    ['19 digits', { given: '4111111111111111113', want: '411111*********1113' }],
    ['12 digits: last 4 only', { given: '411111111111', want: '********1111' }],
    ['short: nothing shown', { given: '4111', want: '****' }],
    ['empty', { given: '', want: '' }],
  ] as const)('%s', (_name, { given, want }) => {
    expect(maskCardNumber(given)).toBe(want);
    expect(maskCardNumber(given)).toHaveLength(given.length);
  });
});

describe('maskDigits', () => {
  it.each([
    ['a card number in a path', { given: '/cards/4111111111111111', want: '/cards/411111******1111' }],
    ['spaces and dashes are dropped', { given: 'card 4111 1111-1111 1111 seen', want: 'card 411111******1111 seen' }],
    ['12 digits show the last 4 only', { given: 'id 411111111111', want: 'id ********1111' }],
    ['11 digits are left alone', { given: 'id 41111111111', want: 'id 41111111111' }],
    ['a run longer than 19 is masked whole', { given: '4'.repeat(25), want: `444444${'*'.repeat(15)}4444` }],
    [
      'two runs, each masked',
      { given: '4111111111111111/5555555555554444', want: '411111******1111/555555******4444' },
    ],
    ['text without digits', { given: 'nothing here', want: 'nothing here' }],
  ] as const)('%s', (_name, { given, want }) => {
    expect(maskDigits(given)).toBe(want);
  });
});

// The one maskDigits serves the mock (request log, journal, GraphQL redaction: covered by their own tests) and the
// checker's and verify's reports, which show values through these two.
describe('the checker shows values masked', () => {
  it('showValue and describeValue keep at most the first 6 and last 4 digits', () => {
    expect(showValue('4111111111111111')).toBe('"411111******1111"');
    expect(showValue(4111111111111111)).toBe('411111******1111');
    expect(describeValue('4111 1111 1111 1111')).toBe('the string "411111******1111"');
    expect(describeValue('4'.repeat(25))).toBe(`the string "444444${'*'.repeat(15)}4444"`);
  });
});

// Reports about an exchange mask only what can be a card number: a number the report is about (a 13-digit
// `expiration` in milliseconds) is shown whole, while a card number, and a card field's value even when mistyped, are
// still masked.
describe('maskCardNumbers and luhnValid', () => {
  it.each([
    ['a Luhn-valid card number', { given: 'card 4111111111111111', want: 'card 411111******1111' }],
    ['a spaced one', { given: 'card 5555 5555 5555 4444', want: 'card 555555******4444' }],
    ['an expiration in milliseconds', { given: 'got 1796150006000', want: 'got 1796150006000' }],
    ['a run too long to be one card number', { given: '4'.repeat(25), want: `444444${'*'.repeat(15)}4444` }],
    ['a short number', { given: 'id 41111111111', want: 'id 41111111111' }],
  ] as const)('%s', (_name, { given, want }) => {
    expect(maskCardNumbers(given)).toBe(want);
  });

  it('luhnValid tells card numbers from timestamps', () => {
    expect([luhnValid('4111111111111111'), luhnValid('378282246310005'), luhnValid('1796150006000')]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('showValue and describeValue show a timestamp whole and still mask card numbers', () => {
    expect(showValue(1796150006000)).toBe('1796150006000');
    expect(describeValue(1796150006000)).toBe('the number 1796150006000');
    expect(showValue('4111111111111111')).toBe('"411111******1111"');
    expect(showValue(5555555555554444)).toBe('555555******4444');
    // A card field is masked by name: a mistyped card number (fails Luhn) is still someone's card number.
    expect(showValue('4111111111111112', 'card_number')).toBe('"411111******1112"');
    expect(showValue(4111111111111112, 'number')).toBe('411111******1112');
  });
});

describe('ids are not card numbers', () => {
  // Random hex ids hold a run of 12 decimal digits about once in twenty; masking it would print an id nobody holds.
  const ids = [
    'whd_test_655ddcd74cca440394845833a42876bd',
    'whd_655ddcd74cca440394845833a42876bd',
    '12345678-1234-4234-8234-123456789012',
  ];
  it.each(ids)('leaves %s whole, alone and inside a sentence', (id) => {
    expect(maskDigits(id)).toBe(id);
    expect(maskCardNumbers(`delivery ${id} failed`)).toBe(`delivery ${id} failed`);
  });
  it('still masks a card number next to an id, or dressed as one', () => {
    expect(maskDigits('whd_4111111111111111')).toBe('whd_411111******1111');
    expect(maskDigits('12345678-1234-4234-8234-123456789012 4111 1111 1111 1111')).toBe(
      '12345678-1234-4234-8234-123456789012 411111******1111',
    );
  });
});
