// The webhook's own headers are listed once (src/contract/webhook-headers.ts): every part that sends, builds, lists
// or checks them follows that list. These tests walk the list, so a header added to it is covered here without a
// new test, and a part that stops following the list fails.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { checkExchange } from '../../src/contract/check/index.ts';
import {
  DEFAULT_WEBHOOK_HEADER_NAMES,
  readWebhookHeaders,
  type WebhookHeaderRole,
  webhookHeaderRoles,
} from '../../src/contract/webhook-headers.ts';
import { webhookMetadata } from '../../src/pact/index.ts';
import { buildTestWebhookRequest } from '../../src/webhook/index.ts';
import { createDeliveryHeaders } from '../support/mock-internals/webhooks.ts';

const roles = Object.keys(webhookHeaderRoles) as WebhookHeaderRole[];
const names = Object.values(DEFAULT_WEBHOOK_HEADER_NAMES);
const payload = {
  amount: 100,
  payment_gateway_fee: 1.8,
  paid_at: '2026-01-01T09:40:00.000Z',
  status: defaultAssumptions.statusNames.success,
  uuid: '0b9e3c1a-5d2f-4e8b-9a7c-6f1d2e3b4a5c',
};

function mockDelivered(): Record<string, string> {
  const headersFor = createDeliveryHeaders({
    signingKey: 'test-signing-key',
    names: DEFAULT_WEBHOOK_HEADER_NAMES,
    wallClock: () => 0,
  });
  const body = JSON.stringify(payload);
  return headersFor({ id: 'whd_1', clientId: 'test-client', payload, body } as Parameters<typeof headersFor>[0]);
}

describe('the webhook header list', () => {
  it('names each header in the ledger and in ASSUMPTIONS.md', () => {
    const ledger = readFileSync(join(import.meta.dirname, '../../ASSUMPTIONS.md'), 'utf8');
    for (const role of roles) {
      const key = webhookHeaderRoles[role].ledgerKey;
      expect(defaultAssumptions.webhook[key], key).toBe(DEFAULT_WEBHOOK_HEADER_NAMES[role]);
      expect(ledger, key).toContain(`webhook.${key}`);
    }
    expect(new Set(names).size).toBe(roles.length);
  });

  it("the mock's delivery and the test request carry every header, and the reader reads each back", () => {
    const test = buildTestWebhookRequest({ signingKey: 'test-signing-key', clientId: 'test-client', payload });
    for (const headers of [mockDelivered(), test.headers]) {
      const read = readWebhookHeaders(headers, DEFAULT_WEBHOOK_HEADER_NAMES);
      for (const role of roles) expect(read[role], role).toBeTruthy();
      expect(read.signingKey).toBe('test-signing-key');
      expect(read.clientId).toBe('test-client');
    }
  });

  it('the Pact message metadata lists every header but the delivery id, in list order', () => {
    const perEvent = roles.filter((r) => r !== 'deliveryId').map((r) => DEFAULT_WEBHOOK_HEADER_NAMES[r]);
    expect(Object.keys(webhookMetadata())).toEqual(perEvent);
  });

  it.each(roles)('the checker reports a webhook without the %s header, and not one with it', (role) => {
    const headers = Object.fromEntries(
      Object.entries(mockDelivered()).map(([name, value]) => [name.toLowerCase(), value]),
    );
    const exchange = (h: Record<string, string>) => ({
      kind: 'webhook' as const,
      request: { method: 'POST', url: '/webhooks', headers: h, body: JSON.stringify(payload) },
    });
    expect(checkExchange(exchange(headers)).drifts).toEqual([]);
    const name = DEFAULT_WEBHOOK_HEADER_NAMES[role];
    const { [name]: _dropped, ...without } = headers;
    const drifts = checkExchange(exchange(without)).drifts;
    expect(drifts.map((d) => [d.kind, d.path])).toEqual([
      [webhookHeaderRoles[role].whenAbsent === undefined ? 'contract' : 'assumption', `(header) ${name}`],
    ]);
  });
});
