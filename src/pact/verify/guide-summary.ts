/**
 * Which guide `verify` checked the GraphQL interactions against, said where a reader cannot miss it: counts in the
 * summary (text and JSON), the guide on each interaction's line, and a warning on standard error, in every format,
 * when `--guide both` found a pact that does not name its guide written entirely (or partly) in the legacy guide's
 * names. The run is not failed for it: the legacy guide is a guide the service documents, and a pact written for it
 * verifies; but a team that meant the current interface learns it here, not from the service (decisions/0009-one-checker.md).
 *
 * @module
 */
import { kitMessage } from '../../internal/messages.ts';
import { type GuideOption, guideNamedBy } from './guide-choice.ts';
import type { InteractionResult } from './verify-result.ts';

/** GraphQL interactions per guide (static results; each interaction counted once). */
export interface GuideCounts {
  readonly current: number;
  readonly legacy: number;
}

/**
 * Counts the static GraphQL results per guide.
 *
 * @example
 * guideCounts(results); // { current: 20, legacy: 7 }
 */
export function guideCounts(results: readonly InteractionResult[]): GuideCounts {
  const graphql = results.filter((r) => r.mode === 'static' && r.kind === 'graphql');
  return {
    current: graphql.filter((r) => r.guide === 'current').length,
    legacy: graphql.filter((r) => r.guide === 'legacy').length,
  };
}

/**
 * The warnings for pacts whose guide `--guide both` chose by itself: one per pact file whose GraphQL interactions
 * are all, or partly, in the legacy guide while the pact's names say nothing of a guide.
 *
 * @example
 * for (const line of guideWarnings(results, 'both')) process.stderr.write(`${line}\n`);
 */
export function guideWarnings(results: readonly InteractionResult[], option: GuideOption): string[] {
  if (option !== 'both') return [];
  const byFile = new Map<string, InteractionResult[]>();
  for (const r of results)
    if (r.mode === 'static' && r.kind === 'graphql' && !guideNamedBy(r.consumer, r.provider))
      byFile.set(r.file, [...(byFile.get(r.file) ?? []), r]);
  const warnings: string[] = [];
  for (const [file, list] of byFile) {
    const legacy = list.filter((r) => r.guide === 'legacy').length;
    if (legacy === 0) continue;
    warnings.push(
      kitMessage(
        legacy === list.length
          ? `verify: every GraphQL interaction of ${file} (${legacy}) uses the legacy guide's names (total, card_location, number, ProcessPaymentInput, the contact's reference_no), so --guide both checked it against the legacy guide. If the pact is meant for the current interface, move it to the current names; if it is meant for the legacy guide, say so with --guide legacy or the word "legacy" in its consumer or provider name.`
          : `verify: ${file} mixes the guides: ${legacy} of its ${list.length} GraphQL interactions use the legacy guide's names and were checked against it. Write the pact in one guide; run with --guide current to see what the current interface rejects.`,
      ),
    );
  }
  return warnings;
}
