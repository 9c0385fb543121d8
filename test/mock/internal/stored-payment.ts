import type { StoredPayment } from '../../support/mock-internals/domain.ts';

/** A processing visa payment of client `c` accepted at `now`; `overrides` set what a test is about. */
export function storedPayment(uuid: string, overrides: Partial<StoredPayment> = {}, now = 0): StoredPayment {
  return {
    uuid,
    clientId: 'c',
    guide: 'current',
    amount: 1,
    payment_gateway_fee: 0.3,
    paid_at: new Date(now).toISOString(),
    status: 'processing',
    outcome: 'success',
    settledOutcome: undefined,
    settledAt: undefined,
    metadata: undefined,
    card_account_uid: 'u',
    card_type: 'visa',
    masked_card_number: '411111******1111',
    ip_address: '127.0.0.1',
    vendor_device_id: undefined,
    payment_reference: { description: 'd', reference_no: 'r' },
    ...overrides,
  };
}
