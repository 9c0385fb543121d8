// Uses the generated document: a payment with only `{ card_account_uid }` type-checks as it is, while an empty card
// or a card account mixed with card details does not (the choice is kept both ways).
import { GraphQLClient } from 'graphql-request';
import { PayFromCardAccountDocument, type PayFromCardAccountMutationVariables } from './generated/graphql.ts';

/** Pays `amount` (with its `fees`) from a card account; answers the payment as the operation selects it. */
export async function payFromCardAccount(url: string, token: string, card_account_uid: string, fees: number) {
  const variables: PayFromCardAccountMutationVariables = {
    input: {
      amount: 100,
      fees,
      credit_card: { card_account_uid },
      contact: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
      payment_reference: { description: 'Order 42', reference_no: 'ORD-42' },
    },
  };
  const client = new GraphQLClient(url, { headers: { 'x-jwt-token': token } });
  return (await client.request(PayFromCardAccountDocument, variables)).processPaymentRequest;
}

/** Card inputs the generated types refuse; tsc fails if one of them stopped being an error. */
export const refused: PayFromCardAccountMutationVariables['input']['credit_card'][] = [
  // @ts-expect-error: neither card details nor a card account
  {},
  // @ts-expect-error: a card account stands for the card; it does not come with card details
  { card_account_uid: 'ca_1', card_number: '4111111111111111' },
  // @ts-expect-error: full details need every field
  { full_name: 'Ada Lovelace', card_number: '4111111111111111' },
];
