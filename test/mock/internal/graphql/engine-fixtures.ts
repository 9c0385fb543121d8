import { print } from 'graphql/index.js';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import * as current from '../../../../src/index.ts';
import * as legacy from '../../../../src/legacy.ts';
import { createMockState, testCards } from '../../../support/mock-internals/domain.ts';
import { createClock, createSeededRandom } from '../../../support/mock-internals/foundations.ts';
import {
  createGraphqlEngine,
  type GraphqlEngine,
  type GraphqlEngineDeps,
  nodeJitLoader,
} from '../../../support/mock-internals/graphql.ts';
import { nodeCrypto } from '../../../support/mock-internals/platform.ts';

/** The shipped operations of both guides, as query text. */
export const q = {
  fees: print(current.PaymentGatewayFeesCalcDocument),
  cardFee: print(current.PaymentCreditCardFeeCalcDocument),
  pay: print(current.ProcessPaymentRequestDocument),
  legacyFees: print(legacy.PaymentGatewayFeesCalcDocument),
  legacyCardFee: print(legacy.PaymentCreditCardFeeCalcDocument),
  legacyPay: print(legacy.ProcessPaymentRequestDocument),
};

/** A valid current-guide card (the Visa test card that settles as success). */
export const card = {
  full_name: 'Ada',
  card_number: testCards.visaSuccess.number,
  expiry_month: '12',
  expiry_year: '31',
  cvv: '123',
};
const { card_number, ...cardRest } = card;
/** The same card in the legacy guide's shape (`number` instead of `card_number`). */
export const legacyCard = { ...cardRest, number: card_number };
export const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
export const reference = { description: 'Order 1', reference_no: 'R-1' };
/** The legacy guide's contact, which carries the payment reference fields. */
export const legacyContact = { ...contact, ...reference };
/** A valid current-guide payment input (fee 1.80 for 100 on a Visa card). */
export const payInput = { amount: 100, fees: 1.8, credit_card: card, contact, payment_reference: reference };
/** The same payment in the legacy guide's shape. */
export const legacyPayInput = { amount: 100, fees: 1.8, credit_card: legacyCard, contact: legacyContact };

/** The engine as the engine tests build it: seeded state and random, the clock fixed at 15 June 2030. */
export function testEngine(overrides: Partial<GraphqlEngineDeps> = {}, seed = 'seed'): GraphqlEngine {
  const assumptions = overrides.assumptions ?? defaultAssumptions;
  return createGraphqlEngine({
    assumptions,
    guide: 'current',
    state: createMockState({ assumptions, seed, sha256Hex: nodeCrypto.sha256Hex }),
    clock: createClock({ realNow: () => Date.UTC(2030, 5, 15) }),
    random: createSeededRandom(seed, nodeCrypto.sha512Hex),
    onPaymentAccepted: () => {},
    jit: nodeJitLoader,
    ...overrides,
  });
}
