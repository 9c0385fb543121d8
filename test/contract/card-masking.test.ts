import { describe, expect, it } from 'vitest';
import { maskCardNumber, maskDigits } from '../../src/contract/card-masking.ts';
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
