/**
 * One disagreement between a pact and the service's documents, in the manner of a contract validator's report:
 * where in the interaction (a JSON path from a named root), what the pact holds, and what the schema expects.
 *
 * @module
 */

/** Where in the interaction a mismatch was found. */
export type MismatchArea =
  | 'request.path'
  | 'request.method'
  | 'request.header'
  | 'request.query'
  | 'request.body'
  | 'response.status'
  | 'response.header'
  | 'response.body'
  | 'message.contents'
  | 'message.metadata'
  | 'interaction';

/** One mismatch found by a static check. */
export interface Mismatch {
  readonly area: MismatchArea;
  /** JSON path inside the area (`$.data.paymentGatewayFeesCalc[0].fees`), or a header name. */
  readonly path: string;
  /** What the pact holds, in a few words. */
  readonly message: string;
  /** What the schema expects there, with the document it comes from. */
  readonly expected: string;
}

/**
 * One line for a mismatch: area and path, the problem, and the schema's expectation.
 *
 * @example
 * formatMismatch({ area: 'response.body', path: '$.data.x', message: 'unknown field', expected: '…' });
 * // 'response.body $.data.x: unknown field (expected …)'
 */
export function formatMismatch(mismatch: Mismatch): string {
  return `${mismatch.area} ${mismatch.path}: ${mismatch.message} (expected ${mismatch.expected})`;
}
