/**
 * Re-renders a finished run without running it again: reads a raw result (bench/results/latest-<date>.json),
 * re-evaluates the targets with the current report code, prints the text report and, with --write, rewrites
 * bench/results/summary.json and summary.md. For report changes; measurements always come from `npm run bench`.
 *
 * Usage: tsx bench/render.ts <bench/results/latest-….json> [--write]
 *
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BenchSummary, renderMarkdown, renderText, summarize } from './report.ts';
import { root } from './servers.ts';

const [file, ...rest] = process.argv.slice(2);
if (!file) throw new Error('[payment-contract-kit] usage: tsx bench/render.ts <bench/results/latest-….json> [--write]');
const raw = JSON.parse(readFileSync(file, 'utf8')) as { summary: BenchSummary };
const { context, ...measured } = raw.summary;
const summary = summarize(context, measured);

process.stdout.write(`${renderText(summary)}\n`);
if (rest.includes('--write')) {
  const dir = join(root, 'bench', 'results');
  writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  writeFileSync(join(dir, 'summary.md'), renderMarkdown(summary));
  process.stderr.write('[bench] wrote bench/results/summary.{json,md}\n');
}
