// The option tables of docs/options.md, produced from the option tables in the code (the mock's, the proxy's and
// verify's and webhook listen's flags): `npm run generate` rewrites the text between each pair of markers, and the drift check
// (`npm run check:generated`, and test/cli/option-docs.test.ts) fails when the file and the code disagree.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mockFlags } from '../src/cli/commands/mock.ts';
import { proxyFlags } from '../src/cli/commands/proxy.ts';
import { verifyFlags } from '../src/cli/commands/verify.ts';
import { webhookListenFlags } from '../src/cli/commands/webhook-listen.ts';
import { configFileKeys } from '../src/cli/config-file.ts';
import { markdownRows } from '../src/cli/option-flags.ts';
import { type OptionRow, shownDefault } from '../src/internal/option-table.ts';
import { mockOptionTable } from '../src/mock/options.ts';

/** Where the page is. */
export const optionDocsPath = join(import.meta.dirname, '..', 'docs', 'options.md');

const withoutHelp = <T extends { readonly name: string }>(flags: readonly T[]) =>
  flags.filter((f) => f.name !== 'help');

/** The mock options no flag sets: code and, where JSON can hold them, the config file. */
function codeOnlyRows(): string {
  const rows = (Object.entries(mockOptionTable) as [string, OptionRow][])
    .filter(([, row]) => row.flag === undefined)
    .map(([key, row]) => {
      const config = configFileKeys.includes(key) ? `\`${key}\`` : 'code only';
      return `| \`${key}\` | ${config} | ${shownDefault(row) ?? ''} |`;
    });
  return ['| option | config file | default |', '|---|---|---|', ...rows].join('\n');
}

/** Each generated section by marker name. */
export function optionSections(): Record<string, string> {
  return {
    'mock-flags': markdownRows(withoutHelp(mockFlags)),
    'mock-code-options': codeOnlyRows(),
    'proxy-flags': markdownRows(withoutHelp(proxyFlags)),
    'verify-flags': markdownRows(withoutHelp(verifyFlags)),
    'webhook-listen-flags': markdownRows(withoutHelp(webhookListenFlags)),
  };
}

/**
 * `text` with the lines between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->` replaced by the section
 * NAME; throws when a marker is missing, so a section cannot silently drop out of the page.
 */
export function withOptionSections(text: string, sections = optionSections()): string {
  let out = text;
  for (const [name, body] of Object.entries(sections)) {
    const open = `<!-- generated:${name} (npm run generate; do not edit by hand) -->`;
    const close = `<!-- /generated:${name} -->`;
    const start = out.indexOf(open);
    const end = out.indexOf(close);
    if (start < 0 || end < start)
      throw new Error(`docs/options.md lacks the markers of "${name}": ${open} ... ${close}`);
    out = `${out.slice(0, start + open.length)}\n${body}\n${out.slice(end)}`;
  }
  return out;
}

/** Rewrites docs/options.md (`check: true`: answers whether it is current, writing nothing). */
export async function writeOptionDocs(options: { check?: boolean } = {}): Promise<boolean> {
  const text = await readFile(optionDocsPath, 'utf8');
  const fresh = withOptionSections(text);
  if (options.check) return fresh === text;
  if (fresh !== text) await writeFile(optionDocsPath, fresh);
  return true;
}
