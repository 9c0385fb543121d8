/**
 * The catalogue of the service's behaviours: what a real integration must meet, each with a stable dotted id, a
 * title in the interface's words, its section of the interface document, the guides it exists in and the request or
 * test card that exercises it. Built from the contract layer's names (paths, guides, operations) and the ledger
 * (reason codes, the token lifetime, the retry policy), so it follows a team's own ledger; control-plane calls are
 * not behaviours of the service and are not in it.
 *
 * @module
 */
import type { Assumptions } from '../../assumptions.ts';
import type { GuideName } from '../guides.ts';
import { operationText } from '../operations.ts';

/** One behaviour of the service. */
export interface Behaviour {
  /** Stable dotted id (`token.expired`); never reused for another behaviour. */
  readonly id: string;
  /** What happened, in the interface's words. */
  readonly title: string;
  /** The section of the interface document (`7.2`, `4.1`). */
  readonly spec: string;
  /** The guides the behaviour exists in. */
  readonly guides: readonly GuideName[];
  /** The request or test card that would exercise it, said to the person whose suite never did. */
  readonly hint: string;
}

/** The payment mutation's root field and the other root fields, read from the kit's operations. */
function rootFieldOf(text: string): string {
  const match = /\{\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(text);
  if (!match?.[1]) throw new Error(`An operation of the kit selects no root field: ${text}`);
  return match[1];
}

const bothGuides: readonly GuideName[] = ['current', 'legacy'];
const refusedCard = '4000000000000069';
const failingCard = '4000000000000002';

/** The root fields the kit's operations select (spec 4.4 to 4.6), the same in both guides. */
export const serviceRootFields = {
  feeList: rootFieldOf(operationText('current', 'PaymentGatewayFeesCalc')),
  cardFee: rootFieldOf(operationText('current', 'PaymentCreditCardFeeCalc')),
  payment: rootFieldOf(operationText('current', 'ProcessPaymentRequest')),
} as const;

/**
 * The 7.3 input paths of `processPaymentRequest` the mock answers with a validation entry, in the current guide's
 * names (a legacy path is read under its current name: `credit_card.number` as `credit_card.card_number`,
 * `contact.description` as `payment_reference.description`). The card number and `card_account_uid` are the refused
 * card (`card.refused`), not a path of their own.
 */
export const validatedPaymentPaths: readonly {
  readonly path: string;
  readonly title: string;
  readonly spec: string;
}[] = [
  { path: 'input.amount', title: 'a payment amount that is missing, not above 0, or too large', spec: '2.6' },
  { path: 'input.fees', title: 'a fee that is missing, negative, or not the calculated fee', spec: '2.6' },
  { path: 'input.credit_card', title: 'a payment without credit_card', spec: '2.6' },
  { path: 'input.credit_card.full_name', title: 'a card without its holder name', spec: '2.4' },
  { path: 'input.credit_card.expiry_month', title: 'an expiry month that is not 2 digits, or past', spec: '2.4' },
  { path: 'input.credit_card.expiry_year', title: 'an expiry year that is not 2 digits, or in the past', spec: '7.3' },
  { path: 'input.credit_card.cvv', title: 'a CVV missing or of the wrong length', spec: '2.4' },
  { path: 'input.contact', title: 'a missing contact ("contact required")', spec: '7.3' },
  { path: 'input.contact.first_name', title: 'a contact without first_name', spec: '2.5' },
  { path: 'input.contact.last_name', title: 'a contact without last_name', spec: '2.5' },
  { path: 'input.contact.email', title: 'a contact without a valid email', spec: '2.5' },
  { path: 'input.payment_reference', title: 'a payment without payment_reference', spec: '4.6' },
  { path: 'input.payment_reference.description', title: 'a payment reference without description', spec: '4.6' },
  { path: 'input.payment_reference.reference_no', title: 'a payment reference without reference_no', spec: '4.6' },
  { path: 'input.metadata', title: 'metadata that is not a JSON object, or too large', spec: '2.6' },
  { path: 'input.vendor_device_id', title: 'a vendor_device_id longer than the longest text', spec: '2.6' },
  { path: 'input.ip_address', title: 'an ip_address that is not an IP address', spec: '2.6' },
];

/** The section of the catalogue a behaviour belongs to, by its id's first part. */
export const catalogueSections: Readonly<Record<string, string>> = {
  token: 'Tokens (4.1 to 4.3, 5, 7.1)',
  graphql: 'GraphQL operations (4.4 to 4.6)',
  validation: 'Validation errors (7.3)',
  error: 'GraphQL errors (7.2)',
  card: 'Test cards and payments (3, 4.6)',
  payment: 'Test cards and payments (3, 4.6)',
  webhook: 'Payment status webhook (6)',
  legacy: "The older guide's names (2.2, 2.4 to 2.6, 9)",
};

function tokenBehaviours(a: Assumptions): Behaviour[] {
  const minutes = a.tokenTtlSeconds % 60 === 0 ? `${a.tokenTtlSeconds / 60} minutes` : `${a.tokenTtlSeconds} s`;
  const c = a.reasonCodes;
  const t = (id: string, title: string, spec: string, hint: string): Behaviour => ({
    id: `token.${id}`,
    title,
    spec,
    guides: bothGuides,
    hint,
  });
  return [
    t('generate', 'generate-token answered a token pair', '4.1', 'call generate-token with x-client-id and x-api-key.'),
    t(
      'refresh',
      'refresh-token answered a new pair',
      '4.2',
      'call refresh-token with the refresh_token you were given.',
    ),
    t('revoke', 'revoke-token revoked the current token', '4.3', 'call revoke-token with the token in x-jwt-token.'),
    t(
      'refresh-refused',
      'refresh-token refused a refresh token already used or revoked (401)',
      '7.1',
      'call refresh-token twice with the same refresh_token.',
    ),
    t(
      'bad-credentials',
      'a token endpoint refused a missing or wrong x-client-id or x-api-key (401)',
      '7.1',
      'call generate-token with a wrong x-api-key.',
    ),
    t(
      'missing',
      `/graphql refused a request without x-jwt-token (${c.missingToken})`,
      '7.2',
      'call /graphql without x-jwt-token.',
    ),
    t(
      'invalid',
      `/graphql refused a token it did not issue (${c.invalidToken})`,
      '7.2',
      'send x-jwt-token: not-a-token.',
    ),
    t(
      'expired',
      `/graphql refused a token that expired after ${minutes} (${c.expiredToken})`,
      '5',
      `advance the sandbox clock past ${minutes} (POST /__pck/clock/advance) and call /graphql with the old token.`,
    ),
    t(
      'revoked',
      `/graphql refused a revoked token (${c.revokedToken})`,
      '4.3',
      'revoke a token, then call /graphql with it.',
    ),
    t(
      'other-client',
      `/graphql refused another client's token (${c.clientMismatch})`,
      '5',
      "send x-client-id of one client with another client's token.",
    ),
  ];
}

function graphqlBehaviours(): Behaviour[] {
  const words: Record<string, string> = {
    [serviceRootFields.feeList]: 'the fee list for an amount',
    [serviceRootFields.cardFee]: 'the fee for a card',
    [serviceRootFields.payment]: 'a payment accepted',
  };
  const spec: Record<string, string> = {
    [serviceRootFields.feeList]: '4.4',
    [serviceRootFields.cardFee]: '4.5',
    [serviceRootFields.payment]: '4.6',
  };
  return bothGuides.flatMap((guide) =>
    Object.values(serviceRootFields).map((field) => ({
      id: `graphql.${guide}.${field}`,
      title: `${field} answered ${words[field]} in the ${guide} guide`,
      spec: spec[field]!,
      guides: [guide],
      hint: `send ${field} written in the ${guide} guide${guide === 'legacy' ? ' (run the mock with --guide legacy or both)' : ''}.`,
    })),
  );
}

function validationBehaviours(): Behaviour[] {
  return validatedPaymentPaths.map(({ path, title, spec }) => ({
    id: `validation.${path.slice('input.'.length)}`,
    title: `${serviceRootFields.payment} refused ${title} (7.3 on ${path})`,
    spec,
    guides: bothGuides,
    hint: `send ${serviceRootFields.payment} with ${path} left out or invalid.`,
  }));
}

function errorBehaviours(a: Assumptions): Behaviour[] {
  const c = a.reasonCodes;
  const rows: Behaviour[] = [
    {
      id: 'error.bad-request',
      title: `/graphql refused a body that is not a GraphQL request (${c.badRequest})`,
      spec: '7.2',
      guides: bothGuides,
      hint: 'POST /graphql with a JSON body without "query".',
    },
    {
      id: 'error.parse-failed',
      title: `/graphql refused a query that does not parse (${c.graphqlParseFailed})`,
      spec: '7.2',
      guides: bothGuides,
      hint: 'send { "query": "{" }.',
    },
    {
      id: 'error.validation-failed',
      title: `/graphql refused a query the schema does not allow (${c.graphqlValidationFailed})`,
      spec: '7.2',
      guides: bothGuides,
      hint: 'select a field the schema does not have.',
    },
    {
      id: 'error.guide-mismatch',
      title: `/graphql refused a request written in the other guide (${c.guideMismatch})`,
      spec: '9',
      guides: bothGuides,
      hint: 'send a legacy-guide query to a mock that answers the current guide only.',
    },
  ];
  if (a.graphqlRequiresClientHeaders)
    rows.push({
      id: 'error.client-headers-missing',
      title: `/graphql refused a request without x-client-id and x-api-key (${c.missingClientHeaders})`,
      spec: '5',
      guides: bothGuides,
      hint: 'call /graphql with the token only.',
    });
  return rows;
}

function paymentBehaviours(a: Assumptions): Behaviour[] {
  const b = (id: string, title: string, spec: string, hint: string): Behaviour => ({
    id,
    title,
    spec,
    guides: bothGuides,
    hint,
  });
  const { success, failure, processing } = a.statusNames;
  return [
    b('card.accepted', `a payment accepted (status ${processing})`, '3', 'pay with test card 4111111111111111.'),
    b(
      'card.refused',
      'a card refused before processing (7.3 on the card number)',
      '4.6',
      `pay with test card ${refusedCard}.`,
    ),
    b(
      'card.settled-success',
      `a payment settled as ${success}`,
      '6',
      'pay with test card 4111111111111111 and wait for the webhook.',
    ),
    b('card.settled-failure', `a payment settled as ${failure}`, '6', `pay with test card ${failingCard}.`),
    b('payment.by-card-details', 'a payment by card details', '2.4', 'pay with credit_card holding the card details.'),
    b(
      'payment.by-card-account',
      'a payment by card_account_uid instead of card details',
      '2.3',
      'take card_account_uid from paymentCreditCardFeeCalc and pay with credit_card: { card_account_uid }.',
    ),
  ];
}

function webhookBehaviours(a: Assumptions): Behaviour[] {
  const { success, failure } = a.statusNames;
  const w = (id: string, title: string, hint: string): Behaviour => ({
    id: `webhook.${id}`,
    title,
    spec: '6',
    guides: bothGuides,
    hint,
  });
  return [
    w(
      'success',
      `the final webhook delivered with status ${success}`,
      'pay with 4111111111111111 with a webhook URL set.',
    ),
    w(
      'failure',
      `the final webhook delivered with status ${failure}`,
      `pay with ${failingCard} with a webhook URL set.`,
    ),
    w('first-attempt', 'a webhook delivered at the first attempt', 'answer the webhook with a 2xx.'),
    w('retried', 'a webhook delivered after retries', 'answer the first attempt with a 5xx, then a 2xx.'),
    w(
      'given-up',
      `a webhook given up after ${a.webhook.retry.maxAttempts} attempts`,
      'answer every attempt with a 5xx and advance the sandbox clock.',
    ),
  ];
}

function legacyBehaviours(): Behaviour[] {
  const l = (id: string, title: string, spec: string, hint: string): Behaviour => ({
    id: `legacy.${id}`,
    title: `older guide: ${title}`,
    spec,
    guides: ['legacy'],
    hint,
  });
  return [
    l(
      'number',
      'the card number sent as number',
      '2.4',
      'pay or price a card in the legacy guide with credit_card.number.',
    ),
    l('total', 'the fee list read with total', '2.2', 'ask paymentGatewayFeesCalc for total in the legacy guide.'),
    l('card-location', 'the fee list read with card_location', '2.2', 'ask paymentGatewayFeesCalc for card_location.'),
    l(
      'payment-input',
      'a payment sent as ProcessPaymentInput',
      '2.6',
      'send processPaymentRequest($input: ProcessPaymentInput!).',
    ),
    l(
      'contact-reference',
      'description and reference_no sent in the contact',
      '2.5',
      'pay in the legacy guide with description and reference_no in contact.',
    ),
  ];
}

/**
 * The catalogue under `assumptions` (the kit's ledger or a team's), in the order reports list it.
 *
 * @example
 * behaviourCatalogue(defaultAssumptions).find((b) => b.id === 'token.expired')?.title;
 * // '/graphql refused a token that expired after 10 minutes (TOKEN_EXPIRED)'
 */
export function behaviourCatalogue(assumptions: Assumptions): readonly Behaviour[] {
  return [
    ...tokenBehaviours(assumptions),
    ...graphqlBehaviours(),
    ...validationBehaviours(),
    ...errorBehaviours(assumptions),
    ...paymentBehaviours(assumptions),
    ...webhookBehaviours(assumptions),
    ...legacyBehaviours(),
  ];
}

/**
 * The section heading of a behaviour id (its first part), or `Other` for an id no section names.
 *
 * @example
 * sectionOf('token.expired'); // 'Tokens (4.1 to 4.3, 5, 7.1)'
 */
export function sectionOf(id: string): string {
  return catalogueSections[id.slice(0, id.indexOf('.'))] ?? 'Other';
}
