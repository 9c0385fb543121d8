import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { optionDocsPath, optionSections, withOptionSections } from '../../scripts/option-docs.ts';
import { mockFlags, parseMockArgs } from '../../src/cli/commands/mock.ts';
import { proxyFlags } from '../../src/cli/commands/proxy.ts';
import { verifyFlags } from '../../src/cli/commands/verify.ts';
import { webhookListenFlags } from '../../src/cli/commands/webhook-listen.ts';
import { configFileKeys, readConfigFile } from '../../src/cli/config-file.ts';

const page = readFileSync(optionDocsPath, 'utf8');

describe('docs/options.md', () => {
  it('holds the option tables the code produces (run `npm run generate` after changing an option)', () => {
    expect(withOptionSections(page)).toBe(page);
  });

  it('would be caught drifting: a changed table or a lost marker', () => {
    const sections = optionSections();
    const changed = { ...sections, 'mock-flags': sections['mock-flags']!.replace('Port to listen on', 'Port') };
    expect(withOptionSections(page, changed)).not.toBe(page);
    expect(() => withOptionSections(page.replace('<!-- /generated:proxy-flags -->', ''))).toThrow(/proxy-flags/);
  });

  it('names every flag, variable and config-file key of the mock, the proxy, verify and webhook listen', () => {
    const flags = [...mockFlags, ...proxyFlags, ...verifyFlags, ...webhookListenFlags];
    for (const flag of flags.filter((f) => f.name !== 'help')) {
      expect(page).toContain(`\`--${flag.name}`);
      if (flag.env) expect(page).toContain(`\`${flag.env}\``);
    }
    for (const key of configFileKeys) expect(page).toContain(`\`${key}\``);
  });

  it('has a config file example the mock accepts as written', () => {
    const json = /```json\n([\s\S]*?)```/.exec(page)?.[1];
    expect(json).toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), 'pck-options-doc-'));
    try {
      const path = join(dir, 'mock.config.json');
      writeFileSync(path, json!);
      expect(readConfigFile(path)).toMatchObject({ guide: 'both', settleDelayMs: 0 });
      expect(parseMockArgs(['--config', path], {})).toMatchObject({
        options: { clients: [{ clientId: 'test-client' }, { clientId: 'acme' }] },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
