import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildTestWebhookRequest,
  checkStandardWebhookSignature,
  checkWebhookSignature,
} from '../../src/webhook/index.ts';
import { signStandardWebhook } from '../../src/webhook/standard-webhooks.ts';

// The published test vector of the Standard Webhooks specification (the signing test of its reference libraries,
// github.com/standard-webhooks/standard-webhooks, libraries/*/ tests).
const vector = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const vectorHeaders = {
  'webhook-id': vector.id,
  'webhook-timestamp': String(vector.timestamp),
  'webhook-signature': vector.signature,
};
const atVectorTime = () => vector.timestamp * 1000;

describe('Standard Webhooks test vector', () => {
  it('signs to the published signature', () => {
    expect(signStandardWebhook(vector)).toBe(vector.signature);
  });

  it('signs the same without the whsec_ prefix', () => {
    expect(signStandardWebhook({ ...vector, secret: vector.secret.slice('whsec_'.length) })).toBe(vector.signature);
  });

  it('verifies the published request at its own time', () => {
    const result = checkStandardWebhookSignature({
      headers: vectorHeaders,
      rawBody: vector.body,
      secret: vector.secret,
      now: atVectorTime,
    });
    expect(result).toEqual({ ok: true, id: vector.id, timestamp: vector.timestamp });
  });

  it('finds the valid signature in a space-separated list (rotation), skipping other schemes', () => {
    const result = checkStandardWebhookSignature({
      headers: { ...vectorHeaders, 'webhook-signature': `v1a,abc v1,Zm9v ${vector.signature}` },
      rawBody: vector.body,
      secret: vector.secret,
      now: atVectorTime,
    });
    expect(result.ok).toBe(true);
  });
});

describe("docs/webhooks.md's worked example in Python", () => {
  // The page teaches the HMAC key to teams in other languages; its numbers must be the ones the kit signs with.
  const page = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
  const python = /```python\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
  const literal = (pattern: RegExp) => pattern.exec(python)?.[1];

  it('uses the test vector, and prints the signature the kit computes for it', () => {
    const example = {
      secret: literal(/^secret = "([^"]+)"/m),
      id: literal(/"webhook-id": "([^"]+)"/),
      timestamp: Number(literal(/"webhook-timestamp": "(\d+)"/)),
      body: literal(/^body = b'([^']+)'/m),
    };
    expect(example).toEqual({ secret: vector.secret, id: vector.id, timestamp: vector.timestamp, body: vector.body });
    const printed = [...python.matchAll(/^# prints (.*)$/gm)].map((m) => m[1]);
    expect(printed).toEqual([signStandardWebhook(vector), 'True']);
    expect(literal(/"webhook-signature": "([^"]+)"/)).toBe(vector.signature);
  });

  it('decodes the part after whsec_, and names the signature the whole string would give', () => {
    expect(python).toContain('base64.b64decode(secret.removeprefix("whsec_"))');
    const wholeString = createHmac('sha256', vector.secret)
      .update(`${vector.id}.${vector.timestamp}.${vector.body}`)
      .digest('base64');
    expect(page).toContain(`\`v1,${wholeString}\``);
    expect(`v1,${wholeString}`).not.toBe(vector.signature);
  });
});

describe('checkStandardWebhookSignature rejects', () => {
  it.each([
    [
      'a body re-serialised by a JSON parser',
      { rawBody: JSON.stringify(JSON.parse(vector.body)) },
      'SIGNATURE_MISMATCH',
      /Are you passing the raw request body\?/,
    ],
    [
      'another secret',
      { secret: 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
      'SIGNATURE_MISMATCH',
      /secret is the one configured/,
    ],
    [
      'a changed id',
      { headers: { ...vectorHeaders, 'webhook-id': 'msg_other' } },
      'SIGNATURE_MISMATCH',
      /no v1 signature/,
    ],
    [
      'a tampered signature',
      { headers: { ...vectorHeaders, 'webhook-signature': 'v1,AAAA' } },
      'SIGNATURE_MISMATCH',
      /no v1 signature/,
    ],
    [
      'only a v1a signature',
      { headers: { ...vectorHeaders, 'webhook-signature': 'v1a,AAAA' } },
      'SIGNATURE_MISMATCH',
      /no v1 signature/,
    ],
    [
      'no webhook-id',
      { headers: { ...vectorHeaders, 'webhook-id': undefined } },
      'MISSING_STANDARD_WEBHOOKS_HEADER',
      /webhook-id header is missing/,
    ],
    [
      'no webhook-timestamp',
      { headers: { ...vectorHeaders, 'webhook-timestamp': undefined } },
      'MISSING_STANDARD_WEBHOOKS_HEADER',
      /webhook-timestamp header/,
    ],
    [
      'no webhook-signature',
      { headers: { ...vectorHeaders, 'webhook-signature': undefined } },
      'MISSING_STANDARD_WEBHOOKS_HEADER',
      /webhook-signature header/,
    ],
    [
      'a timestamp that is not seconds',
      { headers: { ...vectorHeaders, 'webhook-timestamp': 'hello' } },
      'INVALID_TIMESTAMP',
      /whole seconds/,
    ],
    [
      'a timestamp 5 min + 1 s old',
      { now: () => (vector.timestamp + 301) * 1000 },
      'TIMESTAMP_OUT_OF_TOLERANCE',
      /301 s from now, more than the 300 s tolerance/,
    ],
    [
      'a timestamp 5 min + 1 s ahead',
      { now: () => (vector.timestamp - 301) * 1000 },
      'TIMESTAMP_OUT_OF_TOLERANCE',
      /-301 s/,
    ],
    [
      'a timestamp outside a custom tolerance',
      { now: () => (vector.timestamp + 11) * 1000, toleranceSeconds: 10 },
      'TIMESTAMP_OUT_OF_TOLERANCE',
      /10 s tolerance/,
    ],
  ])('%s', (_name, given, code, message) => {
    const result = checkStandardWebhookSignature({
      headers: vectorHeaders,
      rawBody: vector.body,
      secret: vector.secret,
      now: atVectorTime,
      ...given,
    } as Parameters<typeof checkStandardWebhookSignature>[0]);
    expect(result).toMatchObject({ ok: false, error: { code } });
    if (!result.ok) expect(result.error.message).toMatch(message);
  });

  it('accepts exactly at the edge of the tolerance', () => {
    const result = checkStandardWebhookSignature({
      headers: vectorHeaders,
      rawBody: vector.body,
      secret: vector.secret,
      now: () => (vector.timestamp + 300) * 1000,
    });
    expect(result.ok).toBe(true);
  });

  it.each([
    ['no secret', { secret: undefined }, /secret must be the Standard Webhooks secret/],
    ['an empty prefixed secret', { secret: 'whsec_' }, /holds no key bytes/],
  ])('throws on misuse: %s', (_name, given, message) => {
    expect(() =>
      checkStandardWebhookSignature({ headers: vectorHeaders, rawBody: vector.body, ...given } as never),
    ).toThrow(message);
  });
});

describe('checkWebhookSignature with standardWebhooks', () => {
  const secret = vector.secret;
  it('accepts a request built with the same secret', () => {
    const request = buildTestWebhookRequest({ signingKey: 'k', clientId: 'c', standardWebhooks: { secret } });
    const result = checkWebhookSignature({
      headers: request.headers,
      rawBody: request.body,
      signingKey: 'k',
      clientId: 'c',
      standardWebhooks: { secret },
    });
    expect(result.ok).toBe(true);
  });

  it('rejects a body swapped under valid header values, which the signing key header alone cannot see', () => {
    const request = buildTestWebhookRequest({ signingKey: 'k', clientId: 'c', standardWebhooks: { secret } });
    const forged = request.body.replace('"success"', '"failure"');
    const plain = checkWebhookSignature({ headers: request.headers, rawBody: forged, signingKey: 'k', clientId: 'c' });
    expect(plain.ok).toBe(true);
    const signed = checkWebhookSignature({
      headers: request.headers,
      rawBody: forged,
      signingKey: 'k',
      clientId: 'c',
      standardWebhooks: { secret },
    });
    expect(signed).toMatchObject({ ok: false, error: { code: 'SIGNATURE_MISMATCH' } });
  });

  it('rejects a replay after the tolerance', () => {
    const request = buildTestWebhookRequest({
      signingKey: 'k',
      clientId: 'c',
      standardWebhooks: { secret, timestamp: 1_700_000_000 },
    });
    const result = checkWebhookSignature({
      headers: request.headers,
      rawBody: request.body,
      signingKey: 'k',
      clientId: 'c',
      standardWebhooks: { secret, now: () => (1_700_000_000 + 3600) * 1000 },
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'TIMESTAMP_OUT_OF_TOLERANCE' } });
  });
});
