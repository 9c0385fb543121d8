/**
 * The consumer example's coverage figure as docs/coverage.md states it: the paragraph between the
 * `consumer-example-coverage` markers says how many behaviours the example's suite covers and lists those it never
 * tried. The package tier (test/examples/consumer.test.ts) writes the paragraph from the report the example's run
 * wrote and compares; the unit tier (test/docs/coverage-figure.test.ts) holds it to the catalogue, so a figure that
 * no longer matches the code fails wherever it is read.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The page that states the figure. */
export const figurePage = join(import.meta.dirname, '../../../docs/coverage.md');

const open = '<!-- consumer-example-coverage: test/examples/consumer.test.ts checks this paragraph against the run -->';
const close = '<!-- /consumer-example-coverage -->';
const width = 118;

/** What a report says about each behaviour, as much as the figure needs. */
export interface FigureReport {
  readonly behaviours: readonly { readonly id: string; readonly covered: boolean }[];
}

/** Greedy wrap at the docs' line width, never inside a word. */
function wrap(text: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join('\n');
}

/**
 * The paragraph, markers included, for `report`: the covered count of the total, then every behaviour never
 * exercised, in the catalogue's order.
 */
export function coverageFigure(report: FigureReport): string {
  const never = report.behaviours.filter((b) => !b.covered).map((b) => `\`${b.id}\``);
  const covered = report.behaviours.length - never.length;
  const text = `The consumer example's suite ([examples/consumer](../examples/consumer/README.md)) covers ${covered} of ${report.behaviours.length} behaviours; these are the ones it never tried: ${never.join(', ')}.`;
  return `${open}\n${wrap(text)}\n${close}`;
}

/** The paragraph as docs/coverage.md has it, markers included; undefined when the markers are missing. */
export function documentedFigure(markdown = readFileSync(figurePage, 'utf8')): string | undefined {
  const start = markdown.indexOf(open);
  const end = markdown.indexOf(close, start);
  return start < 0 || end < 0 ? undefined : markdown.slice(start, end + close.length);
}

/** The ids the documented paragraph lists as never tried. */
export function documentedNeverTried(figure: string): string[] {
  const list = figure.slice(figure.indexOf('never tried:'));
  return [...list.matchAll(/`([a-z][\w.-]*)`/g)].map((m) => m[1]!);
}
