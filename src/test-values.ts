/**
 * Test values of the kit, written once: the documented test card numbers, the rest of a valid test card (holder,
 * expiry, CVV) and the example `card_account_uid`. The mock's test-card table, the Pact examples, the benchmark and
 * the tests import them from here. All are test data, never real cards; the kit prints card numbers only masked
 * (first 6 + last 4 digits) and never prints a CVV.
 *
 * This module imports nothing, so an entry that needs a value pulls in nothing else at run time.
 *
 * @module
 */

/**
 * The documented test card numbers (all Luhn-valid); their outcomes are in the mock's test-card table.
 *
 * @example
 * const card = { ...testCardDetails, card_number: testCardNumbers.visaSuccess };
 */
export const testCardNumbers = {
  visaSuccess: '4111111111111111',
  mastercardSuccess: '5555555555554444',
  amexSuccess: '378282246310005',
  dinersSuccess: '36227206271667',
  visaSettlesAsFailure: '4000000000000002',
  visaRejectedAsInvalid: '4000000000000069',
  visaStaysProcessing: '4000000000000259',
} as const;

/**
 * The rest of a valid test card: holder, an expiry far enough ahead (12/39) and a CVV.
 *
 * @example
 * const card = { ...testCardDetails, card_number: testCardNumbers.mastercardSuccess };
 */
export const testCardDetails = {
  full_name: 'Ada Lovelace',
  expiry_month: '12',
  expiry_year: '39',
  cvv: '123',
} as const;

/**
 * An example `card_account_uid` (spec 2.3 gives only a string; the kit's examples use a uuid).
 *
 * @example
 * const input = { card_account_uid: exampleCardAccountUid };
 */
export const exampleCardAccountUid = '7c1e9f2a-3b4d-4c5e-8f6a-1b2c3d4e5f60';

/**
 * A card number masked the way the kit prints it: first 6 and last 4 digits, the rest as `*`.
 *
 * @example
 * maskedTestCard(testCardNumbers.visaSuccess); // '411111******1111'
 */
export function maskedTestCard(cardNumber: string): string {
  return `${cardNumber.slice(0, 6)}${'*'.repeat(Math.max(0, cardNumber.length - 10))}${cardNumber.slice(-4)}`;
}
