/**
 * The mock's answers to a request in the wrong guide: the detection itself lives in the contract layer
 * (`src/contract/guide-detection.ts`, shared with the checker); this module words the refusal and its fix.
 *
 * @module
 */
import type { GuideSignal } from '../../../contract/guide-detection.ts';
import { legacyGuideNames as n } from '../../../contract/guides.ts';
import { kitMessage } from '../../../internal/messages.ts';
import type { Guide } from '../payments/state.ts';

export {
  decideGuide,
  documentSignals,
  type GuideDecision,
  type GuideMode,
  type GuideSignal,
  type SignalKind,
  type VariableBinding,
  variableBindings,
  variableSignals,
} from '../../../contract/guide-detection.ts';

function fix(signal: GuideSignal): string {
  switch (signal.kind) {
    case 'cardNumber':
      return signal.guide === 'legacy'
        ? `"${n.legacyCardNumberField}" is the legacy guide's name for the card number; the current guide calls it "${n.currentCardNumberField}". Send ${n.currentCardNumberField}`
        : `"${n.currentCardNumberField}" is the current guide's name for the card number; the legacy guide calls it "${n.legacyCardNumberField}". Send ${n.legacyCardNumberField}`;
    case 'reference':
      return signal.guide === 'legacy'
        ? `"${signal.name}" belongs to the legacy guide, which puts description and reference_no in the contact; the current guide takes them in "${n.paymentReferenceField}". Send ${n.paymentReferenceField} { description, reference_no }`
        : `"${signal.name}" belongs to the current guide; the legacy guide takes description and reference_no in the contact. Send contact.description and contact.reference_no`;
    case 'inputType':
      return signal.guide === 'legacy'
        ? `"${signal.name}" is the legacy guide's name for the payment input type; the current guide calls it "${n.currentPaymentInputType}". Declare $input: ${n.currentPaymentInputType}!`
        : signal.name === n.paymentReferenceType
          ? `"${signal.name}" exists only in the current guide; the legacy guide takes description and reference_no in the contact. Send contact.description and contact.reference_no`
          : `"${signal.name}" is the current guide's name for the payment input type; the legacy guide calls it "${n.legacyPaymentInputType}". Declare $input: ${n.legacyPaymentInputType}!`;
    case 'feeTotal':
      return signal.guide === 'legacy'
        ? `"${n.legacyTotalField}" is the legacy guide's fee list field; the current guide calls it "${n.currentTotalField}". Select ${n.currentTotalField}`
        : `"${n.currentTotalField}" is the current guide's fee list field; the legacy guide calls it "${n.legacyTotalField}". Select ${n.legacyTotalField}`;
    case 'feeLocation':
      return `"${n.legacyLocationField}" exists only in the legacy guide's fee list; the current guide has no such field. Leave it out`;
  }
}

/**
 * The message for a request in the other guide's shape: that it is a guide mismatch (both guides named, so it is not
 * read as a problem with the card or the data), what the name is, what this guide calls it, and the two fixes.
 *
 * @example
 * // kit prefix, then: Guide mismatch: this mock serves the current guide and the request is written in the legacy
 * // guide. "number" is the legacy guide's name for the card number; the current guide calls it "card_number".
 * // Send card_number, or start the mock with --guide legacy or --guide both.
 */
export function mismatchMessage(signal: GuideSignal): string {
  const served: Guide = signal.guide === 'legacy' ? 'current' : 'legacy';
  return kitMessage(
    `Guide mismatch: this mock serves the ${served} guide and the request is written in the ${signal.guide} guide. ${fix(signal)}, or start the mock with --guide ${signal.guide} or --guide both.`,
  );
}

/** The message for a request that mixes names of both guides. */
export function conflictMessage(a: GuideSignal, b: GuideSignal): string {
  const where = (s: GuideSignal) => (s.path ? `"${s.name}" (at ${s.path})` : `"${s.name}"`);
  return kitMessage(
    `The request mixes the two guides: ${where(a)} is the ${a.guide} guide's name and ${where(b)} is the ${b.guide} guide's. Use the names of one guide throughout.`,
  );
}
