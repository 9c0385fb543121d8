import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMockArgs } from '../../../../src/cli/commands/mock.ts';
import { resolveMockOptions } from '../../../../src/mock/options.ts';
import {
  defaultBrowserOptions,
  parseAllowedHosts,
  parseCorsOrigins,
  resolveBrowserOptions,
} from '../../../support/mock-internals/http.ts';

describe('browser options', () => {
  it('defaults: CORS for any origin on the service paths, none on the control API, pages on', () => {
    expect(resolveBrowserOptions({})).toEqual(defaultBrowserOptions);
    const o = resolveMockOptions({});
    expect([o.cors, o.controlCors, o.allowedHosts, o.ui]).toEqual(['*', false, [], true]);
  });

  it.each([
    ['*', '*'],
    ['off', false],
    [false, false],
    [true, '*'],
    ['http://localhost:5173', ['http://localhost:5173']],
    [' http://LOCALHOST:5173 ,https://app.example.test ', ['http://localhost:5173', 'https://app.example.test']],
    [['http://127.0.0.1:3000'], ['http://127.0.0.1:3000']],
  ] as const)('cors %j -> %j', (input, expected) => {
    expect(parseCorsOrigins('cors', input)).toEqual(expected);
  });

  it.each(['localhost:5173', 'http://localhost:5173/', 'http://localhost:5173/app', 'ftp://x.example', ','])(
    'refuses the cors value %j with the fix',
    (input) => {
      expect(() => parseCorsOrigins('cors', input)).toThrow(
        /^\[payment-contract-kit\] mock option "cors" .*(origin|"off")/,
      );
    },
  );

  it('parses allowed hosts', () => {
    expect(parseAllowedHosts('allowedHosts', 'Mock, .docker.internal')).toEqual(['mock', '.docker.internal']);
    expect(parseAllowedHosts('allowedHosts', 'all')).toBe(true);
    expect(() => parseAllowedHosts('allowedHosts', 'http://mock:4010')).toThrow(/not a host name/);
  });

  it('maps the flags and the environment', () => {
    const parsed = parseMockArgs(
      ['--cors', 'http://localhost:5173', '--control-cors', '*', '--allowed-hosts', 'mock', '--no-ui'],
      {},
    );
    expect(parsed).toMatchObject({
      options: { cors: ['http://localhost:5173'], controlCors: '*', allowedHosts: ['mock'], ui: false },
    });
    expect(parseMockArgs([], { PCK_CORS: 'off', PCK_NO_UI: '1' })).toMatchObject({
      options: { cors: false, ui: false },
    });
    expect(() => parseMockArgs(['--cors', 'localhost'], {})).toThrow(/^\[payment-contract-kit\] --cors: mock option/);
  });
});

describe('ledger', () => {
  it.each(Object.keys(defaultBrowserOptions))('ASSUMPTIONS.md records the %s default', (key) => {
    const ledger = readFileSync(new URL('../../../../ASSUMPTIONS.md', import.meta.url), 'utf8');
    expect(ledger).toContain(`(\`${key}\`)`);
  });
});
