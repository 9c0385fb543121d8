/**
 * Test support: the names tests use from the service's model (`src/mock/internal/domain/`): the card and fee rules,
 * the event bus and its typed vocabulary, tokens, credentials and HS256, per-client payments and settlement, the
 * request journal.
 *
 * Tests reach `src/mock/internal/` only through `test/support/mock-internals/` (rule
 * `tests-reach-mock-internals-through-support`, `npm run check:architecture`), so a move inside the mock changes one
 * of these lists instead of every test that used the module. One module per part, not one for all: a test of the
 * clock should not load the GraphQL engine and ioredis: with a single entry for everything, every light test file
 * would pay for importing all of it.
 *
 * @module
 */
export { jwtHeaderSegment, verifyHs256 } from '../../../src/mock/internal/domain/access-tokens.ts';
export {
  cardOutcome,
  checkCardNumber,
  deriveCardAccountUid,
  detectCardType,
  type ExpiryProblem,
  expiryProblems,
  isDigits,
  luhnValid,
  testCards,
} from '../../../src/mock/internal/domain/cards.ts';
export {
  createEventBus,
  type EventBus,
  type MockEvent,
  type MockEventKind,
  okVerdict,
  verdictOf,
} from '../../../src/mock/internal/domain/events.ts';
export {
  createFeeCalculator,
  feeFor,
  feeList,
  feeRuleFor,
  roundCents,
  totalSettlementAmount,
} from '../../../src/mock/internal/domain/fees.ts';
export { createJournal } from '../../../src/mock/internal/domain/journal.ts';
export {
  type CardAccount,
  type CardAccountInput,
  createMockState,
  type MockStateOptions,
  type StoredPayment,
} from '../../../src/mock/internal/domain/payments.ts';
export { createSettlement } from '../../../src/mock/internal/domain/settlement.ts';
export { sharedJournal } from '../../../src/mock/internal/domain/shared-journal.ts';
export { createSharedPayments, type SharedPayments } from '../../../src/mock/internal/domain/shared-payments.ts';
export { createTokenService, tokenPairJson } from '../../../src/mock/internal/domain/tokens.ts';
