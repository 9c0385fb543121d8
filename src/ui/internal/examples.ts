/**
 * GraphiQL's example tabs: the kit's operations/ documents (compiled into the bundle by scripts/build-ui.ts) with
 * variables that work against the mock as it starts: the documented visa test card (settles as success) and a
 * contact, in each guide's shape. test/ui/examples.test.ts runs every example against the mock.
 *
 * @module
 */
import { cardNumberField, type GuideName } from '../../contract/guides.ts';
import type { OperationName } from '../../contract/operations.ts';

/** A guide's name (the contract layer's). */
export type Guide = GuideName;

/** One operation document of operations/<guide>/, by file name without `.graphql`. */
export interface OperationSource {
  readonly name: string;
  readonly query: string;
}

/** One example tab. */
export interface Example {
  readonly name: string;
  readonly query: string;
  /** Variables as pretty JSON text, as the variables editor shows them. */
  readonly variables: string;
}

// The mock's documented visa test card (README "Test cards"); test data, never a real card.
const card = { full_name: 'Ada Lovelace', expiry_month: '12', expiry_year: '39', cvv: '123' };
const cardNumber = '4111111111111111';
const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
const reference = { description: 'Order 1 from GraphiQL', reference_no: 'R-1' };

/** The documented test card in a guide's shape (`card_number` or `number`). */
const cardOf = (guide: Guide) => ({ ...card, [cardNumberField[guide]]: cardNumber });
// The legacy guide's contact carries description and reference_no, and requires them.
const contactOf = (guide: Guide) => (guide === 'current' ? contact : { ...contact, ...reference });

/**
 * Variables of each operation of operations/, by operation name, in each guide's shape. One row per operation: an
 * operation added to operations/ without a row fails to compile here, naming it.
 */
const variablesByOperation: { readonly [N in OperationName]: (guide: Guide) => Record<string, unknown> } = {
  PaymentGatewayFeesCalc: () => ({ amount: 100 }),
  PaymentCreditCardFeeCalc: (guide) => ({ amount: 100, credit_card: cardOf(guide), contact: contactOf(guide) }),
  ProcessPaymentRequest: (guide) =>
    guide === 'current'
      ? { input: { amount: 100, fees: 1.8, credit_card: cardOf(guide), contact, payment_reference: reference } }
      : { input: { amount: 100, fees: 1.8, credit_card: cardOf(guide), contact: contactOf(guide) } },
};

/** The name of a document's (first) operation, such as `ProcessPaymentRequest`; undefined for an anonymous one. */
function operationNameOf(query: string): string | undefined {
  return /\b(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/.exec(query)?.[1];
}

/**
 * Variables of an operation document of operations/, in a guide's shape; `{}` for a document that is not one of the
 * kit's operations.
 */
export function exampleVariables(guide: Guide, query: string): Record<string, unknown> {
  const name = operationNameOf(query);
  return name !== undefined && Object.hasOwn(variablesByOperation, name)
    ? variablesByOperation[name as OperationName](guide)
    : {};
}

/** The example tabs of a guide, in the order of its operation files. */
export function examplesOf(guide: Guide, operations: readonly OperationSource[]): Example[] {
  return operations.map((op) => ({
    name: op.name,
    query: op.query,
    variables: JSON.stringify(exampleVariables(guide, op.query), null, 2),
  }));
}
