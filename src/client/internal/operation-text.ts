/**
 * The query text of the kit's six typed documents, by document object. The texts are generated from `operations/`
 * (`src/contract/operations.ts`), so the client prints nothing at run time; test/client/operation-text.test.ts proves
 * each text parses to the document it stands for.
 *
 * @module
 */
import { operationText as textOf } from '../../contract/operations.ts';
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

/** Query text by document object, for both guides. */
export const operationText: ReadonlyMap<object, string> = new Map<object, string>([
  [PaymentGatewayFeesCalcDocument, textOf('current', 'PaymentGatewayFeesCalc')],
  [PaymentCreditCardFeeCalcDocument, textOf('current', 'PaymentCreditCardFeeCalc')],
  [ProcessPaymentRequestDocument, textOf('current', 'ProcessPaymentRequest')],
  [LegacyPaymentGatewayFeesCalcDocument, textOf('legacy', 'PaymentGatewayFeesCalc')],
  [LegacyPaymentCreditCardFeeCalcDocument, textOf('legacy', 'PaymentCreditCardFeeCalc')],
  [LegacyProcessPaymentRequestDocument, textOf('legacy', 'ProcessPaymentRequest')],
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
