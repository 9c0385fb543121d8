/**
 * Masking of card numbers for everything the kit shows: the mock's logs, state and answers, and the checker's and
 * `verify`'s reports. One rule for all of them: at most the first 6 and the last 4 digits stay visible (the PCI DSS
 * limit), and fewer for short runs.
 *
 * @module
 */

/**
 * Masks a card number for logs, state and answers: at most the first 6 and the last 4 digits stay visible
 * (the PCI DSS limit). Numbers shorter than 13 characters show only the last 4, and shorter than 8 nothing, so a
 * short or mistyped number is never shown almost whole.
 *
 * @example
 * maskCardNumber('4111111111111111') // '411111******1111'
 */
export function maskCardNumber(cardNumber: string): string {
  const n = cardNumber.length;
  const tail = n >= 8 ? 4 : 0;
  const head = n >= 13 ? 6 : 0;
  return cardNumber.slice(0, head) + '*'.repeat(n - head - tail) + cardNumber.slice(n - tail);
}

// 12+ digits, possibly split by spaces or dashes: what a card number in a URL, a message or a value would look like.
// No upper bound: a longer run is masked whole, never left with its tail in clear.
const longDigits = /\d(?:[ -]?\d){11,}/g;

/**
 * Masks card-number-like digit runs (12 or more digits, spaces and dashes allowed) in `text` with
 * {@link maskCardNumber}; the separators of a run are dropped.
 *
 * @example
 * maskDigits('/payments/4111 1111 1111 1111') // '/payments/411111******1111'
 */
export function maskDigits(text: string): string {
  return text.replace(longDigits, (run) => maskCardNumber(run.replace(/[ -]/g, '')));
}
