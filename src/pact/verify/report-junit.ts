/**
 * The JUnit XML report of `verify`, for CI: one test suite per pact file, one test case per interaction and mode,
 * a `<failure>` holding every reason, pending interactions as skipped.
 *
 * @module
 */
import { junitXml } from '../../internal/junit-xml.ts';
import type { InteractionResult } from './verify-result.ts';

/**
 * Writes the results as JUnit XML.
 *
 * @example
 * writeFileSync('verify.xml', junitReport(results));
 */
export function junitReport(results: readonly InteractionResult[]): string {
  const byFile = new Map<string, InteractionResult[]>();
  for (const result of results) byFile.set(result.file, [...(byFile.get(result.file) ?? []), result]);
  return junitXml(
    'payment-contract-kit verify',
    [...byFile].map(([file, list]) => {
      const first = list[0]!;
      return {
        name: first.consumer ? `${first.consumer} -> ${first.provider} (${file})` : file,
        cases: list.map((result) => ({
          classname: file,
          name: `[${result.mode}] ${result.interaction}`,
          ...(result.ok
            ? {}
            : result.pending
              ? { skipped: `pending: ${result.reasons[0] ?? 'failed'}` }
              : {
                  failure: {
                    message: result.reasons[0] ?? 'failed',
                    type: 'mismatch',
                    text: result.reasons.join('\n'),
                  },
                }),
          // The guide a GraphQL interaction was checked against, where CI shows a case's output.
          ...(result.guide ? { systemOut: `checked against the ${result.guide} guide` } : {}),
        })),
      };
    }),
  );
}
