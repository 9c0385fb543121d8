/**
 * Which guide a GraphQL interaction is checked against. `--guide current` or `--guide legacy` decides for every
 * interaction. With `--guide both`, a pact says which guide it speaks through its consumer or provider name (the
 * word "legacy" or "current", as in the kit's own `payment-contract-kit-legacy-guide`); a pact that names neither
 * gets, per interaction, the guide whose schema it agrees with, the current guide first. That mirrors the mock,
 * which in `both` mode picks a request's guide from the names it uses and defaults to the current guide.
 *
 * @module
 */
import type { GuideName } from '../../contract/check/graphql-schemas.ts';
import type { Mismatch } from './mismatch.ts';

/** The `--guide` choices. */
export type GuideOption = GuideName | 'both';

/**
 * The guide a pact names for itself, if any.
 *
 * @example
 * guideNamedBy('payment-contract-kit-legacy-guide', 'card-payment-service'); // 'legacy'
 */
export function guideNamedBy(consumer: string, provider: string): GuideName | undefined {
  const names = `${consumer} ${provider}`;
  if (/\blegacy\b/i.test(names)) return 'legacy';
  if (/\bcurrent\b/i.test(names)) return 'current';
  return undefined;
}

/**
 * Runs `check` for the guide or guides the option and the pact allow; answers the guide used and its mismatches.
 *
 * @example
 * chooseGuide('both', undefined, (guide) => checkGraphqlInteraction(interaction, guide));
 */
export function chooseGuide(
  option: GuideOption,
  named: GuideName | undefined,
  check: (guide: GuideName) => Mismatch[],
): { guide: GuideName; mismatches: Mismatch[] } {
  if (option !== 'both') return { guide: option, mismatches: check(option) };
  if (named) return { guide: named, mismatches: check(named) };
  const current = check('current');
  if (current.length === 0) return { guide: 'current', mismatches: current };
  const legacy = check('legacy');
  return legacy.length === 0 ? { guide: 'legacy', mismatches: legacy } : { guide: 'current', mismatches: current };
}
