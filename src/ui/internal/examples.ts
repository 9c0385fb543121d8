/**
 * GraphiQL's example tabs: the kit's operations/ documents (compiled into the bundle by scripts/build-ui.ts) with
 * variables that work against the mock as it starts: the documented visa test card (settles as success) and a
 * contact, in each guide's shape. test/ui/examples.test.ts runs every example against the mock.
 *
 * @module
 */
import { cardNumberField, type GuideName } from '../../contract/guides.ts';

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

/** Variables of each operation, by file name, in each guide's shape. */
export function exampleVariables(guide: Guide, name: string): Record<string, unknown> {
  const credit_card = { ...card, [cardNumberField[guide]]: cardNumber };
  // The legacy guide's contact carries description and reference_no, and requires them.
  const guideContact = guide === 'current' ? contact : { ...contact, ...reference };
  switch (name) {
    case 'payment-gateway-fees-calc':
      return { amount: 100 };
    case 'payment-credit-card-fee-calc':
      return { amount: 100, credit_card, contact: guideContact };
    case 'process-payment-request':
      return guide === 'current'
        ? { input: { amount: 100, fees: 1.8, credit_card, contact, payment_reference: reference } }
        : { input: { amount: 100, fees: 1.8, credit_card, contact: guideContact } };
    default:
      return {};
  }
}

/** The example tabs of a guide, in the order of its operation files. */
export function examplesOf(guide: Guide, operations: readonly OperationSource[]): Example[] {
  return operations.map((op) => ({
    name: op.name,
    query: op.query,
    variables: JSON.stringify(exampleVariables(guide, op.name), null, 2),
  }));
}
