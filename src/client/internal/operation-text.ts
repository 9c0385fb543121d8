/**
 * The query text of the kit's six typed documents, shipped as strings so the client prints nothing at run time and
 * imports nothing (the documents are AST objects without their source). test/client/operation-text.test.ts proves
 * each text parses to the document it stands for, so the two cannot drift apart.
 *
 * @module
 */
import {
  PaymentCreditCardFeeCalcDocument,
  PaymentGatewayFeesCalcDocument,
  ProcessPaymentRequestDocument,
} from '../../index.ts';
import {
  PaymentCreditCardFeeCalcDocument as LegacyPaymentCreditCardFeeCalcDocument,
  PaymentGatewayFeesCalcDocument as LegacyPaymentGatewayFeesCalcDocument,
  ProcessPaymentRequestDocument as LegacyProcessPaymentRequestDocument,
} from '../../legacy.ts';

const cardFee =
  'query PaymentCreditCardFeeCalc($amount: Float!, $credit_card: CreditCardInput!, $contact: ContactInput!) { paymentCreditCardFeeCalc(amount: $amount, credit_card: $credit_card, contact: $contact) { amount fees total_settlement_amount card_account_uid card_type } }';
const payment = (inputType: string) =>
  `mutation ProcessPaymentRequest($input: ${inputType}!) { processPaymentRequest(input: $input) { amount payment_gateway_fee paid_at status { name } uuid } }`;

/** Query text by document object, for both guides. */
export const operationText: ReadonlyMap<object, string> = new Map<object, string>([
  [
    PaymentGatewayFeesCalcDocument,
    'query PaymentGatewayFeesCalc($amount: Float!) { paymentGatewayFeesCalc(amount: $amount) { amount fees total_settlement_amount card_type } }',
  ],
  [PaymentCreditCardFeeCalcDocument, cardFee],
  [ProcessPaymentRequestDocument, payment('ProcessPaymentRequestInput')],
  [
    LegacyPaymentGatewayFeesCalcDocument,
    'query PaymentGatewayFeesCalc($amount: Float!) { paymentGatewayFeesCalc(amount: $amount) { amount fees total card_type card_location } }',
  ],
  [LegacyPaymentCreditCardFeeCalcDocument, cardFee],
  [LegacyProcessPaymentRequestDocument, payment('ProcessPaymentInput')],
]);

/** The documents of each guide, for the client's named operations. */
export const guideDocuments = {
  current: {
    fees: PaymentGatewayFeesCalcDocument,
    cardFee: PaymentCreditCardFeeCalcDocument,
    payment: ProcessPaymentRequestDocument,
  },
  legacy: {
    fees: LegacyPaymentGatewayFeesCalcDocument,
    cardFee: LegacyPaymentCreditCardFeeCalcDocument,
    payment: LegacyProcessPaymentRequestDocument,
  },
} as const;
