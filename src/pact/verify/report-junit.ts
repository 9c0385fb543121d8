/**
 * The JUnit XML report of `verify`, for CI: one test suite per pact file, one test case per interaction and mode,
 * a `<failure>` holding every reason, pending interactions as skipped.
 *
 * @module
 */
import type { InteractionResult } from './verify-result.ts';

function xml(text: string): string {
  return (
    text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      // XML 1.0 has no way to write most control characters; a pact may hold them.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
  );
}

/**
 * Writes the results as JUnit XML.
 *
 * @example
 * writeFileSync('verify.xml', junitReport(results));
 */
export function junitReport(results: readonly InteractionResult[]): string {
  const byFile = new Map<string, InteractionResult[]>();
  for (const result of results) byFile.set(result.file, [...(byFile.get(result.file) ?? []), result]);
  const count = (list: readonly InteractionResult[]) => ({
    tests: list.length,
    failures: list.filter((r) => !r.ok && !r.pending).length,
    skipped: list.filter((r) => !r.ok && r.pending).length,
  });
  const total = count(results);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="payment-contract-kit verify" tests="${total.tests}" failures="${total.failures}" skipped="${total.skipped}">`,
  ];
  for (const [file, list] of byFile) {
    const c = count(list);
    const first = list[0]!;
    const name = first.consumer ? `${first.consumer} -> ${first.provider} (${file})` : file;
    lines.push(`  <testsuite name="${xml(name)}" tests="${c.tests}" failures="${c.failures}" skipped="${c.skipped}">`);
    for (const result of list) {
      const open = `    <testcase classname="${xml(file)}" name="${xml(`[${result.mode}] ${result.interaction}`)}"`;
      // The guide a GraphQL interaction was checked against, where CI shows a case's output.
      const guide = result.guide
        ? `      <system-out>checked against the ${result.guide} guide</system-out>`
        : undefined;
      if (result.ok) {
        lines.push(guide ? `${open}>\n${guide}\n    </testcase>` : `${open}/>`);
        continue;
      }
      const body = xml(result.reasons.join('\n'));
      const first = xml(result.reasons[0] ?? 'failed');
      lines.push(`${open}>`);
      lines.push(
        result.pending
          ? `      <skipped message="pending: ${first}"/>`
          : `      <failure message="${first}" type="mismatch">${body}</failure>`,
      );
      if (guide) lines.push(guide);
      lines.push('    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}
