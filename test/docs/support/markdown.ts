// Reads the user docs (README.md and docs/*.md) the way the docs tests need them: fenced code blocks with the HTML
// comments written just above them (the directives: `not-run`, `run`, `ts-context`, `ts-missing`, `file`), headings
// as GitHub anchors, and relative links. A small reader rather than a Markdown library: the docs use fences,
// ATX headings and inline links only, and a test that fails on a construct it does not know is the point.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The repository root. */
export const root = resolve(import.meta.dirname, '../../..');

/** README.md and every page of docs/, as paths relative to the root. */
export function docFiles(): string[] {
  const pages = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...pages];
}

/** One fenced code block. */
export interface CodeBlock {
  /** The Markdown file, relative to the root. */
  readonly file: string;
  /** 1-based line of the first line of code (the line after the opening fence). */
  readonly line: number;
  /** The info string's first word: `ts`, `sh`, `json`, `text`; empty when the fence has none. */
  readonly lang: string;
  /** The code, with the fence's own indentation taken off. */
  readonly code: string;
  /** `<!-- name: value -->` comments directly above the fence (blank lines between them allowed). */
  readonly directives: ReadonlyMap<string, string>;
}

/** One link or image target outside code. */
export interface Link {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

/** What one Markdown file holds. */
export interface MarkdownFile {
  readonly file: string;
  readonly text: string;
  readonly blocks: readonly CodeBlock[];
  readonly anchors: ReadonlySet<string>;
  readonly links: readonly Link[];
}

const fenceOpen = /^(\s*)```(\S*).*$/;
const directiveLine = /^\s*<!--\s*([a-z-]+)(?::\s*([\s\S]*?))?\s*-->\s*$/;

/**
 * GitHub's heading anchor: lower case, inline code ticks and punctuation dropped (hyphens and underscores kept),
 * spaces to hyphens; a repeated heading gets `-1`, `-2`, ...
 */
export function githubSlug(heading: string, seen: Map<string, number>): string {
  const base = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
  const count = seen.get(base) ?? 0;
  seen.set(base, count + 1);
  return count === 0 ? base : `${base}-${count}`;
}

/** Reads and takes apart one Markdown file (path relative to the root). */
export function readMarkdown(file: string): MarkdownFile {
  const text = readFileSync(join(root, file), 'utf8');
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  const anchors = new Set<string>();
  const links: Link[] = [];
  const seen = new Map<string, number>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const open = fenceOpen.exec(line);
    if (open) {
      const indent = open[1]!.length;
      const start = i + 1;
      let end = start;
      while (end < lines.length && !/^\s*```\s*$/.test(lines[end]!)) end++;
      if (end === lines.length) throw new Error(`${file}:${i + 1}: a code fence is never closed`);
      const code = lines
        .slice(start, end)
        .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
        .join('\n');
      blocks.push({ file, line: start + 1, lang: open[2]!, code: `${code}\n`, directives: directivesAbove(lines, i) });
      i = end;
      continue;
    }
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) anchors.add(githubSlug(heading[1]!, seen));
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) links.push({ file, line: i + 1, target: m[1]! });
  }
  return { file, text, blocks, anchors, links };
}

function directivesAbove(lines: readonly string[], fence: number): Map<string, string> {
  const found = new Map<string, string>();
  for (let j = fence - 1; j >= 0; j--) {
    const above = lines[j]!;
    if (above.trim() === '') continue;
    const d = directiveLine.exec(above);
    if (!d) break;
    found.set(d[1]!, d[2] ?? '');
  }
  return found;
}

/** Where a block is, for failure messages: `docs/webhooks.md:46`. */
export const where = (block: { file: string; line: number }) => `${block.file}:${block.line}`;

/** A path relative to the root, for messages. */
export const fromRoot = (path: string) => relative(root, path);
