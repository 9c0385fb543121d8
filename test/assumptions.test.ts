import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultAssumptions, resolveAssumptions } from '../src/assumptions.ts';

const ledger = readFileSync(new URL('../ASSUMPTIONS.md', import.meta.url), 'utf8');

describe('assumptions ledger', () => {
  it.each(Object.keys(defaultAssumptions))('ASSUMPTIONS.md records %s', (key) => {
    // Every assumption the code reads must be written down where users look for it.
    expect(ledger).toContain(`\`${key}`);
  });

  it.each(Object.values(defaultAssumptions.reasonCodes))('ASSUMPTIONS.md lists reason code %s', (code) => {
    expect(ledger).toContain(code);
  });

  it('records the webhook header names the code uses', () => {
    expect(ledger).toContain(`\`${defaultAssumptions.webhook.signingKeyHeader}\``);
    expect(ledger).toContain(`\`${defaultAssumptions.webhook.clientIdHeader}\``);
  });
});

describe('resolveAssumptions', () => {
  it('returns the defaults when nothing is overridden', () => {
    expect(resolveAssumptions()).toEqual(defaultAssumptions);
  });

  it('merges nested objects at every level and replaces arrays', () => {
    const feeTable = [{ card_type: 'visa', percent: 1, fixed: 0, card_location: 'domestic' }];
    const resolved = resolveAssumptions({ bounds: { maxAmount: 50 }, feeTable, tokenTtlSeconds: 60 });
    expect(resolved.bounds.maxAmount).toBe(50);
    expect(resolved.bounds.cvvDigits).toEqual(defaultAssumptions.bounds.cvvDigits);
    expect(resolved.feeTable).toEqual(feeTable);
    expect(resolved.tokenTtlSeconds).toBe(60);
    const retry = resolveAssumptions({ webhook: { retry: { maxAttempts: 2 } } }).webhook;
    expect(retry.retry).toEqual({ ...defaultAssumptions.webhook.retry, maxAttempts: 2 });
    expect(retry.signingKeyHeader).toBe(defaultAssumptions.webhook.signingKeyHeader);
    const digits = resolveAssumptions({ bounds: { cardNumberDigits: { max: 16 } } }).bounds.cardNumberDigits;
    expect(digits).toEqual({ min: 12, max: 16 });
  });

  it('leaves the defaults untouched', () => {
    resolveAssumptions({ bounds: { maxAmount: 1 } });
    expect(defaultAssumptions.bounds.maxAmount).toBe(1_000_000);
  });
});
