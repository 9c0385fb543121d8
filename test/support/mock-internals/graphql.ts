/**
 * Test support: the names tests use from the mock's the GraphQL engine, its validation, redaction and limits (`src/mock/internal/graphql/`).
 *
 * Tests reach `src/mock/internal/` only through `test/support/mock-internals/` (rule
 * `tests-reach-mock-internals-through-support`, `npm run check:architecture`), so a move inside the mock changes one
 * of these lists instead of every test that used the module. One module per part, not one for all: a test of the
 * clock should not load the GraphQL engine and ioredis: with a single entry for everything, every light test file
 * would pay for importing all of it.
 *
 * @module
 */
export {
  createGraphqlEngine,
  type GraphqlEngine,
  type GraphqlEngineDeps,
  type GraphqlRequest,
  type GraphqlResult,
  isPureOperation,
} from '../../../src/mock/internal/graphql/engine.ts';
export { summarizeVariables } from '../../../src/mock/internal/graphql/engine-loader.ts';
export { createCompleter, wireSchemaOf } from '../../../src/mock/internal/graphql/executable-schema.ts';
export { guideSchemaSource as parsedGuideSchema } from '../../../src/mock/internal/graphql/guide-schema-document.ts';
export { guideSchemaSource } from '../../../src/mock/internal/graphql/guide-schema-source.ts';
export { nodeJitLoader } from '../../../src/mock/internal/graphql/jit-loader.ts';
export { limitMessage, tooDeepMessage } from '../../../src/mock/internal/graphql/limits.ts';
export {
  conflictMessage,
  decideGuide,
  documentSignals,
  type GuideSignal,
  mismatchMessage,
  variableBindings,
  variableSignals,
} from '../../../src/mock/internal/graphql/operation-plans.ts';

export { redactDocument, redactVariables, scrubMessage } from '../../../src/mock/internal/graphql/redact.ts';
export type { MockResolvers } from '../../../src/mock/internal/graphql/resolvers.ts';
export {
  compileRules,
  type ValidationRequest,
  validateCardFeeCalcArgs,
  validateCardForValidation,
  validateFeesCalcAmount,
  validatePaymentInput,
} from '../../../src/mock/internal/graphql/validation.ts';
export {
  cardNumberMessage,
  type Problems,
  ruleMessages,
  validationMessages,
  type Walk,
} from '../../../src/mock/internal/graphql/validation-messages.ts';
export {
  cardFeeCalcRules,
  cardValidationRules,
  feesCalcRules,
  type InputRule,
  paymentRules,
  rules,
} from '../../../src/mock/internal/graphql/validation-rules.ts';
export {
  buildWireSchema,
  type WirePaymentInput,
  type WireRequirements,
} from '../../../src/mock/internal/graphql/wire-schema.ts';
