/**
 * Checks a parsed JSON value against the payment status payload of spec section 6. The field list is tied to the
 * generated type, so a field added to openapi.yaml fails to compile here until it is checked.
 *
 * @module
 */
import type { PaymentStatusWebhookPayload } from '../types/rest.ts';

type Kind = 'number' | 'string' | 'timestamp' | 'object';

// `satisfies Record<keyof ...>`: every generated field must be listed, and nothing else.
const FIELDS = {
  amount: { kind: 'number', required: true },
  payment_gateway_fee: { kind: 'number', required: true },
  paid_at: { kind: 'timestamp', required: true },
  status: { kind: 'string', required: true },
  uuid: { kind: 'string', required: true },
  metadata: { kind: 'object', required: false },
} as const satisfies Record<keyof PaymentStatusWebhookPayload, { kind: Kind; required: boolean }>;

const FIELD_LIST = Object.keys(FIELDS).join(', ');

/** The outcome of {@link checkPayload}. */
export type PayloadCheck =
  | { readonly ok: true; readonly payload: PaymentStatusWebhookPayload }
  | { readonly ok: false; readonly field: string; readonly message: string };

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number') return `the number ${value}`;
  return typeof value;
}

const expected: Record<Kind, string> = {
  number: 'a finite number',
  string: 'a non-empty string',
  timestamp: 'an ISO 8601 timestamp string',
  object: 'a JSON object (the metadata given to processPaymentRequest)',
};

function fits(kind: Kind, value: unknown): boolean {
  switch (kind) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string' && value.length > 0;
    case 'timestamp':
      return typeof value === 'string' && value.length > 0 && !Number.isNaN(Date.parse(value));
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}

/**
 * Whether `value` is a payment status payload. Unknown extra fields are accepted (the service may add some), and
 * returned as received.
 */
export function checkPayload(value: unknown): PayloadCheck {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return {
      ok: false,
      field: '(root)',
      message: `the webhook body must be a JSON object with ${FIELD_LIST}; got ${describe(value)}.`,
    };
  const record = value as Record<string, unknown>;
  for (const [field, rule] of Object.entries(FIELDS)) {
    const present = Object.hasOwn(record, field) && record[field] !== undefined;
    if (!present) {
      if (!rule.required) continue;
      return {
        ok: false,
        field,
        message: `the webhook payload has no \`${field}\` field. A payment status payload (spec section 6) carries ${FIELD_LIST}; is this request from the payment service?`,
      };
    }
    if (!fits(rule.kind, record[field]))
      return {
        ok: false,
        field,
        message: `the webhook payload field \`${field}\` must be ${expected[rule.kind]}, got ${describe(record[field])}.`,
      };
  }
  return { ok: true, payload: record as unknown as PaymentStatusWebhookPayload };
}
