/**
 * The two guides of the interface document and the names in which they differ (spec 4.4 to 4.6, the legacy guide's
 * four documented differences). The schema derivation, the mock's guide detection and validation, the redaction of
 * card numbers, the client's reading of a refused card and the checker all read the differences from here.
 *
 * @module
 */

/**
 * A guide of the interface document: `current` or `legacy`.
 *
 * @example
 * const guide: GuideName = 'legacy';
 */
export type GuideName = 'current' | 'legacy';

/**
 * The package file holding each guide's published SDL: what the mock serves at `/__pck/schema.graphql` and what the
 * single executable embeds.
 *
 * @example
 * readPackageFile(publishedSchemaFiles.legacy);
 */
export const publishedSchemaFiles: Readonly<Record<GuideName, string>> = {
  current: 'schema.graphql',
  legacy: 'generated/legacy/schema.graphql',
};

/**
 * The names the legacy guide's derivation touches (`src/schema/derive-legacy-schema.ts`), each difference written once.
 *
 * @example
 * const total = entry[legacyGuideNames.currentTotalField] ?? entry[legacyGuideNames.legacyTotalField];
 */
export const legacyGuideNames = {
  feeEntryType: 'PaymentGatewayFee',
  currentTotalField: 'total_settlement_amount',
  legacyTotalField: 'total',
  legacyLocationField: 'card_location',
  cardInputType: 'CreditCardInput',
  currentCardNumberField: 'card_number',
  legacyCardNumberField: 'number',
  currentPaymentInputType: 'ProcessPaymentRequestInput',
  legacyPaymentInputType: 'ProcessPaymentInput',
  contactInputType: 'ContactInput',
  paymentReferenceType: 'PaymentReferenceInput',
  paymentReferenceField: 'payment_reference',
} as const;

/**
 * The card number field's name in each guide (`card_number`, legacy `number`).
 *
 * @example
 * const number = card[cardNumberField[guide]];
 */
export const cardNumberField = {
  current: legacyGuideNames.currentCardNumberField,
  legacy: legacyGuideNames.legacyCardNumberField,
} as const satisfies Record<GuideName, string>;

/**
 * Both guides' card number field names: the keys whose values are card numbers wherever variables are masked.
 *
 * @example
 * if (cardNumberFields.has(key)) value = maskDigits(value);
 */
export const cardNumberFields: ReadonlySet<string> = new Set(Object.values(cardNumberField));

/**
 * The payment mutation's input type in each guide.
 *
 * @example
 * `mutation ProcessPaymentRequest($input: ${paymentInputType[guide]}!) { ... }`
 */
export const paymentInputType = {
  current: legacyGuideNames.currentPaymentInputType,
  legacy: legacyGuideNames.legacyPaymentInputType,
} as const satisfies Record<GuideName, string>;

/** The card fields whose refusal means the card itself was refused: either guide's number, or a card account. */
const cardIdentityFields = [...cardNumberFields, 'card_account_uid'];

/**
 * True when a 7.3 validation path names the card itself (`input.credit_card.card_number`, legacy `...number`, or
 * `...card_account_uid`), so a refusal there is a refused card rather than a malformed input.
 *
 * @example
 * isCardIdentityPath('input.credit_card.number'); // true
 */
export function isCardIdentityPath(path: string): boolean {
  const prefix = '.credit_card.';
  const at = path.lastIndexOf(prefix);
  return at >= 0 && cardIdentityFields.includes(path.slice(at + prefix.length));
}
