import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mockFlags, parseMockArgs } from '../../src/cli/commands/mock.ts';
import { parseProxyArgs } from '../../src/cli/commands/proxy.ts';
import { configFileKeys, readConfigFile } from '../../src/cli/config-file.ts';
import { type CommandFlag, flagOfRow, helpRows, markdownRows, parseFlags } from '../../src/cli/option-flags.ts';
import { httpUrls, wholeNumber, yesNo } from '../../src/internal/option-table.ts';
import { mockOptionTable, resolveMockOptions } from '../../src/mock/options.ts';

const scratch = mkdtempSync(join(tmpdir(), 'pck-option-flags-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
function file(name: string, value: unknown): string {
  const path = join(scratch, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

const flags: CommandFlag[] = [
  flagOfRow('port', { kind: wholeNumber(0, 65_535), default: 4010, flag: { name: 'port', help: 'Port.' } }),
  flagOfRow('hooks', { kind: httpUrls((raw) => raw.startsWith('http')), flag: { name: 'hook', help: 'Hooks.' } }),
  flagOfRow('quiet', { kind: yesNo, flag: { name: 'quiet', sets: false, help: 'Quiet.' } }),
  flagOfRow('help', { kind: yesNo, flag: { name: 'help', short: 'h', env: false, sets: true, help: 'Help.' } }),
];

describe('parseFlags', () => {
  it('takes the flag over its variable, a repeated flag as a list, a comma list from the variable', () => {
    const { values } = parseFlags('x', flags, ['--port', '1', '--hook', 'http://a', '--hook', 'http://b'], {
      PCK_PORT: '2',
    });
    expect(Object.fromEntries(values)).toEqual({ port: 1, hooks: ['http://a', 'http://b'] });
    const fromEnv = parseFlags('x', flags, [], { PCK_PORT: '2', PCK_HOOK: 'http://a, http://b', PCK_QUIET: 'on' });
    expect(Object.fromEntries(fromEnv.values)).toEqual({ port: 2, hooks: ['http://a', 'http://b'], quiet: false });
  });

  it('leaves out a switch whose variable is false, and an empty variable', () => {
    expect(parseFlags('x', flags, [], { PCK_QUIET: '0', PCK_PORT: '' }).values.size).toBe(0);
  });

  it('answers help for --help and its short form', () => {
    expect(parseFlags('x', flags, ['-h'], {}).help).toBe(true);
  });

  it.each<[string[], NodeJS.ProcessEnv, string]>([
    [
      ['--port', 'x'],
      {},
      '--port must be a whole number from 0 to 65535, got "x". Run "payment-contract-kit x --help"',
    ],
    [[], { PCK_PORT: '70000' }, 'PCK_PORT must be a whole number from 0 to 65535, got "70000".'],
    [[], { PCK_QUIET: 'maybe' }, 'PCK_QUIET must be true or false (1/0), got "maybe".'],
    [[], { PCK_HOOK: 'http://a,ftp://b' }, 'PCK_HOOK must be an http(s) URL'],
    [['--nope'], {}, "Unknown option '--nope'. Run"],
  ])('refuses %j %j naming the flag or the variable', (argv, env, message) => {
    expect(() => parseFlags('x', flags, argv, env)).toThrow(message);
    expect(() => parseFlags('x', flags, argv, env)).toThrow(/^\[payment-contract-kit\] /);
  });

  it('renders --help rows and Markdown rows from the same flags', () => {
    expect(helpRows(flags).split('\n')[0]).toMatch(/^ {2}--port <n> +Port\. Default 4010\. \[env PCK_PORT\]$/);
    expect(helpRows(flags)).toContain('  -h, --help');
    expect(markdownRows(flags)).toContain('| `--port <n>` | `PCK_PORT` |  | 4010 | Port. |');
    expect(markdownRows(flags)).toContain('| `--quiet` | `PCK_QUIET` |  | off | Quiet. |');
  });
});

describe('the mock option table', () => {
  it('gives every option a row, and every resolved option comes from one', () => {
    const resolved = Object.keys(resolveMockOptions({ log: false }));
    for (const key of resolved) expect(Object.keys(mockOptionTable)).toContain(key);
  });

  it('gives every flag of the mock a PCK_ variable (help aside), each flag and variable once', () => {
    const names = mockFlags.map((f) => f.name);
    const envs = mockFlags.filter((f) => f.name !== 'help').map((f) => f.env);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(envs).size).toBe(envs.length);
    for (const env of envs) expect(env).toMatch(/^PCK_[A-Z_]+$/);
  });
});

describe('the --config file', () => {
  it('takes every option JSON can hold, checked as in code, and the flags win over it', () => {
    const path = file('full.json', {
      $schema: 'ignored',
      guide: 'legacy',
      port: 4999,
      latency: { minMs: 1, maxMs: 2 },
      webhookUrls: ['http://a.test/h'],
      ui: false,
      assumptions: { cardTypes: [{ card_type: 'visa', pattern: '^4' }] },
    });
    const parsed = parseMockArgs(['--config', path, '--port', '0'], { PCK_GUIDE: 'both' });
    expect(parsed).toMatchObject({
      options: { guide: 'both', port: 0, latency: { minMs: 1, maxMs: 2 }, webhookUrls: ['http://a.test/h'], ui: false },
    });
    if (parsed.help) throw new Error('help');
    expect(parsed.options.assumptions?.cardTypes?.[0]?.pattern).toEqual(/^4/);
    expect(configFileKeys).not.toContain('log');
    expect(configFileKeys).not.toContain('realNow');
  });

  it.each<[string, unknown, RegExp]>([
    [
      'an unknown key, listing the keys',
      { prot: 1 },
      /--config: unknown key "prot" in ".*"; the file takes "port", "host"/,
    ],
    [
      'a value of the wrong kind',
      { guide: 'old' },
      /--config: "guide" in ".*" must be "current", "legacy" or "both"; got old\./,
    ],
    ['a function-only option', { log: false }, /--config: unknown key "log"/],
    ['a client without a key', { clients: [{ clientId: 'a' }] }, /--config: clients\[0\] needs a non-empty string/],
    [
      'a bad card type pattern',
      { assumptions: { cardTypes: [{ card_type: 'v', pattern: '(' }] } },
      /cardTypes\[0\]\.pattern is not a regular expression/,
    ],
    ['an array', [], /must hold a JSON object/],
  ])('refuses %s', (_name, value, message) => {
    expect(() => readConfigFile(file('bad.json', value))).toThrow(message);
  });

  it("is the proxy's ledger too: its assumptions, the rest of a mock config accepted, unknown keys refused", () => {
    const path = file('ledger.json', {
      clients: [{ clientId: 'a', apiKey: 'b' }],
      assumptions: { tokenTtlSeconds: 5 },
    });
    const parsed = parseProxyArgs(['--upstream', 'http://x', '--config', path], {});
    expect(parsed).toMatchObject({ proxy: { assumptions: { tokenTtlSeconds: 5 } } });
    expect(() =>
      parseProxyArgs(['--upstream', 'http://x', '--config', file('typo.json', { assumption: {} })], {}),
    ).toThrow(/--config: unknown key "assumption"/);
  });
});

describe('the browser options, from code, the config file and flags', () => {
  it('take lists and switches in code, and refuse other values naming the option', () => {
    expect(resolveMockOptions({ log: false, allowedHosts: ['mock'], cors: false })).toMatchObject({
      allowedHosts: ['mock'],
      cors: false,
    });
    expect(resolveMockOptions({ log: false, allowedHosts: true }).allowedHosts).toBe(true);
    expect(() => resolveMockOptions({ cors: 5 as never })).toThrow(
      /^\[payment-contract-kit\] mock option "cors" takes/,
    );
    expect(() => readConfigFile(file('hosts.json', { allowedHosts: { a: 1 } }))).toThrow(
      /--config: "allowedHosts" in ".*" takes "all", true, or host names/,
    );
  });
});
