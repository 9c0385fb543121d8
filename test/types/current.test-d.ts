import type { ResultOf, VariablesOf } from '@graphql-typed-document-node/core';
import { describe, expectTypeOf, it } from 'vitest';
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
  PaymentReferenceInput,
  PaymentStatusWebhookHeaders,
  PaymentStatusWebhookPayload,
  ProcessPaymentRequestDocument,
  ProcessPaymentRequestInput,
  TokenEndpointPath,
  TokenPairResponse,
} from '../../src/index.ts';
import { testCardNumbers } from '../../src/test-values.ts';
import type { OptionalKeys, RequiredKeys } from './key-sets.ts';

// Optional GraphQL inputs are `InputMaybe<T>`: null or left out.
type Maybe<T> = T | null | undefined;

describe('input types (spec 2.4-2.6)', () => {
  it('CardDetails: every card field required, card_account_uid optional (2.4)', () => {
    expectTypeOf<RequiredKeys<CardDetails>>().toEqualTypeOf<
      'full_name' | 'card_number' | 'expiry_month' | 'expiry_year' | 'cvv'
    >();
    expectTypeOf<OptionalKeys<CardDetails>>().toEqualTypeOf<'card_account_uid'>();
    expectTypeOf<CardDetails['card_number']>().toEqualTypeOf<string>();
    expectTypeOf<CardDetails['expiry_month']>().toEqualTypeOf<string>();
    expectTypeOf<CardDetails['card_account_uid']>().toEqualTypeOf<Maybe<string>>();
  });

  it('ContactInput: names and email required, the address and phone optional (2.5)', () => {
    expectTypeOf<RequiredKeys<ContactInput>>().toEqualTypeOf<'first_name' | 'last_name' | 'email'>();
    expectTypeOf<OptionalKeys<ContactInput>>().toEqualTypeOf<
      'address_line1' | 'city' | 'state' | 'zip' | 'country' | 'phone'
    >();
    expectTypeOf<ContactInput['email']>().toEqualTypeOf<string>();
    expectTypeOf<ContactInput['zip']>().toEqualTypeOf<Maybe<string>>();
  });

  it('PaymentReferenceInput: description and reference_no, both required (2.6)', () => {
    expectTypeOf<RequiredKeys<PaymentReferenceInput>>().toEqualTypeOf<'description' | 'reference_no'>();
    expectTypeOf<OptionalKeys<PaymentReferenceInput>>().toEqualTypeOf<never>();
    expectTypeOf<PaymentReferenceInput>().toEqualTypeOf<{ description: string; reference_no: string }>();
  });

  it('ProcessPaymentRequestInput: metadata, vendor_device_id and ip_address optional, the rest required (2.6)', () => {
    expectTypeOf<RequiredKeys<ProcessPaymentRequestInput>>().toEqualTypeOf<
      'amount' | 'fees' | 'credit_card' | 'contact' | 'payment_reference'
    >();
    expectTypeOf<OptionalKeys<ProcessPaymentRequestInput>>().toEqualTypeOf<
      'metadata' | 'vendor_device_id' | 'ip_address'
    >();
    expectTypeOf<ProcessPaymentRequestInput['amount']>().toEqualTypeOf<number>();
    expectTypeOf<ProcessPaymentRequestInput['fees']>().toEqualTypeOf<number>();
    expectTypeOf<ProcessPaymentRequestInput['credit_card']>().toEqualTypeOf<CreditCardInput>();
    expectTypeOf<ProcessPaymentRequestInput['contact']>().toEqualTypeOf<ContactInput>();
    expectTypeOf<ProcessPaymentRequestInput['payment_reference']>().toEqualTypeOf<PaymentReferenceInput>();
    // A JSON object, echoed in the webhook: not any, not a string.
    expectTypeOf<ProcessPaymentRequestInput['metadata']>().toEqualTypeOf<Maybe<{ [key: string]: unknown }>>();
    expectTypeOf<ProcessPaymentRequestInput['vendor_device_id']>().toEqualTypeOf<Maybe<string>>();
    expectTypeOf<ProcessPaymentRequestInput['ip_address']>().toEqualTypeOf<Maybe<string>>();
  });
});

describe('credit_card: full details or { card_account_uid } alone (spec 4.6 rule 3)', () => {
  const details = {
    full_name: 'Ada Lovelace',
    card_number: testCardNumbers.visaSuccess,
    expiry_month: '12',
    expiry_year: '39',
    cvv: '123',
  };

  it('accepts full details, with or without a card_account_uid', () => {
    expectTypeOf(details).toExtend<CreditCardInput>();
    expectTypeOf({ ...details, card_account_uid: 'ca_1' }).toExtend<CreditCardInput>();
  });

  it('accepts a card_account_uid alone', () => {
    expectTypeOf({ card_account_uid: 'ca_1' }).toExtend<CreditCardInput>();
    expectTypeOf({ card_account_uid: 'ca_1' }).toExtend<CardAccountReference>();
  });

  it('rejects a card_account_uid mixed with part of the details, and partial details alone', () => {
    // @ts-expect-error: a uid plus some details is neither form; send all details or the uid alone.
    const mixed: CreditCardInput = { card_account_uid: 'ca_1', cvv: '123' };
    // @ts-expect-error: without a uid every detail is required.
    const partial: CreditCardInput = { full_name: 'Ada Lovelace', card_number: testCardNumbers.visaSuccess };
    // @ts-expect-error: an empty card names no card at all.
    const empty: CreditCardInput = {};
    expectTypeOf([mixed, partial, empty]).toBeArray();
    expectTypeOf({ card_account_uid: 'ca_1', cvv: '123' }).not.toExtend<CreditCardInput>();
  });

  it('carries the refinement into ProcessPaymentRequestInput', () => {
    const base = {
      amount: 100,
      fees: 1.8,
      contact: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
      payment_reference: { description: 'Invoice 42', reference_no: 'INV-42' },
    };
    expectTypeOf({ ...base, credit_card: { card_account_uid: 'ca_1' } }).toExtend<ProcessPaymentRequestInput>();
    expectTypeOf({ ...base, credit_card: details }).toExtend<ProcessPaymentRequestInput>();
    expectTypeOf({
      ...base,
      credit_card: { card_account_uid: 'ca_1', cvv: '1' },
    }).not.toExtend<ProcessPaymentRequestInput>();
    // payment_reference is required in the current guide (spec 4.6 rule 1).
    const { payment_reference: _, ...withoutReference } = base;
    expectTypeOf({ ...withoutReference, credit_card: details }).not.toExtend<ProcessPaymentRequestInput>();
  });
});

describe('output types (spec 2.2, 2.3, 2.7)', () => {
  it('PaymentGatewayFee has exactly amount, fees, total_settlement_amount, card_type', () => {
    expectTypeOf<PaymentGatewayFee>().toEqualTypeOf<{
      amount: number;
      fees: number;
      total_settlement_amount: number;
      card_type: string;
    }>();
  });

  it('CreditCardFee adds the reusable card_account_uid', () => {
    expectTypeOf<CreditCardFee>().toEqualTypeOf<{
      amount: number;
      fees: number;
      total_settlement_amount: number;
      card_account_uid: string;
      card_type: string;
    }>();
  });

  it('Payment has status as { name: string }', () => {
    expectTypeOf<Payment['status']>().toEqualTypeOf<{ name: string }>();
    expectTypeOf<RequiredKeys<Payment>>().toEqualTypeOf<
      'amount' | 'payment_gateway_fee' | 'paid_at' | 'status' | 'uuid'
    >();
    expectTypeOf<Omit<Payment, 'status'>>().toEqualTypeOf<{
      amount: number;
      payment_gateway_fee: number;
      paid_at: string;
      uuid: string;
    }>();
  });
});

describe('webhook and REST types (spec 2.1, 6)', () => {
  it('PaymentStatusWebhookPayload has status as a plain string and optional metadata', () => {
    expectTypeOf<PaymentStatusWebhookPayload['status']>().toEqualTypeOf<string>();
    expectTypeOf<RequiredKeys<PaymentStatusWebhookPayload>>().toEqualTypeOf<
      'amount' | 'payment_gateway_fee' | 'paid_at' | 'status' | 'uuid'
    >();
    expectTypeOf<OptionalKeys<PaymentStatusWebhookPayload>>().toEqualTypeOf<'metadata'>();
    expectTypeOf<NonNullable<PaymentStatusWebhookPayload['metadata']>>().toExtend<Record<string, unknown>>();
  });

  it('names the two webhook headers', () => {
    expectTypeOf<keyof PaymentStatusWebhookHeaders>().toEqualTypeOf<'x-webhook-signing-key' | 'x-client-id'>();
  });

  it('types the token pair (2.1) and the three REST paths', () => {
    expectTypeOf<TokenPairResponse>().toEqualTypeOf<{
      status: 'SUCCESS';
      data: { token: string; refresh_token: string; expiration: number };
    }>();
    expectTypeOf<TokenEndpointPath>().toEqualTypeOf<
      | '/api/v2/accounting/token/generate-token'
      | '/api/v2/accounting/token/refresh-token'
      | '/api/v2/accounting/token/revoke-token'
    >();
  });
});

describe('typed documents', () => {
  it('ProcessPaymentRequestDocument: result is the spec selection, variables take the refined input', () => {
    expectTypeOf<ResultOf<typeof ProcessPaymentRequestDocument>>().toEqualTypeOf<{
      processPaymentRequest: {
        amount: number;
        payment_gateway_fee: number;
        paid_at: string;
        uuid: string;
        status: { name: string };
      };
    }>();
    expectTypeOf<VariablesOf<typeof ProcessPaymentRequestDocument>>().toEqualTypeOf<{
      input: ProcessPaymentRequestInput;
    }>();
  });

  it('PaymentGatewayFeesCalcDocument: $amount in, a list of fee entries out', () => {
    expectTypeOf<VariablesOf<typeof PaymentGatewayFeesCalcDocument>>().toEqualTypeOf<{ amount: number }>();
    expectTypeOf<ResultOf<typeof PaymentGatewayFeesCalcDocument>>().toEqualTypeOf<{
      paymentGatewayFeesCalc: Array<{
        amount: number;
        fees: number;
        total_settlement_amount: number;
        card_type: string;
      }>;
    }>();
  });

  it('PaymentCreditCardFeeCalcDocument: amount, credit_card and contact in, one card fee out', () => {
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
