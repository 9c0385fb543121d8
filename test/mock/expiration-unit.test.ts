import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseMockArgs } from '../../src/cli/commands/mock.ts';
import { createMockApp } from '../../src/mock/app.ts';
import { credentials, tokenPaths } from './helpers.ts';

// expirationUnit 'milliseconds' (what the validating proxy suggests for a service that answers that way) and card
// type patterns from a JSON --config file (regular expression sources, as suggestedConfig writes them).
const dir = mkdtempSync(join(tmpdir(), 'pck-expiration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const now = Date.UTC(2026, 10, 25, 12, 0, 0);

async function expiration(unit?: 'seconds' | 'milliseconds'): Promise<number> {
  const app = createMockApp({
    log: false,
    realNow: () => now,
    ...(unit ? { assumptions: { expirationUnit: unit } } : {}),
  });
  const res = await app.fetch(
    new Request(`http://mock${tokenPaths.generate}`, { method: 'POST', headers: credentials }),
  );
  return ((await res.json()) as { data: { expiration: number } }).data.expiration;
}

describe('assumptions.expirationUnit', () => {
  it.each([
    [undefined, now / 1000 + 600],
    ['seconds', now / 1000 + 600],
    ['milliseconds', now + 600_000],
  ] as const)('%s: expiration is %i', async (unit, want) => {
    expect(await expiration(unit)).toBe(want);
  });

  it('refuses any other unit, naming the option', () => {
    expect(() => createMockApp({ log: false, assumptions: { expirationUnit: 'minutes' as 'seconds' } })).toThrow(
      /mock option "assumptions": assumption "expirationUnit" must be one of "seconds", "milliseconds", got "minutes"/,
    );
  });
});

describe('--config cardTypes', () => {
  const config = (value: unknown) => {
    const file = join(dir, `c${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify({ assumptions: { cardTypes: value } }));
    return file;
  };

  it('reads each pattern as a regular expression source', () => {
    const parsed = parseMockArgs(['--config', config([{ card_type: 'VISA', pattern: '^4' }])], {});
    if (parsed.help) throw new Error('help');
    expect(parsed.options.assumptions?.cardTypes).toEqual([{ card_type: 'VISA', pattern: /^4/ }]);
  });

  it.each([
    ['not a list', { card_type: 'VISA' }, /"cardTypes" must be an array/],
    ['a row without pattern', [{ card_type: 'VISA' }], /cardTypes\[0\] needs string "card_type" and "pattern"/],
    [
      'a pattern that is no regular expression',
      [{ card_type: 'VISA', pattern: '(' }],
      /cardTypes\[0\]\.pattern is not a regular expression/,
    ],
  ])('refuses %s with a usage error', (_name, value, message) => {
    expect(() => parseMockArgs(['--config', config(value)], {})).toThrow(message);
  });
});
