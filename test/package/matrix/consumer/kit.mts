// The kit's own published declarations under `strict` with skipLibCheck off (tsconfig.kit.json), so every .d.ts
// of the kit is checked by the cell's TypeScript against the cell's graphql and msw. Deliberate errors carry an
// expect-error directive: a type that failed to resolve would be `any`, the directive would go unused, tsc would fail.
// The codegen recipe's output (generated/graphql.ts, from recipes/codegen) is checked in the same program.
import type { DocumentNode } from 'graphql';
import {
  PaymentGatewayFeesCalcDocument,
  type PaymentGatewayFeesCalcQuery,
  type ProcessPaymentRequestInput,
} from 'payment-contract-kit';
import { createPaymentClient, isValidationError } from 'payment-contract-kit/client';
import type { ProcessPaymentInput } from 'payment-contract-kit/legacy';
import { type MockServer, startMockServer } from 'payment-contract-kit/mock';
import { createMockHandlers } from 'payment-contract-kit/msw';
import { checkWebhookSignature } from 'payment-contract-kit/webhook';
import { PayFromCardAccountDocument, type PayFromCardAccountMutationVariables } from './generated/graphql.ts';

export const input: ProcessPaymentRequestInput = {
  amount: 100,
  fees: 1.8,
  credit_card: { card_account_uid: 'ca_1' },
  contact: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  payment_reference: { description: 'Invoice 42', reference_no: 'INV-42' },
};
// @ts-expect-error: amount is a number
export const wrongAmount: ProcessPaymentRequestInput['amount'] = 'ten';
// @ts-expect-error: the legacy input has no payment_reference
export const wrongLegacy: ProcessPaymentInput = { ...input };

// The kit's documents are DocumentNodes of the consumer's graphql.
export const asDocument: DocumentNode = PaymentGatewayFeesCalcDocument;
export type FeeRow = PaymentGatewayFeesCalcQuery['paymentGatewayFeesCalc'][number];
// @ts-expect-error: a fee row has no total in the current guide
export const noTotal = (row: FeeRow) => row.total;

export const client = createPaymentClient({ baseUrl: 'http://127.0.0.1:9', clientId: 'c', apiKey: 'k' });
export const validation: boolean = isValidationError(new Error('not one'));
export const started: () => Promise<MockServer> = () => startMockServer({ port: 0, log: false });
export const handlers = () => createMockHandlers({ log: false }).handlers;
export const check: typeof checkWebhookSignature = checkWebhookSignature;

// The codegen recipe: the team's own operation, typed from the kit's input types.
export const generated: PayFromCardAccountMutationVariables = {
  input: { ...input, credit_card: { card_account_uid: 'ca_2' } },
};
export const generatedDocument: DocumentNode = PayFromCardAccountDocument;
type GeneratedCard = PayFromCardAccountMutationVariables['input']['credit_card'];
const mixed = { card_account_uid: 'c', card_number: '4111111111111111' };
// @ts-expect-error: a card account stands for the card; it does not come with card details
export const mixedCard: GeneratedCard = mixed;
