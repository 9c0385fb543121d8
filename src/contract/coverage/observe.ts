/**
 * Which behaviours of the catalogue (catalogue.ts) one observation exercises: an answered request of the service,
 * an accepted payment, a settlement, a finished webhook delivery. The mock's coverage collector reads them off its
 * events and `verify --coverage` off a pact's interactions; both name behaviours through these functions only, so
 * the two readings cannot drift apart.
 *
 * @module
 */
import type { Assumptions } from '../../assumptions.ts';
import { type GuideName, isCardIdentityPath, legacyGuideNames } from '../guides.ts';
import { servicePaths } from '../service-names.ts';
import { serviceRootFields, validatedPaymentPaths } from './catalogue.ts';

/** One answered request of the service, as a coverage reader sees it (no bodies, no card data). */
export interface AnsweredRequest {
  /** The service path, without the query string. */
  readonly path: string;
  readonly status: number;
  /** The guide a GraphQL request was read in. */
  readonly guide?: GuideName | undefined;
  /** The GraphQL root fields the request selected. */
  readonly rootFields?: readonly string[] | undefined;
  /** The first GraphQL error's `extensions.reason` (7.2). */
  readonly reason?: string | undefined;
  /** The 7.3 input paths refused. */
  readonly validation?: readonly string[] | undefined;
  /**
   * On a token endpoint: whether the client's credentials passed (a 401 after they did is a refused refresh token,
   * one before is a bad x-client-id or x-api-key).
   */
  readonly authenticated?: boolean | undefined;
}

const knownValidationIds = new Map(validatedPaymentPaths.map((p) => [p.path, `validation.${p.path.slice(6)}`]));
const rootFieldList = Object.values(serviceRootFields);

/** The fields the older guide keeps in the contact and the current one in payment_reference (spec 2.5). */
const movedToReference = ['description', 'reference_no'] as const;

/** A 7.3 path in the current guide's names: the legacy contact's payment reference fields move to payment_reference. */
function currentPath(path: string): string {
  for (const field of movedToReference)
    if (path === `input.contact.${field}`) return `input.${legacyGuideNames.paymentReferenceField}.${field}`;
  return path;
}

function tokenEndpoint(request: AnsweredRequest): string[] {
  const { path, status } = request;
  if (status === 200) {
    if (path === servicePaths.generateToken) return ['token.generate'];
    if (path === servicePaths.refreshToken) return ['token.refresh'];
    if (path === servicePaths.revokeToken) return ['token.revoke'];
    return [];
  }
  if (status !== 401) return [];
  if (request.authenticated === false) return ['token.bad-credentials'];
  return path === servicePaths.refreshToken && request.authenticated === true ? ['token.refresh-refused'] : [];
}

function reasonIds(reason: string, a: Assumptions): string[] {
  const c = a.reasonCodes;
  const byReason: Record<string, string> = {
    [c.missingToken]: 'token.missing',
    [c.invalidToken]: 'token.invalid',
    [c.expiredToken]: 'token.expired',
    [c.revokedToken]: 'token.revoked',
    [c.clientMismatch]: 'token.other-client',
    [c.badRequest]: 'error.bad-request',
    [c.graphqlParseFailed]: 'error.parse-failed',
    [c.graphqlValidationFailed]: 'error.validation-failed',
    [c.guideMismatch]: 'error.guide-mismatch',
    [c.missingClientHeaders]: 'error.client-headers-missing',
  };
  const id = byReason[reason];
  return id === undefined ? [] : [id];
}

function answeredFields(request: AnsweredRequest): string[] {
  const guide = request.guide ?? 'current';
  const fields = request.rootFields ?? [];
  const ids: string[] = [];
  for (const field of rootFieldList) if (fields.includes(field)) ids.push(`graphql.${guide}.${field}`);
  if (guide === 'legacy') {
    if (fields.includes(serviceRootFields.feeList)) ids.push('legacy.total', 'legacy.card-location');
    if (fields.includes(serviceRootFields.cardFee)) ids.push('legacy.number');
    if (fields.includes(serviceRootFields.payment)) ids.push('legacy.payment-input', 'legacy.contact-reference');
  }
  return ids;
}

function refusedPaths(validation: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const raw of validation) {
    if (isCardIdentityPath(raw)) {
      ids.add('card.refused');
      continue;
    }
    const id = knownValidationIds.get(currentPath(raw));
    if (id !== undefined) ids.add(id);
  }
  return [...ids];
}

/**
 * The behaviours one answered request exercises, under `assumptions` (its reason codes name the 7.2 refusals).
 *
 * @example
 * behavioursOfRequest({ path: '/graphql', status: 200, reason: 'TOKEN_EXPIRED' }, defaultAssumptions); // ['token.expired']
 */
export function behavioursOfRequest(request: AnsweredRequest, assumptions: Assumptions): string[] {
  if (request.path !== servicePaths.graphql) return tokenEndpoint(request);
  const { reason, validation } = request;
  if (reason !== undefined && reason === assumptions.reasonCodes.guideMismatch) return ['error.guide-mismatch'];
  if (validation !== undefined && validation.length > 0)
    return request.rootFields?.includes(serviceRootFields.payment) ? refusedPaths(validation) : [];
  if (reason !== undefined) return reasonIds(reason, assumptions);
  if (request.status !== 200) return [];
  return answeredFields(request);
}

/**
 * The behaviours of an accepted payment: accepted, by card details or by `card_account_uid`, and in the older guide
 * the card number sent as `number`.
 *
 * @example
 * behavioursOfPayment({ guide: 'current', byCardAccount: true }); // ['card.accepted', 'payment.by-card-account']
 */
export function behavioursOfPayment(payment: { readonly guide: GuideName; readonly byCardAccount: boolean }): string[] {
  const ids = ['card.accepted', payment.byCardAccount ? 'payment.by-card-account' : 'payment.by-card-details'];
  if (payment.guide === 'legacy' && !payment.byCardAccount) ids.push('legacy.number');
  return ids;
}

/**
 * The behaviour of a payment's final status.
 *
 * @example
 * behavioursOfSettlement('failure'); // ['card.settled-failure']
 */
export function behavioursOfSettlement(outcome: 'success' | 'failure'): string[] {
  return [outcome === 'success' ? 'card.settled-success' : 'card.settled-failure'];
}

/**
 * The behaviours of a finished webhook delivery: delivered at the first attempt or after retries (and with which
 * final status, when known), or given up.
 *
 * @example
 * behavioursOfDelivery({ delivered: true, attempts: 3, outcome: 'success' }); // ['webhook.retried', 'webhook.success']
 */
export function behavioursOfDelivery(delivery: {
  readonly delivered: boolean;
  readonly attempts: number;
  readonly outcome?: 'success' | 'failure' | undefined;
}): string[] {
  if (!delivery.delivered) return ['webhook.given-up'];
  const ids = [delivery.attempts <= 1 ? 'webhook.first-attempt' : 'webhook.retried'];
  if (delivery.outcome !== undefined) ids.push(`webhook.${delivery.outcome}`);
  return ids;
}
