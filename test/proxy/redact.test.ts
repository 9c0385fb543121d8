import { describe, expect, it } from 'vitest';
import { createRedactor, maskCardNumber } from '../../src/proxy/redact.ts';
import { solveFeeRule } from '../../src/proxy/suggested-config.ts';

describe('createRedactor', () => {
  it.each([
    ['a card number in text', 'card 4111111111111111 refused', 'card 411111******1111 refused'],
    ['a spaced card number', 'card 4111 1111 1111 1111', 'card 411111******1111'],
    ['a millisecond timestamp (not Luhn-valid)', 'expiration 1795623123000', 'expiration 1795623123000'],
    ['an inline CVV in GraphQL text', 'credit_card: { cvv: "739" }', 'credit_card: { cvv: "***" }'],
    ['a CVV in loose JSON', '{"cvv":739}', '{"cvv":"***"}'],
  ])('%s', (_name, given, want) => {
    expect(createRedactor().text(given)).toBe(want);
  });

  it('replaces credential headers and remembers their values for any later text', () => {
    const r = createRedactor();
    expect(r.headers(['X-Api-Key', 'k3y-value-1', 'x-client-id', 'acme', 'X-Signature', 'sig-value-2'])).toEqual([
      'X-Api-Key',
      '[redacted]',
      'x-client-id',
      'acme',
      'X-Signature',
      '[redacted]',
    ]);
    expect(r.text('sent k3y-value-1 and sig-value-2')).toBe('sent [redacted] and [redacted]');
  });

  it('rememberHeaders() remembers the credential values only, as headers() does', () => {
    const r = createRedactor();
    r.rememberHeaders(['X-Jwt-Token', 'jwt-value-3', 'x-client-id', 'acme-client']);
    expect(r.text('sent jwt-value-3 for acme-client')).toBe('sent [redacted] for acme-client');
  });

  it('replaces secret fields of JSON bodies at any depth, keeping the rest', () => {
    const r = createRedactor();
    const body = JSON.stringify({
      data: { token: 'tok-123456', refresh_token: 'rt-123456', expiration: 1 },
      input: { credit_card: { card_number: '5555555555554444', cvv: '123', number: 4111111111111111 } },
    });
    expect(JSON.parse(r.body(body)!)).toEqual({
      data: { token: '[redacted]', refresh_token: '[redacted]', expiration: 1 },
      input: { credit_card: { card_number: '555555******4444', cvv: '***', number: '411111******1111' } },
    });
    expect(r.text('Bearer tok-123456')).toBe('Bearer [redacted]');
  });

  it('known() takes out remembered secrets only, so a serialised document stays valid JSON', () => {
    const r = createRedactor();
    r.remember('secret-token-1');
    const doc = JSON.stringify({ time: 12.345678901234567, note: 'secret-token-1' });
    expect(JSON.parse(r.known(doc))).toEqual({ time: 12.345678901234567, note: '[redacted]' });
  });

  it('takes out a token remembered just before, with thousands remembered already', () => {
    // Each exchange of a long run brings a new token and is written at once: remembering must stay cheap.
    const r = createRedactor();
    let leaked = 0;
    for (let i = 0; i < 5_000; i++) {
      const token = `eyJhbGciOiJIUzI1NiJ9.${i.toString(36).padStart(8, '0')}.signature-part`;
      r.headers(['authorization', `Bearer ${token}`]);
      if (r.text(`token ${token} is expired`) !== 'token [redacted] is expired') leaked++;
    }
    expect(leaked).toBe(0);
  });

  it('masks short numbers to their last 4 digits', () => {
    expect(maskCardNumber('123456789')).toBe('*****6789');
  });
});

describe('solveFeeRule', () => {
  const point = (card_type: string, amount: number, fees: number) => ({ card_type, amount, fees });
  it.each([
    [
      'two amounts pin percent and fixed',
      [point('v', 100, 2.25), point('v', 250.5, 5.26)],
      { percent: 2, fixed: 0.25 },
    ],
    [
      'a third amount that agrees',
      [point('v', 100, 1.8), point('v', 80, 1.5), point('v', 250.5, 4.06)],
      { percent: 1.5, fixed: 0.3 },
    ],
    ['one amount cannot', [point('v', 100, 1.8)], undefined],
    ['the same amount twice cannot', [point('v', 100, 1.8), point('v', 100, 1.8)], undefined],
    ['answers no rule reproduces', [point('v', 100, 1.8), point('v', 200, 3.3), point('v', 300, 9)], undefined],
  ])('%s', (_name, points, want) => {
    expect(solveFeeRule(points)).toEqual(want);
  });
});
