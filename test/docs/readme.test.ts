// The README stays a short front page (issue 24): at most about 250 lines, the project's two commands, one line per
// entry point of package.json, and a link to every docs page, so no page is an orphan. The performance page carries
// the committed benchmark summary as it is.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readMarkdown, root } from './support/markdown.ts';

const readme = readMarkdown('README.md');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };

describe('README.md', () => {
  it('is at most about 250 lines', () => {
    expect(readme.text.split('\n').length).toBeLessThanOrEqual(260);
  });

  it('gives the two project commands, npm start and npm test, in one block (CI runs the test command it gives)', () => {
    const block = readme.blocks.find((b) => b.lang === 'sh' && /^npm test\b/m.test(b.code));
    expect(block?.code).toMatch(/\bnpm start\b/);
  });

  it.each(Object.keys(pkg.exports))('has the entry point %s in its table', (subpath) => {
    const table = readme.text.slice(readme.text.indexOf('## Entry points'), readme.text.indexOf('## Documentation'));
    const name = subpath === '.' ? 'payment-contract-kit' : subpath.replace(/^\./, '');
    const rows = table.split('\n').filter((line) => line.startsWith('| `'));
    const found = rows.some((row) =>
      subpath === '.' ? row.startsWith(`| \`${name}\` |`) : row.split('|')[1]!.includes(name),
    );
    expect(found).toBe(true);
  });

  it.each(readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')))('links docs/%s', (page) => {
    expect(readme.links.map((l) => l.target.split('#')[0])).toContain(`docs/${page}`);
  });
});

describe('docs/performance.md', () => {
  it('holds the committed benchmark summary (bench/results/summary.md) as it is', () => {
    const page = readFileSync(join(root, 'docs/performance.md'), 'utf8');
    const start = '<!-- bench-summary:start -->\n';
    const copy = page.slice(page.indexOf(start) + start.length, page.indexOf('<!-- bench-summary:end -->'));
    // The summary is written for a `## Performance` section; on its own page its `###` sections are `##`.
    const summary = readFileSync(join(root, 'bench/results/summary.md'), 'utf8')
      .replace(/^## Performance\n+/, '')
      .replace(/^### /gm, '## ');
    expect(copy.trim()).toBe(summary.trim());
  });
});
