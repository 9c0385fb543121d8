/**
 * What one observation covers: answered requests (token endpoints, 7.2 reasons, 7.3 paths, root fields per guide),
 * accepted and settled payments, finished deliveries. Every 7.3 path the mock's rule table can answer for a payment
 * is one the catalogue names.
 */
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../src/assumptions.ts';
import { behaviourCatalogue } from '../../../src/contract/coverage/catalogue.ts';
import {
  behavioursOfDelivery,
  behavioursOfPayment,
  behavioursOfRequest,
  behavioursOfSettlement,
} from '../../../src/contract/coverage/observe.ts';
import { servicePaths } from '../../../src/spec-names.ts';
import { paymentRules } from '../../support/mock-internals/graphql.ts';

const a = defaultAssumptions;
const ids = new Set(behaviourCatalogue(a).map((b) => b.id));
const gql = (extra: Parameters<typeof behavioursOfRequest>[0] extends infer R ? Partial<R> : never) =>
  behavioursOfRequest({ path: servicePaths.graphql, status: 200, ...extra }, a);

describe('behaviours of an answered request', () => {
  it('reads the token endpoints by path, status and whether the credentials passed', () => {
    const at = (path: string, status: number, authenticated: boolean) =>
      behavioursOfRequest({ path, status, authenticated }, a);
    expect(at(servicePaths.generateToken, 200, true)).toEqual(['token.generate']);
    expect(at(servicePaths.refreshToken, 200, true)).toEqual(['token.refresh']);
    expect(at(servicePaths.revokeToken, 200, true)).toEqual(['token.revoke']);
    expect(at(servicePaths.refreshToken, 401, true)).toEqual(['token.refresh-refused']);
    expect(at(servicePaths.refreshToken, 401, false)).toEqual(['token.bad-credentials']);
    expect(at(servicePaths.generateToken, 401, false)).toEqual(['token.bad-credentials']);
    expect(at(servicePaths.refreshToken, 400, true)).toEqual([]);
  });

  it('names each token refusal and 7.2 reason of the ledger', () => {
    const c = a.reasonCodes;
    expect(gql({ reason: c.missingToken })).toEqual(['token.missing']);
    expect(gql({ reason: c.invalidToken })).toEqual(['token.invalid']);
    expect(gql({ reason: c.expiredToken })).toEqual(['token.expired']);
    expect(gql({ reason: c.revokedToken })).toEqual(['token.revoked']);
    expect(gql({ reason: c.clientMismatch })).toEqual(['token.other-client']);
    expect(gql({ reason: c.graphqlParseFailed })).toEqual(['error.parse-failed']);
    expect(gql({ reason: c.internal })).toEqual([]);
  });

  it('names a root field answered in its guide, and the legacy names with it', () => {
    expect(gql({ guide: 'current', rootFields: ['paymentGatewayFeesCalc'] })).toEqual([
      'graphql.current.paymentGatewayFeesCalc',
    ]);
    expect(gql({ guide: 'legacy', rootFields: ['processPaymentRequest'] })).toEqual([
      'graphql.legacy.processPaymentRequest',
      'legacy.payment-input',
      'legacy.contact-reference',
    ]);
    expect(gql({ status: 500, guide: 'current', rootFields: ['processPaymentRequest'] })).toEqual([]);
  });

  it('reads 7.3 paths of a payment in either guide, the card number as the refused card', () => {
    const pay = { rootFields: ['processPaymentRequest'] };
    expect(gql({ ...pay, validation: ['input.contact', 'input.credit_card.expiry_year'] })).toEqual([
      'validation.contact',
      'validation.credit_card.expiry_year',
    ]);
    expect(gql({ ...pay, guide: 'legacy', validation: ['input.credit_card.number'] })).toEqual(['card.refused']);
    expect(gql({ ...pay, guide: 'legacy', validation: ['input.contact.reference_no'] })).toEqual([
      'validation.payment_reference.reference_no',
    ]);
    expect(gql({ ...pay, validation: ['input.contact'], reason: a.reasonCodes.guideMismatch })).toEqual([
      'error.guide-mismatch',
    ]);
    expect(gql({ rootFields: ['paymentCreditCardFeeCalc'], validation: ['credit_card.cvv'] })).toEqual([]);
  });

  it("names every payment path the mock's rule table refuses", () => {
    const fields = paymentRules.flatMap((r) => (typeof r.field === 'string' ? [r.field] : Object.values(r.field)));
    const paths = fields.filter((f) => !f.includes('*')).map((f) => `input.${f}`);
    for (const path of paths) {
      const covered = gql({ rootFields: ['processPaymentRequest'], validation: [path] });
      expect(covered, path).toHaveLength(1);
      expect(ids.has(covered[0]!), path).toBe(true);
    }
  });
});

describe('behaviours of payments and deliveries', () => {
  it('reads how a payment named its card, and its final status', () => {
    expect(behavioursOfPayment({ guide: 'current', byCardAccount: false })).toEqual([
      'card.accepted',
      'payment.by-card-details',
    ]);
    expect(behavioursOfPayment({ guide: 'legacy', byCardAccount: false })).toContain('legacy.number');
    expect(behavioursOfPayment({ guide: 'legacy', byCardAccount: true })).toEqual([
      'card.accepted',
      'payment.by-card-account',
    ]);
    expect(behavioursOfSettlement('success')).toEqual(['card.settled-success']);
    expect(behavioursOfSettlement('failure')).toEqual(['card.settled-failure']);
  });

  it('reads a delivery at the first attempt, after retries, or given up', () => {
    expect(behavioursOfDelivery({ delivered: true, attempts: 1, outcome: 'success' })).toEqual([
      'webhook.first-attempt',
      'webhook.success',
    ]);
    expect(behavioursOfDelivery({ delivered: true, attempts: 4, outcome: 'failure' })).toEqual([
      'webhook.retried',
      'webhook.failure',
    ]);
    expect(behavioursOfDelivery({ delivered: false, attempts: 8, outcome: 'success' })).toEqual(['webhook.given-up']);
  });

  it('only ever names behaviours of the catalogue', () => {
    const all = [
      ...behavioursOfPayment({ guide: 'legacy', byCardAccount: false }),
      ...behavioursOfDelivery({ delivered: true, attempts: 2, outcome: 'failure' }),
      ...behavioursOfSettlement('failure'),
    ];
    for (const id of all) expect(ids.has(id), id).toBe(true);
  });
});
