import { describe, expect, it } from 'vitest';
import { testCardNumbers } from '../../../src/test-values.ts';
import { luhnValid, scanForSecrets } from './secret-scanner.ts';

const card = testCardNumbers.visaSuccess;
const amex = '378282246310005';
const cvv = '739';
const cvvs = [cvv, '4821'];

// One planted card number and one planted CVV in each kind of output the mock produces.
const planted: Record<string, string> = {
  'log line': `POST /graphql processPaymentRequest 400 1.2ms card ${card} failed; cvv=${cvv}`,
  'REST error body': JSON.stringify({ status: 'ERROR', message: `bad card ${card}`, cvv }),
  'GraphQL coercion message': JSON.stringify({
    errors: [
      {
        message: `Variable "$input" got invalid value { card_number: "${card}", cvv: "${cvv}" }; Field "x" is not defined.`,
        extensions: { reason: 'BAD_USER_INPUT' },
      },
    ],
  }),
  'GraphQL literal message': JSON.stringify({
    errors: [{ message: `String cannot represent a non string value: ${card}; found "${cvv}"` }],
  }),
  '7.3 validation body': JSON.stringify({
    errors: [
      {
        message: 'Validation failed for processPaymentRequest',
        extensions: { category: 'validation', validation: { 'input.credit_card.cvv': [`"${cvv}" is wrong`, card] } },
      },
    ],
  }),
  'control API body': JSON.stringify({ payments: [{ card_number: card, cvv, now: 1763900000000 }] }),
  'bare JSON number under another key': JSON.stringify({ card_number: Number(card), cvv: Number(cvv) }),
  'webhook body': JSON.stringify({ amount: 1, uuid: 'p', metadata: { note: `4111 1111 1111 1111`, cvv: Number(cvv) } }),
  'escaped JSON in a string': JSON.stringify({ message: JSON.stringify({ card_number: amex, cvv }) }),
};

const clean: Record<string, string> = {
  'masked card in a log line': 'POST /__nope/411111******1111 - 404 0.3ms',
  'epoch milliseconds under time keys': JSON.stringify({
    now: 1763900000000,
    at: 1763900000061,
    expiration: 1763900600,
  }),
  'UUIDs, JWTs and ids': JSON.stringify({
    uuid: '0f8fad5b-d9cb-469f-a165-707100000006',
    token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MTExMTExMTExMTExMTExIn0.a4111111111111111b',
    id: 'whd_4111111111111111x',
  }),
  'amounts and 3-digit values that were not sent as CVVs': JSON.stringify({ amount: 739.5, fees: 123, code: '123' }),
  'a CVV digit string inside a longer value': JSON.stringify({ order: 'R-7390', zip: '47391' }),
  'a Luhn-invalid 16-digit run': 'card 4111111111111112 refused',
  'an 11-digit Luhn-valid run': 'phone 41111111116',
};

describe('secret scanner', () => {
  it('checks Luhn', () => {
    expect(luhnValid(card)).toBe(true);
    expect(luhnValid(amex)).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
  });

  it.each(Object.entries(planted))('finds a planted card number and CVV in a %s', (_kind, text) => {
    const findings = scanForSecrets(text, { cvvs });
    expect(findings.filter((f) => f.kind === 'card-number').length).toBeGreaterThanOrEqual(1);
    expect(findings.filter((f) => f.kind === 'cvv').length).toBeGreaterThanOrEqual(1);
    // Findings never repeat the value they found.
    for (const f of findings) expect(f.excerpt).not.toMatch(/\d{12}/);
  });

  it.each(Object.entries(clean))('finds nothing in %s', (_kind, text) => {
    expect(scanForSecrets(text, { cvvs })).toEqual([]);
  });

  it('reports only CVVs that were sent', () => {
    expect(scanForSecrets('{"cvv":"123"}', { cvvs })).toEqual([]);
    expect(scanForSecrets('{"cvv":"123"}', { cvvs: ['123'] })).toHaveLength(1);
  });
});
