import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { PaymentGatewayFeesCalcDocument } from '../../src/index.ts';
import { exampleValues } from '../../src/pact/example-values.ts';
import {
  authErrorBody,
  creditCardFee,
  feeEntry,
  graphqlData,
  graphqlErrorStatus,
  legacyFeeEntry,
  payment,
  validationErrorBody,
} from '../../src/pact/graphql-matchers.ts';
import { errorCodePattern, iso8601Pattern } from '../../src/pact/internal/primitives.ts';

type Rule = Record<string, unknown>;
const rule = (template: unknown, key: string) => (template as Record<string, Rule>)[key]!;

describe('fee entries', () => {
  it.each([
    ['feeEntry', feeEntry(), ['amount', 'fees', 'total_settlement_amount', 'card_type']],
    ['legacyFeeEntry', legacyFeeEntry(), ['amount', 'fees', 'total', 'card_type', 'card_location']],
    ['creditCardFee', creditCardFee(), ['amount', 'fees', 'total_settlement_amount', 'card_account_uid', 'card_type']],
  ])('%s names exactly the selected fields', (_name, template, fields) => {
    expect(Object.keys(template as object)).toEqual(fields);
  });

  it('matches money as numbers (whole amounts included) and names as strings', () => {
    const entry = feeEntry({ amount: 250, fees: 4.05 });
    expect(rule(entry, 'amount')['pact:matcher:type']).toBe('number');
    expect(rule(entry, 'card_type')['pact:matcher:type']).toBe('type');
    expect(MatchersV3.reify(entry)).toEqual({
      amount: 250,
      fees: 4.05,
      total_settlement_amount: 254.05,
      card_type: 'visa',
    });
  });

  it('gives the legacy entry total and card_location', () => {
    expect(MatchersV3.reify(legacyFeeEntry())).toEqual({
      amount: 100,
      fees: 1.8,
      total: 101.8,
      card_type: 'visa',
      card_location: 'domestic',
    });
  });

  it('matches card_account_uid as any string', () => {
    expect(rule(creditCardFee(), 'card_account_uid')['pact:matcher:type']).toBe('type');
  });
});

describe('payment', () => {
  it('pins status.name processing and matches paid_at and uuid by pattern', () => {
    const p = payment() as unknown as Record<string, Rule>;
    expect(p.status).toEqual({ name: 'processing' });
    expect(p.paid_at?.regex).toBe(iso8601Pattern);
    expect(p.uuid?.['pact:matcher:type']).toBe('regex');
    expect(MatchersV3.reify(p)).toEqual({
      amount: 100,
      payment_gateway_fee: 1.8,
      paid_at: exampleValues.paidAt,
      status: { name: 'processing' },
      uuid: exampleValues.paymentUuid,
    });
  });

  it.each([
    ['2026-01-01T09:40:00.000Z', true],
    ['2026-01-01T09:40:00Z', true],
    ['2026-01-01T09:40:00.123456+10:00', true],
    ['2026-01-01 09:40:00', false],
    ['2026-01-01', false],
  ])('accepts %s as ISO 8601: %s', (value, ok) => {
    expect(new RegExp(iso8601Pattern).test(value)).toBe(ok);
  });
});

describe('graphqlData', () => {
  it('wraps the template in data', () => {
    const data = { paymentGatewayFeesCalc: MatchersV3.eachLike(feeEntry()) };
    expect(graphqlData(PaymentGatewayFeesCalcDocument, data)).toEqual({ data });
  });
});

describe('validationErrorBody', () => {
  it('pins category and the input paths, matches messages by type', () => {
    const body = validationErrorBody('processPaymentRequest', {
      'input.contact': 'The input.contact field is required.',
    });
    expect(MatchersV3.reify(body)).toEqual({
      errors: [
        {
          message: 'Validation failed for the field [processPaymentRequest].',
          extensions: {
            category: 'validation',
            validation: { 'input.contact': ['The input.contact field is required.'] },
          },
        },
      ],
    });
    const [entry] = (body.errors as unknown as { value: { extensions: { category: unknown } }[] }).value;
    expect(entry?.extensions.category).toBe('validation');
  });
});

describe('authErrorBody', () => {
  it.each(Object.entries(defaultAssumptions.reasonCodes))('accepts the kit’s %s code %s', (_name, code) => {
    expect(new RegExp(errorCodePattern).test(code)).toBe(true);
    expect(MatchersV3.reify(authErrorBody(code))).toMatchObject({ errors: [{ extensions: { reason: code } }] });
  });

  it.each(['token expired', 'tokenExpired', ''])('rejects %j as a reason code', (code) => {
    expect(new RegExp(errorCodePattern).test(code)).toBe(false);
  });
});

describe('graphqlErrorStatus', () => {
  it('defaults to the kit’s assumed status and accepts 200 and the usual 4xx', () => {
    const status = graphqlErrorStatus();
    expect(status.value).toBe(defaultAssumptions.graphqlErrorHttpStatus);
    expect(status.status).toEqual([200, 400, 401, 403, 422]);
  });
});
