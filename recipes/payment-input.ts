// The payment the GraphQL recipes send: a test card's details for the fee, then only its card account.
import type { CardDetails, ContactInput, ProcessPaymentRequestInput } from 'payment-contract-kit';

/** A card the mock settles as `success` (the kit's `testCards.visaSuccess`). */
export const card: CardDetails = {
  full_name: 'Ada Lovelace',
  card_number: '4111111111111111',
  expiry_month: '12',
  expiry_year: '39',
  cvv: '123',
};

/** The payer. */
export const contact: ContactInput = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

/** A payment of `amount` with `fees`, paid from the card account a card fee calculation answered. */
export function paymentInput(amount: number, fees: number, card_account_uid: string): ProcessPaymentRequestInput {
  return {
    amount,
    fees,
    credit_card: { card_account_uid },
    contact,
    payment_reference: { description: 'Order 42', reference_no: 'ORD-42' },
  };
}
