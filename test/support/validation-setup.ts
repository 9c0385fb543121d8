/**
 * What the GraphQL validation unit tests validate against: both guides' wire requirements, a fixed "now" (15 June
 * 2030 UTC, for expiry checks), a mock state for card accounts and the validators' dependencies, and a valid card.
 *
 * @module
 */
import { currentSchemaSdl, legacySchemaSdl } from '../../generated/schema-sdl.ts';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { createFeeCalculator, createMockState, testCards } from './mock-internals/domain.ts';
import { buildWireSchema } from './mock-internals/graphql.ts';
import { nodeCrypto } from './mock-internals/platform.ts';

/** The wire requirements of each guide's schema. */
export const requirements = {
  current: buildWireSchema(currentSchemaSdl).requirements,
  legacy: buildWireSchema(legacySchemaSdl).requirements,
};

/** 15 June 2030 UTC: the validators' "now". */
export const NOW = Date.UTC(2030, 5, 15);

/** A fresh mock state (card accounts) and the validators' dependencies on it, with the default assumptions. */
export function validationSetup() {
  const state = createMockState({ assumptions: defaultAssumptions, seed: 'seed', sha256Hex: nodeCrypto.sha256Hex });
  const deps = {
    assumptions: defaultAssumptions,
    state,
    fees: createFeeCalculator(defaultAssumptions),
    now: () => NOW,
  };
  return { state, deps };
}

/** A valid current-guide card (the Visa test card that succeeds), expiring December 2031. */
export const validCard = {
  full_name: 'Ada Lovelace',
  card_number: testCards.visaSuccess.number,
  expiry_month: '12',
  expiry_year: '31',
  cvv: '123',
};
