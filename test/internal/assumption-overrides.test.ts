import { describe, expect, it } from 'vitest';
import { assumptionsKind } from '../../src/internal/assumption-overrides.ts';
import { Problem } from '../../src/internal/option-table.ts';

/** The text of the problem `value` gets, or undefined when it is accepted. */
function refusal(value: unknown): string | undefined {
  const checked = assumptionsKind.check(value);
  return checked instanceof Problem ? checked.text : undefined;
}

describe('assumptionsKind', () => {
  it('accepts partial overrides at every level, of the defaults types', () => {
    const overrides = {
      settleDelayMs: 0,
      store: { leaseMs: 5_000 },
      webhook: { retry: { maxAttempts: 2 } },
      bounds: { cardNumberDigits: { max: 16 } },
      totalSettlement: 'amount-minus-fees',
      graphqlRequiresClientHeaders: true,
      statusNames: { processing: 'IN_PROGRESS' },
      feeTable: [{ card_type: 'visa', percent: 1, fixed: 0, card_location: 'domestic' }],
      unlistedStatuses: [],
      cardTypes: [{ card_type: 'visa', pattern: '^4' }],
      rateLimit: null,
    };
    expect(refusal(overrides)).toBeUndefined();
  });

  it.each([
    [{ nope: 1 }, 'unknown assumption "nope"; see ASSUMPTIONS.md for the names.'],
    [{ store: { leaseMz: 5 } }, 'unknown assumption "store.leaseMz"; see ASSUMPTIONS.md for the names.'],
    [
      { webhook: { retry: { tries: 1 } } },
      'unknown assumption "webhook.retry.tries"; see ASSUMPTIONS.md for the names.',
    ],
    [{ settleDelayMs: 'x' }, 'assumption "settleDelayMs" must be a number of at least 0, got "x".'],
    [{ store: { leaseMs: -1 } }, 'assumption "store.leaseMs" must be a number of at least 0, got -1.'],
    [{ store: 5 }, 'assumption "store" must be an object, got 5.'],
    [{ reasonCodes: { internal: 7 } }, 'assumption "reasonCodes.internal" must be a string, got 7.'],
    [
      { graphqlRequiresClientHeaders: 'yes' },
      'assumption "graphqlRequiresClientHeaders" must be a boolean, got "yes".',
    ],
    [
      { repeatGenerateToken: 'again' },
      'assumption "repeatGenerateToken" must be one of "reissue", "reject", got "again".',
    ],
    [{ revokeTokenBody: { status: 'OK' } }, 'assumption "revokeTokenBody.status" must be one of "SUCCESS", got "OK".'],
    [{ rateLimit: { perSecond: 5 } }, 'assumption "rateLimit" must be one of null, got an object.'],
    [{ feeTable: {} }, 'assumption "feeTable" must be an array, got an object.'],
    [
      { feeTable: [{ card_type: 'visa', percent: 1, fixed: 0 }] },
      'assumption "feeTable[0]" lacks "card_location": a row replaces the default\'s whole.',
    ],
    [
      { feeTable: [{ card_type: 'visa', percent: '1', fixed: 0, card_location: 'x' }] },
      'assumption "feeTable[0].percent" must be a number of at least 0, got "1".',
    ],
  ])('refuses %j', (value, text) => {
    expect(refusal(value)).toBe(text);
  });

  it('takes no key from the prototype chain for an assumption', () => {
    expect(refusal(JSON.parse('{"__proto__":{"x":1}}'))).toBe(
      'unknown assumption "__proto__"; see ASSUMPTIONS.md for the names.',
    );
    expect(refusal({ toString: 'x' })).toBe('unknown assumption "toString"; see ASSUMPTIONS.md for the names.');
  });

  it('cuts a long value short in its message, and walks no deeper than the defaults', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(refusal({ settleDelayMs: deep })).toBe(
      'assumption "settleDelayMs" must be a number of at least 0, got an object.',
    );
    expect(refusal({ settleDelayMs: 'y'.repeat(1_000) })).toBe(
      `assumption "settleDelayMs" must be a number of at least 0, got "${'y'.repeat(39)}....`,
    );
    expect(refusal({ reasonCodes: { internal: 'x'.repeat(1_000) } })).toBeUndefined();
  });
});
