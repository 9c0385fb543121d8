/**
 * The text report of `verify`: one line per interaction and mode, its reason on the same line (several reasons each
 * on a line of its own below it, so a pact with many problems stays readable), and a summary.
 *
 * @module
 */
import type { GuideCounts } from './guide-summary.ts';
import type { InteractionResult } from './verify-result.ts';

const kindLabel: Readonly<Record<InteractionResult['kind'], string>> = {
  graphql: 'GraphQL',
  rest: 'REST',
  message: 'message',
  other: 'other',
  file: 'file',
};

function status(result: InteractionResult): string {
  if (result.ok) return 'PASS';
  return result.pending ? 'PEND' : 'FAIL';
}

/**
 * The text of a result: one line, and below it one indented line per reason when there are several.
 *
 * @example
 * textLine(result);
 * // 'FAIL static  "a request for the fee list" (pacts/web.json, GraphQL, current guide): response.body $.data…'
 */
export function textLine(result: InteractionResult): string {
  const what = [result.file, kindLabel[result.kind], result.guide && `${result.guide} guide`]
    .filter(Boolean)
    .join(', ');
  const head = `${status(result)} ${result.mode.padEnd(7)} "${result.interaction}" (${what})`;
  if (result.ok) return head;
  const pending = result.pending ? ' [pending: does not fail the run]' : '';
  if (result.reasons.length === 0) return `${head}${pending}`;
  if (result.reasons.length === 1) return `${head}${pending}: ${result.reasons[0]}`;
  return `${head}${pending}: ${result.reasons.length} problems\n${result.reasons.map((r) => `    - ${r}`).join('\n')}`;
}

/**
 * The summary line: counts per mode, then the guides the GraphQL interactions were checked against.
 *
 * @example
 * summaryLine(results, 27, undefined, { current: 20, legacy: 7 });
 * // '27 interactions: static 27 passed, 0 failed; dynamic not run; GraphQL checked against the current guide 20, the legacy guide 7'
 */
export function summaryLine(
  results: readonly InteractionResult[],
  interactions: number,
  dynamicNote: string | undefined,
  guides?: GuideCounts,
): string {
  const part = (mode: InteractionResult['mode']) => {
    const of = results.filter((r) => r.mode === mode && r.kind !== 'file');
    if (of.length === 0) return undefined;
    const failed = of.filter((r) => !r.ok && !r.pending).length;
    const pending = of.filter((r) => !r.ok && r.pending).length;
    return `${mode} ${of.length - failed - pending} passed, ${failed} failed${pending ? `, ${pending} pending` : ''}`;
  };
  const unreadable = results.filter((r) => r.kind === 'file').length;
  const parts = [
    part('static'),
    part('dynamic') ?? (dynamicNote ? `dynamic ${dynamicNote}` : undefined),
    unreadable ? `${unreadable} file${unreadable === 1 ? '' : 's'} not read` : undefined,
    guides && guides.current + guides.legacy > 0
      ? `GraphQL checked against the current guide ${guides.current}, the legacy guide ${guides.legacy}`
      : undefined,
  ].filter(Boolean);
  return `${interactions} interaction${interactions === 1 ? '' : 's'}: ${parts.join('; ')}`;
}
