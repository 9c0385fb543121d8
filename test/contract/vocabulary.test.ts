// The contract layer's vocabulary (issue 24): each error shape's one builder and one reader agree, the webhook header
// builder and reader agree under any names, the guides' card field pair, the generated operation texts match
// operations/, and no other part of src/ spells the service's names or shapes again.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { operationTexts } from '../../generated/operation-texts.ts';
import {
  errorShapeText,
  graphqlError,
  graphqlErrorBody,
  readGraphqlErrors,
  readRestError,
  readValidationFields,
  restErrorBody,
  validationError,
} from '../../src/contract/error-shapes.ts';
import { cardNumberField, cardNumberFields, isCardIdentityPath, paymentInputType } from '../../src/contract/guides.ts';
import { operationText } from '../../src/contract/operations.ts';
import { credentialHeaders, serviceHeaders } from '../../src/contract/service-names.ts';
import {
  DEFAULT_WEBHOOK_HEADER_NAMES,
  readWebhookHeaders,
  webhookHeaderNamesOf,
  webhookHeaders,
} from '../../src/contract/webhook-headers.ts';

const root = join(import.meta.dirname, '../..');

describe('error shapes (spec 7)', () => {
  it('7.1: the reader reads what the builder builds, and nothing else', () => {
    const body = JSON.parse(JSON.stringify(restErrorBody('The x-api-key is not valid for this client.')));
    expect(body).toEqual({ status: 'ERROR', message: 'The x-api-key is not valid for this client.' });
    expect(readRestError(body)).toEqual(body);
    for (const other of [{ status: 'SUCCESS', message: 'x' }, { message: 'x' }, { status: 'ERROR' }, null, 'ERROR', []])
      expect(readRestError(other), JSON.stringify(other)).toBeUndefined();
  });

  it('7.2: a reason entry round-trips; entries without a string message are dropped', () => {
    const body = JSON.parse(JSON.stringify(graphqlErrorBody([graphqlError('Token expired.', 'TOKEN_EXPIRED')])));
    expect(body).toEqual({ errors: [{ message: 'Token expired.', extensions: { reason: 'TOKEN_EXPIRED' } }] });
    expect(readGraphqlErrors(body)?.[0]?.extensions?.reason).toBe('TOKEN_EXPIRED');
    expect(readGraphqlErrors({ errors: [{ message: 3 }, 'x', null, { message: 'kept' }] })).toEqual([
      { message: 'kept' },
    ]);
    expect(readGraphqlErrors({ data: {} })).toBeUndefined();
    expect(readGraphqlErrors('errors')).toBeUndefined();
  });

  it('7.3: the spec wording, and the reader merges every validation entry (other entries ignored)', () => {
    const first = validationError('processPaymentRequest', {
      'input.contact': ['The input.contact field is required.'],
    });
    const second = validationError(
      'processPaymentRequest',
      { 'input.contact': ['Again.'], 'input.amount': ['Low.'] },
      'R',
    );
    expect(first).toEqual({
      message: 'Validation failed for the field [processPaymentRequest].',
      path: ['processPaymentRequest'],
      extensions: { category: 'validation', validation: { 'input.contact': ['The input.contact field is required.'] } },
    });
    expect(second.extensions.reason).toBe('R');
    const body = JSON.parse(JSON.stringify(graphqlErrorBody([first, graphqlError('other', 'X'), second])));
    const fields = readValidationFields(readGraphqlErrors(body) ?? []);
    expect(fields).toEqual({
      'input.contact': ['The input.contact field is required.', 'Again.'],
      'input.amount': ['Low.'],
    });
    // Fresh arrays: a caller may change them without touching the answer.
    fields['input.amount']?.push('mine');
    expect(body.errors[2].extensions.validation['input.amount']).toEqual(['Low.']);
    expect(
      readValidationFields([{ message: 'x', extensions: { category: 'other', validation: { a: ['b'] } } }]),
    ).toEqual({});
  });

  it('names each shape for reports', () => {
    expect(errorShapeText.rest).toContain('7.1');
    expect(errorShapeText.graphql).toContain('7.2');
    expect(errorShapeText.validation).toContain('7.3');
  });
});

describe('guides', () => {
  it('knows the card number field pair once', () => {
    expect(cardNumberField).toEqual({ current: 'card_number', legacy: 'number' });
    expect([...cardNumberFields].sort()).toEqual(['card_number', 'number']);
    expect(paymentInputType).toEqual({ current: 'ProcessPaymentRequestInput', legacy: 'ProcessPaymentInput' });
  });

  it.each([
    ['input.credit_card.card_number', true],
    ['input.credit_card.number', true],
    ['input.credit_card.card_account_uid', true],
    ['credit_card.card_number', false],
    ['input.credit_card.expiry_year', false],
    ['input.contact.number', false],
    ['input.credit_card.number.extra', false],
    ['input.credit_cardXnumber', false],
  ])('%s names the card itself: %s', (path, expected) => {
    expect(isCardIdentityPath(path)).toBe(expected);
  });
});

describe('webhook headers', () => {
  it('maps the ledger keys to roles once', () => {
    expect(
      webhookHeaderNamesOf({ signingKeyHeader: 'x-sig', clientIdHeader: 'x-cid', deliveryIdHeader: 'x-did' }),
    ).toEqual({ signingKey: 'x-sig', clientId: 'x-cid', deliveryId: 'x-did' });
    expect(DEFAULT_WEBHOOK_HEADER_NAMES).toEqual({
      signingKey: 'x-webhook-signing-key',
      clientId: 'x-client-id',
      deliveryId: 'x-webhook-delivery-id',
    });
  });

  it('reads back what it builds, under any names and letter case', () => {
    const names = { signingKey: 'X-Sig', clientId: 'x-cid', deliveryId: 'x-did' };
    const built = webhookHeaders(names, { signingKey: 'k', clientId: 'c', deliveryId: 'd' });
    expect(built).toEqual({ 'X-Sig': 'k', 'x-cid': 'c', 'x-did': 'd' });
    expect(readWebhookHeaders(built, names)).toEqual({ signingKey: 'k', clientId: 'c', deliveryId: 'd' });
    expect(readWebhookHeaders(new Headers(built), names)).toEqual({ signingKey: 'k', clientId: 'c', deliveryId: 'd' });
    // A Pact message has no delivery id: the builder leaves the header out.
    expect(webhookHeaders(names, { signingKey: 'k', clientId: 'c' })).toEqual({ 'X-Sig': 'k', 'x-cid': 'c' });
    expect(readWebhookHeaders({ 'x-sig': ['a', 'b'] }, names).signingKey).toBe('a, b');
  });
});

describe('service names', () => {
  it('builds the credential headers of spec 5', () => {
    expect(credentialHeaders('test-client', 'test-api-key')).toEqual({
      'x-client-id': 'test-client',
      'x-api-key': 'test-api-key',
    });
    expect(serviceHeaders.jwt).toBe('x-jwt-token');
  });
});

describe('operation texts', () => {
  it.each(['current', 'legacy'] as const)('%s: each text prints like its file in operations/', (guide) => {
    const dir = join(root, 'operations', guide);
    const files = readdirSync(dir).filter((f) => f.endsWith('.graphql'));
    // One generated text per file: a file the generator skipped (or a text left from a deleted file) shows here.
    expect(files.length).toBeGreaterThan(0);
    expect(files).toHaveLength(Object.keys(operationTexts[guide]).length);
    for (const file of files) {
      const document = parse(readFileSync(join(dir, file), 'utf8'));
      const definition = document.definitions[0];
      if (definition?.kind !== 'OperationDefinition' || !definition.name)
        throw new Error(`${file}: no named operation`);
      const text = operationText(guide, definition.name.value as Parameters<typeof operationText>[1]);
      expect(text).not.toContain('\n');
      expect(print(parse(text)), file).toBe(print(document));
    }
  });
});

/** Code lines of every src/ file outside the contract layer, comments left out. */
function codeLinesOutsideContract(): { file: string; line: string }[] {
  const out: { file: string; line: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (path !== 'src/contract') walk(path);
      } else if (entry.name.endsWith('.ts')) {
        for (const line of readFileSync(join(root, path), 'utf8').split('\n')) {
          const trimmed = line.trim();
          if (!trimmed.startsWith('*') && !trimmed.startsWith('//') && !trimmed.startsWith('/*'))
            out.push({ file: path, line });
        }
      }
    }
  };
  walk('src');
  return out;
}

describe('one spelling', () => {
  const lines = codeLinesOutsideContract();
  it.each([
    ['a 7.1 body written out', /status:\s*'ERROR'/],
    ['a 7.3 category written out', /category:\s*'validation'/],
    ['a 7.3 message written out', /Validation failed for the field/],
    ['a request header name as a key', /['"](x-client-id|x-api-key|x-jwt-token)['"]\s*[:\]]/],
    ['the card number field pair', /['"]card_number['"]\s*,\s*['"]number['"]|key === 'number'/],
    ['a second WebhookReceiver', /type WebhookReceiver\s*=/],
  ])('no part outside src/contract has %s', (_what, pattern) => {
    expect(lines.filter(({ line }) => pattern.test(line)).map(({ file, line }) => `${file}: ${line.trim()}`)).toEqual(
      [],
    );
  });
});
