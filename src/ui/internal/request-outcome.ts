/**
 * How the dashboard's request list shows what came of a request: the journal's `outcome` (the same word the request
 * log prints), with refusals marked. A 7.3 refusal answers HTTP 200, so the status column alone reads as a success;
 * this column is where a person sees that a payment was refused for its fee, and why.
 *
 * @module
 */

/** One request's outcome as the dashboard shows it. */
export interface OutcomeCell {
  /** The cell's text: `ok`, or `refused: <outcome>` (`refused: validation: input.fees`). */
  readonly text: string;
  /** True when the mock refused the request (anything but `ok`); the cell is marked as an error. */
  readonly refused: boolean;
}

/**
 * The outcome cell of one journal entry. `outcome` is the journal's: `ok`, a reason code (`TOKEN_EXPIRED`),
 * `validation: <paths>` or `HTTP <status>`; an entry without one (a journal older than the field) falls back to its
 * HTTP status.
 *
 * @example
 * outcomeCell('validation: input.fees', 200); // { text: 'refused: validation: input.fees', refused: true }
 * outcomeCell('ok', 200); // { text: 'ok', refused: false }
 */
export function outcomeCell(outcome: string | undefined, status: number): OutcomeCell {
  const said = outcome === undefined || outcome === '' ? (status < 400 ? 'ok' : `HTTP ${status}`) : outcome;
  return said === 'ok' ? { text: 'ok', refused: false } : { text: `refused: ${said}`, refused: true };
}
