import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import {
  buildTestWebhookRequest,
  type CheckWebhookSignatureInput,
  checkWebhookSignature,
  type WebhookVerificationErrorCode,
} from '../../src/webhook/index.ts';
import { examplePaymentStatus } from './fixtures.ts';

const signingKey = 'test-signing-key';
const clientId = 'test-client';
const payload = examplePaymentStatus;
const body = JSON.stringify(payload);
const headers = {
  'x-webhook-signing-key': signingKey,
  'x-client-id': clientId,
  'x-webhook-delivery-id': 'whd_1',
};

function withBody(value: unknown): string {
  return JSON.stringify(value);
}
function without<T extends object>(object: T, key: keyof T): Partial<T> {
  const { [key]: _, ...rest } = object;
  return rest as Partial<T>;
}

describe('checkWebhookSignature accepts the genuine request', () => {
  it.each([
    ['plain record, string body', { headers, rawBody: body }],
    ['Node IncomingHttpHeaders, Buffer body', { headers: { ...headers, host: 'x' }, rawBody: Buffer.from(body) }],
    ['Fetch Headers, Uint8Array body', { headers: new Headers(headers), rawBody: new TextEncoder().encode(body) }],
    [
      'plain record in any letter case',
      { headers: { 'X-Webhook-Signing-Key': signingKey, 'X-Client-Id': clientId }, rawBody: body },
    ],
  ])('%s', (_name, given) => {
    const result = checkWebhookSignature({ ...given, signingKey, clientId } as CheckWebhookSignatureInput);
    expect(result).toMatchObject({ ok: true, payload });
  });

  it('returns the delivery id for deduplication', () => {
    expect(checkWebhookSignature({ headers, rawBody: body, signingKey, clientId })).toEqual({
      ok: true,
      payload,
      deliveryId: 'whd_1',
    });
  });

  it('types the delivery id as a string, so the receivers in docs/webhooks.md deduplicate on it without a guard', () => {
    const result = checkWebhookSignature({ headers, rawBody: body, signingKey, clientId });
    if (!result.ok) throw new Error(result.error.message);
    // Compiles under strict only while deliveryId is `string` (npm run typecheck covers test files).
    const alreadyHandled = (id: string) => id.startsWith('whd_');
    expect(alreadyHandled(result.deliveryId)).toBe(true);
  });

  it('derives the delivery id from the payment and its status when the header is missing', () => {
    const noId = without(headers, 'x-webhook-delivery-id');
    const first = checkWebhookSignature({ headers: noId, rawBody: body, signingKey, clientId });
    const retry = checkWebhookSignature({ headers: noId, rawBody: body, signingKey, clientId });
    expect(first).toMatchObject({ ok: true, deliveryId: `${payload.uuid}:${payload.status}` });
    expect(retry).toEqual(first);
  });

  it('accepts any key of a list (key rotation)', () => {
    expect(checkWebhookSignature({ headers, rawBody: body, signingKey: ['new-key', signingKey], clientId }).ok).toBe(
      true,
    );
  });

  it('accepts a payload without metadata and keeps unknown extra fields', () => {
    const extra = { ...without(payload, 'metadata'), settled_by: 'x' };
    const result = checkWebhookSignature({ headers, rawBody: withBody(extra), signingKey, clientId });
    expect(result).toMatchObject({ ok: true, payload: extra });
  });

  it('reads custom header names', () => {
    const result = checkWebhookSignature({
      headers: { 'x-sig': signingKey, 'x-cid': clientId },
      rawBody: body,
      signingKey,
      clientId,
      headerNames: { signingKey: 'x-sig', clientId: 'x-cid' },
    });
    expect(result.ok).toBe(true);
  });

  it('accepts what buildTestWebhookRequest builds', () => {
    const request = buildTestWebhookRequest({ signingKey, clientId, payload: { status: 'failure' } });
    const result = checkWebhookSignature({ headers: request.headers, rawBody: request.body, signingKey, clientId });
    expect(result).toMatchObject({ ok: true, payload: { status: 'failure' } });
  });
});

type Case = [
  string,
  {
    given: Partial<CheckWebhookSignatureInput>;
    want: { code: WebhookVerificationErrorCode; message: RegExp; header?: string; field?: string };
  },
];

const rejected: Case[] = [
  [
    'missing signing key header',
    {
      given: { headers: without(headers, 'x-webhook-signing-key') },
      want: {
        code: 'MISSING_SIGNING_KEY_HEADER',
        header: 'x-webhook-signing-key',
        message: /x-webhook-signing-key header is missing/,
      },
    },
  ],
  [
    'empty signing key header',
    {
      given: { headers: { ...headers, 'x-webhook-signing-key': '' } },
      want: { code: 'MISSING_SIGNING_KEY_HEADER', header: 'x-webhook-signing-key', message: /missing or empty/ },
    },
  ],
  [
    'missing client id header',
    {
      given: { headers: without(headers, 'x-client-id') },
      want: { code: 'MISSING_CLIENT_ID_HEADER', header: 'x-client-id', message: /x-client-id header is missing/ },
    },
  ],
  [
    'wrong signing key',
    {
      given: { headers: { ...headers, 'x-webhook-signing-key': 'guess' } },
      want: {
        code: 'WRONG_SIGNING_KEY',
        header: 'x-webhook-signing-key',
        message: /does not match your signing key.*not the API key/,
      },
    },
  ],
  [
    'signing key of another length (no throw from timingSafeEqual)',
    {
      given: { headers: { ...headers, 'x-webhook-signing-key': `${signingKey}-and-more-bytes` } },
      want: { code: 'WRONG_SIGNING_KEY', message: /does not match/ },
    },
  ],
  [
    'signing key with a stray space',
    {
      given: { headers: { ...headers, 'x-webhook-signing-key': `${signingKey} ` } },
      want: { code: 'WRONG_SIGNING_KEY', message: /stray whitespace/ },
    },
  ],
  [
    'duplicated signing key header',
    {
      given: { headers: { ...headers, 'x-webhook-signing-key': [signingKey, signingKey] } },
      want: { code: 'WRONG_SIGNING_KEY', message: /does not match/ },
    },
  ],
  [
    'another client',
    {
      given: { headers: { ...headers, 'x-client-id': 'other-client' } },
      want: {
        code: 'WRONG_CLIENT_ID',
        header: 'x-client-id',
        message: /\("other-client"\) does not match your clientId \("test-client"\)/,
      },
    },
  ],
  [
    'empty body',
    {
      given: { rawBody: '' },
      want: { code: 'MALFORMED_JSON', message: /body is empty\. Are you passing the raw request body\?/ },
    },
  ],
  [
    'not JSON',
    {
      given: { rawBody: '{"amount": 100,' },
      want: { code: 'MALFORMED_JSON', message: /not valid JSON.*Are you passing the raw request body\?/ },
    },
  ],
  [
    'a stringified object',
    { given: { rawBody: String({}) }, want: { code: 'MALFORMED_JSON', message: /not String\(parsedBody\)/ } },
  ],
  [
    'a JSON array',
    {
      given: { rawBody: '[]' },
      want: { code: 'INVALID_PAYLOAD', field: '(root)', message: /must be a JSON object.*got an array/ },
    },
  ],
  [
    'JSON null',
    { given: { rawBody: 'null' }, want: { code: 'INVALID_PAYLOAD', field: '(root)', message: /got null/ } },
  ],
  ...(['amount', 'payment_gateway_fee', 'paid_at', 'status', 'uuid'] as const).map(
    (field): Case => [
      `missing ${field}`,
      {
        given: { rawBody: withBody(without(payload, field)) },
        want: { code: 'INVALID_PAYLOAD', field, message: new RegExp(`has no \`${field}\` field.*spec section 6`) },
      },
    ],
  ),
  [
    'amount as a string',
    {
      given: { rawBody: withBody({ ...payload, amount: '100' }) },
      want: {
        code: 'INVALID_PAYLOAD',
        field: 'amount',
        message: /`amount` must be a finite number, got the string "100"/,
      },
    },
  ],
  [
    'fee as null',
    {
      given: { rawBody: withBody({ ...payload, payment_gateway_fee: null }) },
      want: { code: 'INVALID_PAYLOAD', field: 'payment_gateway_fee', message: /got null/ },
    },
  ],
  [
    'paid_at not a timestamp',
    {
      given: { rawBody: withBody({ ...payload, paid_at: 'yesterday' }) },
      want: { code: 'INVALID_PAYLOAD', field: 'paid_at', message: /ISO 8601 timestamp/ },
    },
  ],
  [
    'status as the GraphQL object',
    {
      given: { rawBody: withBody({ ...payload, status: { name: 'success' } }) },
      want: { code: 'INVALID_PAYLOAD', field: 'status', message: /`status` must be a non-empty string, got object/ },
    },
  ],
  [
    'empty uuid',
    {
      given: { rawBody: withBody({ ...payload, uuid: '' }) },
      want: { code: 'INVALID_PAYLOAD', field: 'uuid', message: /non-empty string/ },
    },
  ],
  [
    'metadata as an array',
    {
      given: { rawBody: withBody({ ...payload, metadata: ['a'] }) },
      want: { code: 'INVALID_PAYLOAD', field: 'metadata', message: /must be a JSON object.*got an array/ },
    },
  ],
];

describe('checkWebhookSignature rejects, with a value', () => {
  it.each(rejected)('%s', (_name, { given, want }) => {
    const result = checkWebhookSignature({
      headers,
      rawBody: body,
      signingKey,
      clientId,
      ...given,
    } as CheckWebhookSignatureInput);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe(want.code);
    expect(result.error.message).toMatch(/^\[payment-contract-kit\] /);
    expect(result.error.message).toMatch(want.message);
    if (want.header) expect(result.error.header).toBe(want.header);
    if (want.field) expect(result.error.field).toBe(want.field);
    // The expected key never leaks into a message.
    expect(result.error.message).not.toContain(signingKey);
  });

  it('checks the headers before the body: a forged request learns nothing about the payload rules', () => {
    const result = checkWebhookSignature({
      headers: { ...headers, 'x-webhook-signing-key': 'guess' },
      rawBody: 'not json',
      signingKey,
      clientId,
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'WRONG_SIGNING_KEY' } });
  });
});

describe('checkWebhookSignature throws on misuse', () => {
  it.each([
    ['no signing key', { signingKey: undefined }, /signingKey is required.*unset environment variable/],
    ['empty signing key', { signingKey: '' }, /signingKey is required.*got an empty string/],
    ['empty key list', { signingKey: [] }, /signingKey is required/],
    ['no client id', { clientId: undefined }, /clientId is required/],
    ['a parsed body', { rawBody: payload }, /Are you passing the raw request body\?.*express\.raw/],
    ['no headers', { headers: undefined }, /headers must be the request's headers/],
  ])('%s', (_name, given, message) => {
    expect(() =>
      checkWebhookSignature({
        headers,
        rawBody: body,
        signingKey,
        clientId,
        ...given,
      } as unknown as CheckWebhookSignatureInput),
    ).toThrow(message);
  });
});
