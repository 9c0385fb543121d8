import type { ResultOf, VariablesOf } from '@graphql-typed-document-node/core';
import { describe, expectTypeOf, it } from 'vitest';
import type * as Current from '../../src/index.ts';
import type {
  CardAccountReference,
  CardDetails,
  ContactInput,
  CreditCardFee,
  CreditCardInput,
  Payment,
  PaymentCreditCardFeeCalcDocument,
  PaymentGatewayFee,
  PaymentGatewayFeesCalcDocument,
  ProcessPaymentInput,
  ProcessPaymentRequestDocument,
  ProcessPaymentRequestMutationVariables,
} from '../../src/legacy.ts';
import { testCardNumbers } from '../../src/test-values.ts';
import type { OptionalKeys, RequiredKeys } from './key-sets.ts';

type Maybe<T> = T | null | undefined;

describe('legacy inputs: the four differences of spec section 9', () => {
  it('CardDetails names the card number `number`, not `card_number` (2.4)', () => {
    expectTypeOf<RequiredKeys<CardDetails>>().toEqualTypeOf<
      'full_name' | 'number' | 'expiry_month' | 'expiry_year' | 'cvv'
    >();
    expectTypeOf<OptionalKeys<CardDetails>>().toEqualTypeOf<'card_account_uid'>();
    expectTypeOf<CardDetails['number']>().toEqualTypeOf<string>();
    expectTypeOf<CardDetails>().not.toHaveProperty('card_number');
  });

  it('ContactInput also requires description and reference_no (2.5)', () => {
    expectTypeOf<RequiredKeys<ContactInput>>().toEqualTypeOf<
      'first_name' | 'last_name' | 'email' | 'description' | 'reference_no'
    >();
    expectTypeOf<OptionalKeys<ContactInput>>().toEqualTypeOf<
      'address_line1' | 'city' | 'state' | 'zip' | 'country' | 'phone'
    >();
    expectTypeOf<ContactInput['description']>().toEqualTypeOf<string>();
    expectTypeOf<ContactInput['reference_no']>().toEqualTypeOf<string>();
    expectTypeOf<Current.ContactInput>().not.toHaveProperty('description');
  });

  it('ProcessPaymentInput has no payment_reference; optional fields as in the current guide (2.6)', () => {
    expectTypeOf<RequiredKeys<ProcessPaymentInput>>().toEqualTypeOf<'amount' | 'fees' | 'credit_card' | 'contact'>();
    expectTypeOf<OptionalKeys<ProcessPaymentInput>>().toEqualTypeOf<'metadata' | 'vendor_device_id' | 'ip_address'>();
    expectTypeOf<ProcessPaymentInput>().not.toHaveProperty('payment_reference');
    expectTypeOf<ProcessPaymentInput['credit_card']>().toEqualTypeOf<CreditCardInput>();
    expectTypeOf<ProcessPaymentInput['contact']>().toEqualTypeOf<ContactInput>();
    expectTypeOf<ProcessPaymentInput['metadata']>().toEqualTypeOf<Maybe<{ [key: string]: unknown }>>();
  });

  it('exports no current-guide input names', () => {
    // Each import fails, so each alias falls back to any; an unused @ts-expect-error would fail the file.
    // @ts-expect-error: the legacy guide names the payment input ProcessPaymentInput.
    type NoProcessPaymentRequestInput = import('../../src/legacy.ts').ProcessPaymentRequestInput;
    // @ts-expect-error: the legacy guide has no payment_reference type; its fields sit in the contact.
    type NoPaymentReferenceInput = import('../../src/legacy.ts').PaymentReferenceInput;
    expectTypeOf<NoProcessPaymentRequestInput>().toBeAny();
    expectTypeOf<NoPaymentReferenceInput>().toBeAny();
  });

  it('keeps the card refinement: full details or { card_account_uid } alone', () => {
    const details = {
      full_name: 'Ada Lovelace',
      number: testCardNumbers.visaSuccess,
      expiry_month: '12',
      expiry_year: '39',
      cvv: '123',
    };
    expectTypeOf(details).toExtend<CreditCardInput>();
    expectTypeOf({ card_account_uid: 'ca_1' }).toExtend<CardAccountReference>();
    expectTypeOf({ card_account_uid: 'ca_1' }).toExtend<CreditCardInput>();
    // @ts-expect-error: a uid plus some details is neither form.
    const mixed: CreditCardInput = { card_account_uid: 'ca_1', number: testCardNumbers.visaSuccess };
    const currentNames: CreditCardInput = {
      full_name: 'Ada Lovelace',
      // @ts-expect-error: the legacy guide calls this field `number`.
      card_number: testCardNumbers.visaSuccess,
      expiry_month: '12',
      expiry_year: '39',
      cvv: '123',
    };
    expectTypeOf([mixed, currentNames]).toBeArray();
  });
});

describe('legacy outputs', () => {
  it('PaymentGatewayFee has total and card_location instead of total_settlement_amount (2.2)', () => {
    expectTypeOf<PaymentGatewayFee>().toEqualTypeOf<{
      amount: number;
      fees: number;
      total: number;
      card_location: string;
      card_type: string;
    }>();
    expectTypeOf<PaymentGatewayFee>().not.toHaveProperty('total_settlement_amount');
  });

  it('CreditCardFee and Payment are as in the current guide (2.3, 2.7)', () => {
    expectTypeOf<CreditCardFee>().toEqualTypeOf<Current.CreditCardFee>();
    expectTypeOf<Payment>().toEqualTypeOf<Current.Payment>();
    expectTypeOf<Payment['status']>().toEqualTypeOf<{ name: string }>();
  });
});

describe('legacy typed documents', () => {
  it('ProcessPaymentRequestDocument: same result as the current guide, ProcessPaymentInput variables', () => {
    expectTypeOf<ResultOf<typeof ProcessPaymentRequestDocument>>().toEqualTypeOf<
      ResultOf<typeof Current.ProcessPaymentRequestDocument>
    >();
    expectTypeOf<VariablesOf<typeof ProcessPaymentRequestDocument>>().toEqualTypeOf<{ input: ProcessPaymentInput }>();
    expectTypeOf<ProcessPaymentRequestMutationVariables>().toEqualTypeOf<{ input: ProcessPaymentInput }>();
  });

  it('PaymentGatewayFeesCalcDocument selects total and card_location', () => {
    expectTypeOf<ResultOf<typeof PaymentGatewayFeesCalcDocument>>().toEqualTypeOf<{
      paymentGatewayFeesCalc: Array<{
        amount: number;
        fees: number;
        total: number;
        card_type: string;
        card_location: string;
      }>;
    }>();
  });

  it('PaymentCreditCardFeeCalcDocument takes legacy card details and contact', () => {
    expectTypeOf<VariablesOf<typeof PaymentCreditCardFeeCalcDocument>>().toEqualTypeOf<{
      amount: number;
      credit_card: CardDetails;
      contact: ContactInput;
    }>();
    expectTypeOf<ResultOf<typeof PaymentCreditCardFeeCalcDocument>>().toEqualTypeOf<{
      paymentCreditCardFeeCalc: CreditCardFee;
    }>();
  });
});
