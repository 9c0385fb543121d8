/**
 * The service's operations (spec 4.4 to 4.6) as the kit ships them in `operations/<guide>/`: their names and their
 * query texts, which `npm run generate` writes into `generated/operation-texts.ts` (drift-checked by
 * `npm run check:generated`), so no part copies an operation by hand.
 *
 * @module
 */
import { operationTexts } from '../../generated/operation-texts.ts';
import type { GuideName } from './guides.ts';

/**
 * The operation names, the same in both guides.
 *
 * @example
 * const name: OperationName = 'ProcessPaymentRequest';
 */
export type OperationName = keyof (typeof operationTexts)['current'];

/**
 * The query text of an operation in a guide, on one line, as the client sends it.
 *
 * @example
 * await fetch(url, { method: 'POST', body: JSON.stringify({ query: operationText('legacy', 'PaymentGatewayFeesCalc') }) });
 */
export function operationText(guide: GuideName, name: OperationName): string {
  return operationTexts[guide][name];
}
