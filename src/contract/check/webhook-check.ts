/**
 * The payment status webhook (spec 6): a JSON POST whose payload holds amount and payment_gateway_fee (numbers),
 * paid_at (an ISO 8601 string), status (a string, one of the ledger's final names), uuid (a string) and, when the
 * payment had one, the metadata object; the headers of the contract layer's list (`webhookHeaderRoles`: the signing
 * key and the client id, which spec 6 promises, and the delivery id the kit assumes) under the ledger's names.
 *
 * @module
 */
import type { Assumptions } from '../../assumptions.ts';
import { isPlainObject } from '../../internal/plain-object.ts';
import { type WebhookHeaderRole, webhookHeaderRoles } from '../webhook-headers.ts';
import type { DriftList } from './drift-list.ts';
import type { Exchange } from './exchange.ts';
import { isJsonMediaType, mediaType, readJson } from './exchange-parts.ts';
import { showValue } from './show-value.ts';

const SPEC_6 = 'spec 6';
// ISO 8601 date and time, with an optional fraction and a zone (Z or an offset).
const isoDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

function checkHeader(
  role: WebhookHeaderRole,
  exchange: Exchange,
  a: Assumptions,
  list: DriftList,
  taken: Set<string>,
): void {
  const row = webhookHeaderRoles[role];
  const key = row.ledgerKey;
  const name = a.webhook[key].toLowerCase();
  const headers = exchange.request.headers;
  if (headers[name]) {
    taken.add(name);
    return;
  }
  const candidate = Object.keys(headers).find(
    (h) => !taken.has(h) && h !== 'content-type' && row.looksLike.test(h) && headers[h] !== '',
  );
  if (candidate) {
    taken.add(candidate);
    list.assumption({
      side: 'request',
      path: `(header) ${name}`,
      expected: `the ${row.label} in ${name} (ledger webhook.${key})`,
      actual: `(none); ${candidate} is present`,
      ledgerKey: 'webhook',
      observed: { [key]: candidate },
      message: `The service sends the webhook's ${row.label} in ${candidate}: set assumptions.webhook.${key} to "${candidate}" and read that header in your receiver.`,
    });
    return;
  }
  // Spec 6 promises the signing key and client id headers; a header the kit assumes (the delivery id) is advice.
  if (row.whenAbsent !== undefined)
    list.assumption({
      side: 'request',
      path: `(header) ${name}`,
      expected: `a ${row.label} in ${name} (ledger webhook.${key})`,
      actual: '(none)',
      ledgerKey: 'webhook',
      message: row.whenAbsent,
    });
  else
    list.contract({
      side: 'request',
      path: `(header) ${name}`,
      expected: `a header holding the ${row.label} (${SPEC_6}; named ${name} by the ledger)`,
      actual: '(none)',
      message: `The webhook carries no ${row.label} header; spec 6 says it does. Ask the service's operator which header carries it.`,
    });
}

function checkPayload(value: unknown, a: Assumptions, list: DriftList): void {
  const add = (path: string, expected: string, actual: unknown) =>
    list.contract({
      side: 'request',
      path,
      expected: `${expected} (${SPEC_6})`,
      actual: showValue(actual, path),
      message: `The webhook payload's ${path} is not what spec 6 states: expected ${expected}.`,
    });
  if (!isPlainObject(value)) {
    add('(body)', 'a JSON object', value);
    return;
  }
  for (const key of ['amount', 'payment_gateway_fee'] as const)
    if (typeof value[key] !== 'number') add(key, 'a number', value[key]);
  if (typeof value.paid_at !== 'string' || !isoDateTime.test(value.paid_at))
    add('paid_at', 'an ISO 8601 date-time string', value.paid_at);
  if (typeof value.uuid !== 'string') add('uuid', 'a string', value.uuid);
  if (value.metadata !== undefined && value.metadata !== null && !isPlainObject(value.metadata))
    add('metadata', 'the metadata object given with the payment', value.metadata);
  const status = value.status;
  if (typeof status !== 'string') {
    add('status', 'a string', status);
    return;
  }
  const finals = [a.statusNames.success, a.statusNames.failure];
  if (finals.includes(status)) return;
  const failure = /(fail|declin|reject|error|cancel|void|refus)/i.test(status);
  list.assumption({
    side: 'request',
    path: 'status',
    expected: `"${a.statusNames.success}" or "${a.statusNames.failure}" (ledger statusNames)`,
    actual: showValue(status),
    ledgerKey: 'statusNames',
    observed: failure ? { failure: status } : { success: status },
    message: `The service's webhook names a final status "${status}": set assumptions.statusNames.${failure ? 'failure' : 'success'} to it (check which outcome it stands for), and accept it in your receiver.`,
  });
}

/**
 * Checks a webhook the service sent (the receiver's answer is not the service's, so it is not judged).
 *
 * @example
 * checkWebhookExchange({ kind: 'webhook', request }, defaultAssumptions, list);
 */
export function checkWebhookExchange(exchange: Exchange, a: Assumptions, list: DriftList): void {
  const { request } = exchange;
  if (request.method !== 'POST')
    list.contract({
      side: 'request',
      path: '(http)',
      expected: 'POST (spec 6)',
      actual: request.method,
      message: `The service sent the webhook as ${request.method}; spec 6 describes a POST with a JSON payload.`,
    });
  const taken = new Set<string>();
  for (const role of Object.keys(webhookHeaderRoles) as WebhookHeaderRole[])
    checkHeader(role, exchange, a, list, taken);
  const body = readJson(request);
  if (body.state !== 'json' || !isJsonMediaType(mediaType(request))) {
    list.contract({
      side: 'request',
      path: '(http)',
      expected: 'Content-Type: application/json with a JSON payload (spec 4, 6)',
      actual: `${mediaType(request) ?? 'no content type'}${body.state === 'none' ? ', no body' : body.state === 'invalid' ? ', a body that is not JSON' : ''}`,
      message: 'The webhook is not a JSON payload; spec 6 lists its JSON fields.',
    });
    if (body.state !== 'json') return;
  }
  checkPayload(body.value, a, list);
}
