/**
 * JUnit XML, the report format CI servers read: one writer for every command that reports in it (`check`, `verify`),
 * so escaping and counting are done once. Callers map their results to suites and cases; this module knows nothing
 * of drifts or pacts.
 *
 * @module
 */

/** One test case: passed, failed (with a message, a type and the full text) or skipped. */
export interface JunitCase {
  readonly classname: string;
  readonly name: string;
  readonly failure?: { readonly message: string; readonly type: string; readonly text: string };
  /** Why the case did not run (a pending pact interaction); ignored when `failure` is set. */
  readonly skipped?: string;
  /** Text CI shows beside the case (the guide an interaction was checked against, say). */
  readonly systemOut?: string;
}

/** One test suite (a file: a HAR file, a pact file). */
export interface JunitSuite {
  readonly name: string;
  readonly cases: readonly JunitCase[];
}

/** Escapes text for an XML 1.0 attribute or element, dropping the control characters XML 1.0 cannot hold. */
export function xmlText(text: string): string {
  return (
    text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      // A pact or a HAR file may hold them, and there is no way to write them in XML 1.0.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
  );
}

function counts(cases: readonly JunitCase[]): string {
  const failures = cases.filter((c) => c.failure).length;
  const skipped = cases.filter((c) => !c.failure && c.skipped !== undefined).length;
  return `tests="${cases.length}" failures="${failures}" skipped="${skipped}"`;
}

function caseXml(c: JunitCase): string {
  const open = `    <testcase classname="${xmlText(c.classname)}" name="${xmlText(c.name)}"`;
  const inner: string[] = [];
  if (c.failure)
    inner.push(
      `      <failure message="${xmlText(c.failure.message)}" type="${xmlText(c.failure.type)}">${xmlText(c.failure.text)}</failure>`,
    );
  else if (c.skipped !== undefined) inner.push(`      <skipped message="${xmlText(c.skipped)}"/>`);
  if (c.systemOut !== undefined) inner.push(`      <system-out>${xmlText(c.systemOut)}</system-out>`);
  return inner.length === 0 ? `${open}/>` : [`${open}>`, ...inner, '    </testcase>'].join('\n');
}

/**
 * The whole document: `<testsuites name>` with the totals, a `<testsuite>` per suite with its own.
 *
 * @example
 * junitXml('payment-contract-kit check', [{ name: 'traffic.har', cases: [{ classname: 'traffic.har', name: '#1 POST /graphql' }] }]);
 */
export function junitXml(name: string, suites: readonly JunitSuite[]): string {
  const all = suites.flatMap((s) => s.cases);
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="${xmlText(name)}" ${counts(all)}>`];
  for (const suite of suites) {
    lines.push(`  <testsuite name="${xmlText(suite.name)}" ${counts(suite.cases)}>`);
    for (const c of suite.cases) lines.push(caseXml(c));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}
