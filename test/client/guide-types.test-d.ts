// The client's types follow its guide: results and inputs of the named operations come from the generated operation
// types of that guide, and `execute` takes its types from the document.
import { describe, expectTypeOf, it } from 'vitest';
import {
  createPaymentClient,
  type InvalidCardError,
  type PaymentClient,
  type ValidationError,
  type ValidationFields,
} from '../../src/client/index.ts';
import type * as Current from '../../src/index.ts';
import { PaymentGatewayFeesCalcDocument } from '../../src/index.ts';
import type * as Legacy from '../../src/legacy.ts';

const options = { baseUrl: 'http://127.0.0.1:1', clientId: 'c', apiKey: 'k' };

describe('guide typing', () => {
  it('defaults to the current guide', () => {
    expectTypeOf(createPaymentClient(options)).toEqualTypeOf<PaymentClient<'current'>>();
    expectTypeOf(createPaymentClient({ ...options, guide: 'legacy' })).toEqualTypeOf<PaymentClient<'legacy'>>();
  });

  it('current guide: fee list with total_settlement_amount, input ProcessPaymentRequestInput', () => {
    type Client = PaymentClient<'current'>;
    expectTypeOf<Awaited<ReturnType<Client['feesFor']>>>().toEqualTypeOf<
      Current.PaymentGatewayFeesCalcQuery['paymentGatewayFeesCalc']
    >();
    expectTypeOf<Parameters<Client['processPayment']>[0]>().toEqualTypeOf<Current.ProcessPaymentRequestInput>();
    expectTypeOf<Awaited<ReturnType<Client['processPayment']>>>().toEqualTypeOf<
      Current.ProcessPaymentRequestMutation['processPaymentRequest']
    >();
  });

  it('legacy guide: fee list with total and card_location, input ProcessPaymentInput', () => {
    type Client = PaymentClient<'legacy'>;
    expectTypeOf<Awaited<ReturnType<Client['feesFor']>>>().toEqualTypeOf<
      Legacy.PaymentGatewayFeesCalcQuery['paymentGatewayFeesCalc']
    >();
    expectTypeOf<Parameters<Client['processPayment']>[0]>().toEqualTypeOf<Legacy.ProcessPaymentInput>();
    expectTypeOf<Parameters<Client['cardFee']>[0]>().toEqualTypeOf<Legacy.PaymentCreditCardFeeCalcQueryVariables>();
  });

  it('execute: result and variables from the typed document', () => {
    const client = createPaymentClient(options);
    expectTypeOf(
      client.execute(PaymentGatewayFeesCalcDocument, { amount: 1 }),
    ).resolves.toEqualTypeOf<Current.PaymentGatewayFeesCalcQuery>();
    // @ts-expect-error: amount is a number
    void client.execute(PaymentGatewayFeesCalcDocument, { amount: 'ten' });
  });
});

describe('ValidationError.fields', () => {
  it('assigns to and merges into a map a team builds itself (issue 25: it was readonly arrays)', () => {
    const error = {} as ValidationError;
    const mine: Record<string, string[]> = { 'input.amount': ['too small'] };
    const merged: Record<string, string[]> = { ...mine, ...error.fields };
    merged['input.contact']?.push('see the form');
    expectTypeOf(error.fields).toEqualTypeOf<ValidationFields>();
    expectTypeOf(error.fields).toMatchTypeOf<Record<string, string[]>>();
    expectTypeOf<InvalidCardError['cardMessages']>().toEqualTypeOf<string[]>();
  });
});
