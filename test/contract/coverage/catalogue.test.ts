/**
 * The catalogue of the service's behaviours: stable unique ids, one section each, derived from the ledger (a team's
 * reason codes and token lifetime show in the titles), and every 7.3 path it lists is one the mock answers.
 */
import { describe, expect, it } from 'vitest';
import { defaultAssumptions, resolveAssumptions } from '../../../src/assumptions.ts';
import {
  behaviourCatalogue,
  catalogueSections,
  sectionOf,
  serviceRootFields,
} from '../../../src/contract/coverage/catalogue.ts';
import { coverageHint } from '../../../src/contract/coverage/report-formats.ts';

const catalogue = behaviourCatalogue(defaultAssumptions);

describe('the behaviour catalogue', () => {
  it('has unique dotted ids, each in a section, with a title, a spec section, guides and a hint', () => {
    const ids = catalogue.map((b) => b.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const b of catalogue) {
      expect(b.id).toMatch(/^[a-z]+\.[a-zA-Z_.-]+[a-zA-Z]$/);
      expect(sectionOf(b.id)).not.toBe('Other');
      expect(b.title.length).toBeGreaterThan(10);
      expect(b.spec).toMatch(/^\d(\.\d)?$/);
      expect(b.guides.length).toBeGreaterThan(0);
      expect(coverageHint(b.id)).toBe(b.hint);
    }
    expect(Object.keys(catalogueSections)).toEqual(
      expect.arrayContaining([...new Set(ids.map((id) => id.split('.')[0]))]),
    );
  });

  it('names what the issue asks for, under ids that stay put', () => {
    const ids = catalogue.map((b) => b.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'token.generate',
        'token.refresh',
        'token.revoke',
        'token.missing',
        'token.invalid',
        'token.expired',
        'token.revoked',
        'token.other-client',
        'token.bad-credentials',
        'validation.contact',
        'validation.credit_card.expiry_year',
        'validation.credit_card.expiry_month',
        'card.accepted',
        'card.refused',
        'card.settled-success',
        'card.settled-failure',
        'payment.by-card-details',
        'payment.by-card-account',
        'webhook.success',
        'webhook.failure',
        'webhook.first-attempt',
        'webhook.retried',
        'webhook.given-up',
        'legacy.number',
        'legacy.total',
        'legacy.card-location',
        'legacy.payment-input',
        'legacy.contact-reference',
      ]),
    );
    for (const guide of ['current', 'legacy'])
      for (const field of Object.values(serviceRootFields)) expect(ids).toContain(`graphql.${guide}.${field}`);
  });

  it('reads the root fields from the kit operations', () => {
    expect(serviceRootFields).toEqual({
      feeList: 'paymentGatewayFeesCalc',
      cardFee: 'paymentCreditCardFeeCalc',
      payment: 'processPaymentRequest',
    });
  });

  it("follows a team's ledger: its reason codes, token lifetime and headers rule", () => {
    const team = behaviourCatalogue(
      resolveAssumptions({
        tokenTtlSeconds: 300,
        reasonCodes: { ...defaultAssumptions.reasonCodes, expiredToken: 'JWT_EXPIRED' },
        graphqlRequiresClientHeaders: true,
      }),
    );
    const expired = team.find((b) => b.id === 'token.expired');
    expect(expired?.title).toBe('/graphql refused a token that expired after 5 minutes (JWT_EXPIRED)');
    expect(team.map((b) => b.id)).toContain('error.client-headers-missing');
    expect(catalogue.map((b) => b.id)).not.toContain('error.client-headers-missing');
  });

  it('leaves the control plane out', () => {
    for (const b of catalogue) expect(`${b.title} ${b.id}`).not.toMatch(/__pck|control/);
  });
});
