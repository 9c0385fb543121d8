// Fuzzes the receiver helpers in process: checkWebhookSignature and checkStandardWebhookSignature with random headers and bodies.
// They return failures as values; only misuse (no key, a parsed body, no headers object) throws, and then only a
// TypeError with the kit's prefix. They never accept a request whose headers (or Standard Webhooks signature) do not
// match the configured key and client id exactly.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readHeader } from '../../src/internal/headers-like.ts';
import {
  buildTestWebhookRequest,
  checkStandardWebhookSignature,
  checkWebhookSignature,
  DEFAULT_WEBHOOK_HEADER_NAMES,
} from '../../src/webhook/index.ts';
import { fuzzSettings, fuzzTimeout } from './support/fuzz-settings.ts';

const settings = fuzzSettings();
const signingKey = 'whk_5f0c1e4a9b7d3e2f8a6c0b1d4e7f9a2c3b5d8e0f1a4c7b9d2e6f8a0c3b5d7e9f1';
const clientId = 'client-7d2e6f8a0c3b';
const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const nowMs = 1_763_900_000_000;
const names = DEFAULT_WEBHOOK_HEADER_NAMES;
const valid = buildTestWebhookRequest({
  signingKey,
  clientId,
  payload: { uuid: 'pay-1', paid_at: '2026-01-01T00:00:00.000Z', metadata: { order: 'A-1' } },
  standardWebhooks: { secret, timestamp: Math.floor(nowMs / 1000) },
});

const anyString = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', '\ud800', 'null', '[]', '{}'),
);
/** Values close to the real ones: the key or client id with a byte changed, cut, padded or repeated. */
const near = (real: string) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant(real) },
    fc.constant(real.toUpperCase()),
    fc.constant(` ${real}`),
    fc.constant(`${real} `),
    fc.constant(`${real}, ${real}`),
    fc.nat({ max: real.length }).map((n) => real.slice(0, n)),
    fc
      .tuple(fc.nat({ max: real.length - 1 }), fc.integer({ min: 0, max: 255 }))
      .map(([i, b]) => real.slice(0, i) + String.fromCharCode(b) + real.slice(i + 1)),
    anyString,
  );
const headerValue = (real: string) =>
  fc.oneof(
    { weight: 6, arbitrary: near(real) },
    { weight: 1, arbitrary: fc.array(near(real), { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
const standardHeaders = fc.record(
  {
    'webhook-id': fc.oneof(fc.constant(valid.headers['webhook-id']!), anyString),
    'webhook-timestamp': fc.oneof(
      fc.constant(valid.headers['webhook-timestamp']!),
      fc.integer({ min: -1, max: 2 ** 40 }).map(String),
      anyString,
    ),
    'webhook-signature': fc.oneof(
      fc.constant(valid.headers['webhook-signature']!),
      fc.constant(`v1a,x ${valid.headers['webhook-signature']!}`),
      fc.base64String({ maxLength: 60 }).map((s) => `v1,${s}`),
      anyString,
    ),
  },
  { requiredKeys: [] },
);
const headersRecord = fc
  .tuple(
    headerValue(signingKey),
    headerValue(clientId),
    standardHeaders,
    fc.dictionary(fc.string({ maxLength: 12 }), fc.string({ maxLength: 20 }), { maxKeys: 3 }),
    fc.boolean(),
  )
  .map(([key, client, standard, extra, upperCaseNames]) => {
    const headers: Record<string, string | string[] | undefined> = { ...extra, ...standard };
    const name = (n: string) => (upperCaseNames ? n.toUpperCase() : n);
    if (key !== undefined) headers[name(names.signingKey)] = key;
    if (client !== undefined) headers[name(names.clientId)] = client;
    return headers;
  });
const asFetchHeaders = (record: Record<string, string | string[] | undefined>): Headers | undefined => {
  try {
    const h = new Headers();
    for (const [k, v] of Object.entries(record))
      if (v !== undefined) for (const one of Array.isArray(v) ? v : [v]) h.append(k, one);
    return h;
  } catch {
    return undefined; // Fetch refuses names or values a real request could not carry.
  }
};
const payloadBody = fc.oneof(
  { weight: 3, arbitrary: fc.constant(valid.body) },
  fc.nat({ max: valid.body.length }).map((n) => valid.body.slice(0, n)),
  fc
    .record({
      amount: fc.oneof(fc.double(), fc.string(), fc.constant(null)),
      payment_gateway_fee: fc.oneof(fc.double(), fc.constant('1.8')),
      paid_at: fc.oneof(fc.string(), fc.integer()),
      status: fc.oneof(fc.constantFrom('success', 'failure', 'processing'), fc.anything()),
      uuid: fc.oneof(fc.uuid(), fc.integer()),
      metadata: fc.oneof(fc.jsonValue(), fc.constant(undefined)),
    })
    .map((p) => JSON.stringify(p)),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  anyString,
);
const rawBody = fc.oneof(
  { weight: 4, arbitrary: payloadBody },
  { weight: 1, arbitrary: payloadBody.map((s) => Buffer.from(s)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }) },
);

function expectedSignature(headers: Record<string, string | string[] | undefined>, body: string | Uint8Array) {
  const id = readHeader(headers, 'webhook-id');
  const ts = readHeader(headers, 'webhook-timestamp');
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${ts}.`).update(Buffer.from(body)).digest('base64')}`;
}

describe('webhook helper fuzz', () => {
  it(
    `never throws on ${settings.runs} random requests and never accepts a forged one`,
    () => {
      const counts = { cases: 0, accepted: 0, rejected: 0, standard: 0, fetchHeaders: 0 };
      const codes = new Map<string, number>();
      fc.assert(
        fc.property(headersRecord, rawBody, fc.boolean(), fc.boolean(), (headers, body, useStandard, useFetch) => {
          counts.cases++;
          const fetchHeaders = useFetch ? asFetchHeaders(headers) : undefined;
          if (fetchHeaders) counts.fetchHeaders++;
          const input = {
            headers: fetchHeaders ?? headers,
            rawBody: body,
            signingKey,
            clientId,
            ...(useStandard ? { standardWebhooks: { secret, now: () => nowMs } } : {}),
          };
          const result = checkWebhookSignature(input);
          if (!result.ok) {
            counts.rejected++;
            codes.set(result.error.code, (codes.get(result.error.code) ?? 0) + 1);
            expect(result.error.message.startsWith('[payment-contract-kit] ')).toBe(true);
            return;
          }
          counts.accepted++;
          // Accepted: both headers are exactly the configured values, and a Standard Webhooks signature matches.
          expect(readHeader(input.headers, names.signingKey)).toBe(signingKey);
          expect(readHeader(input.headers, names.clientId)).toBe(clientId);
          expect(result.payload).toEqual(JSON.parse(Buffer.from(body).toString('utf8')));
          if (useStandard) {
            counts.standard++;
            const sent = (readHeader(input.headers, 'webhook-signature') ?? '').split(' ');
            expect(sent).toContain(expectedSignature(headers, body));
          }
        }),
        { seed: settings.seed, numRuns: settings.runs, endOnFailure: true },
      );
      console.info(
        `webhook fuzz: cases=${counts.cases} accepted=${counts.accepted} rejected=${counts.rejected} ` +
          `(${[...codes].map(([c, n]) => `${c}=${n}`).join(' ')}) standard-accepted=${counts.standard} ` +
          `fetch-headers=${counts.fetchHeaders} thrown=0 forged-accepted=0 seed=${settings.seed}`,
      );
      // The run must reach both outcomes, or the property proves nothing.
      expect(counts.accepted).toBeGreaterThan(0);
      expect(counts.rejected).toBeGreaterThan(0);
    },
    fuzzTimeout(settings.runs, 4),
  );

  it(
    `checkStandardWebhookSignature alone: ${settings.runs} random requests, accepted only with a matching signature`,
    () => {
      let accepted = 0;
      fc.assert(
        fc.property(standardHeaders, rawBody, fc.integer({ min: 0, max: 600 }), (headers, body, tolerance) => {
          const result = checkStandardWebhookSignature({
            headers,
            rawBody: body,
            secret,
            toleranceSeconds: tolerance,
            now: () => nowMs,
          });
          if (!result.ok) return;
          accepted++;
          expect((headers['webhook-signature'] ?? '').split(' ')).toContain(expectedSignature(headers, body));
          expect(Math.abs(Number(headers['webhook-timestamp']) - nowMs / 1000)).toBeLessThanOrEqual(tolerance);
        }),
        { seed: settings.seed + 1, numRuns: settings.runs, endOnFailure: true },
      );
      console.info(`webhook fuzz (standard): cases=${settings.runs} accepted=${accepted} thrown=0 forged-accepted=0`);
      expect(accepted).toBeGreaterThan(0);
    },
    fuzzTimeout(settings.runs, 4),
  );

  it('misuse throws only its TypeError with the kit prefix', () => {
    let thrown = 0;
    let returned = 0;
    fc.assert(
      fc.property(
        fc.record({
          headers: fc.oneof(fc.anything(), headersRecord),
          rawBody: fc.oneof(fc.anything(), rawBody),
          signingKey: fc.oneof(fc.anything(), fc.constant(signingKey), fc.array(fc.string())),
          clientId: fc.oneof(fc.anything(), fc.constant(clientId)),
        }),
        (input) => {
          try {
            const result = checkWebhookSignature(input as never);
            returned++;
            if (result.ok) {
              expect(readHeader(input.headers as never, names.signingKey)).toBeOneOf(
                ([] as unknown[]).concat(input.signingKey),
              );
              expect(readHeader(input.headers as never, names.clientId)).toBe(input.clientId);
            }
          } catch (error) {
            thrown++;
            expect(error).toBeInstanceOf(TypeError);
            expect((error as Error).message.startsWith('[payment-contract-kit] ')).toBe(true);
          }
        },
      ),
      { seed: settings.seed + 2, numRuns: Math.min(settings.runs, 10_000), endOnFailure: true },
    );
    console.info(`webhook fuzz (misuse): thrown TypeError=${thrown} returned=${returned} other throws=0`);
    expect(thrown).toBeGreaterThan(0);
  });

  it('rejects every single-byte change of the signing key and client id headers', () => {
    expect(checkWebhookSignature({ headers: valid.headers, rawBody: valid.body, signingKey, clientId }).ok).toBe(true);
    // Several replacements per position: a neighbour byte, the other letter case, NUL, space, a digit, DEL, 0xff.
    const replacements = (c: number) =>
      [...new Set([c ^ 1, c ^ 0x20, 0, 0x20, 0x30, 0x7f, 0xff])]
        .filter((r) => r !== c)
        .map((r) => String.fromCharCode(r));
    let cases = 0;
    let accepted = 0;
    for (const [header, real] of [
      [names.signingKey, signingKey],
      [names.clientId, clientId],
    ] as const) {
      for (let i = 0; i < real.length; i++) {
        for (const r of replacements(real.charCodeAt(i))) {
          const changed = real.slice(0, i) + r + real.slice(i + 1);
          const headers = { ...valid.headers, [header]: changed };
          cases++;
          const result = checkWebhookSignature({ headers, rawBody: valid.body, signingKey, clientId });
          if (result.ok) accepted++;
          expect(result.ok, `${header} byte ${i} -> 0x${r.charCodeAt(0).toString(16)}`).toBe(false);
        }
      }
    }
    console.info(
      `webhook fuzz (single byte): key bytes=${signingKey.length} client-id bytes=${clientId.length} cases=${cases} accepted=${accepted}`,
    );
    expect(cases).toBeGreaterThan(6 * (signingKey.length + clientId.length));
  });
});
