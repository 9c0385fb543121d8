// Typed request data of the contracts. Card numbers are the mock's documented test cards (never real cards); they
// appear in request bodies of contracts only.
import type { CardDetails, ContactInput, PaymentReferenceInput } from '../../../src/index.ts';
import type { CardDetails as LegacyCardDetails, ContactInput as LegacyContactInput } from '../../../src/legacy.ts';
import { testCardDetails, testCardNumbers } from '../../../src/test-values.ts';

export const clientId = 'test-client';
export const amount = 100;
/** visa at 100: 1.5 % + 0.30 (the kit's fee table), which the mock checks the payment's `fees` against. */
export const visaFee = 1.8;

export const card = {
  ...testCardDetails,
  card_number: testCardNumbers.visaSuccess,
} as const satisfies CardDetails;

export const legacyCard = {
  ...testCardDetails,
  number: testCardNumbers.visaSuccess,
} as const satisfies LegacyCardDetails;

export const contact = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  city: 'London',
  country: 'GB',
} as const satisfies ContactInput;

export const paymentReference = {
  description: 'Order 1001',
  reference_no: 'INV-1001',
} as const satisfies PaymentReferenceInput;

/** The legacy guide's contact carries the payment reference (spec 2.5). */
export const legacyContact = { ...contact, ...paymentReference } as const satisfies LegacyContactInput;

export const metadata = { order_id: 'order-1001' } as const;

/** A card the mock (and the service, spec 7.3) rejects as invalid before processing. */
export const rejectedCardNumber = testCardNumbers.visaRejectedAsInvalid;
