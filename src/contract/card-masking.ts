/**
 * Masking of card numbers for everything the kit shows: the mock's logs, state and answers, and the checker's,
 * `verify`'s and the proxy's reports. One rule for how a card number is masked: at most the first 6 and the last 4
 * digits stay visible (the PCI DSS limit), and fewer for short runs. Two rules for where one can be:
 *
 * - {@link maskDigits}, for text that may quote a card number nobody has checked yet (the mock's log of a path, a
 *   GraphQL error quoting its input): every run of 12 or more digits, since a mistyped number is still a card number.
 * - {@link maskCardNumbers}, for reports about an exchange: only runs that can be card numbers (Luhn-valid, or too
 *   long to tell), so that a number the report is about, such as a 13-digit `expiration` in milliseconds, is shown
 *   whole. The card fields themselves are masked by name wherever they appear, Luhn or not.
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
// No upper bound: a longer run is masked whole, never left with its tail in clear. The ids the kit and the service
// make (a UUID: a payment's uuid, the mock's `card_account_uid`; a `whd_` delivery id of 32 hex digits) are matched
// first and kept: their random hex holds such a run in about one id in twenty, and a masked id no longer matches
// the one a receiver or a test holds.
const longDigits =
  /(\bwhd_(?:test_)?[0-9a-f]{32}\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b)|\d(?:[ -]?\d){11,}/gi;

/**
 * Masks card-number-like digit runs (12 or more digits, spaces and dashes allowed) in `text` with
 * {@link maskCardNumber}; the separators of a run are dropped. UUIDs and `whd_` delivery ids are left whole.
 *
 * @example
 * maskDigits('/payments/4111 1111 1111 1111') // '/payments/411111******1111'
 */
export function maskDigits(text: string): string {
  // The journal's summary masks every text of every GraphQL request: most hold fewer than 12 digits, so no run to
  // mask, and counting them is cheaper than running the expression.
  if (!holdsDigits(text, 12)) return text;
  return text.replace(longDigits, (run, id?: string) => (id ? run : maskCardNumber(run.replace(/[ -]/g, ''))));
}

/** Whether `text` holds at least `count` decimal digits, anywhere. */
function holdsDigits(text: string, count: number): boolean {
  let found = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57 && ++found >= count) return true;
  }
  return false;
}

/**
 * Whether `digits` passes the Luhn check, as every issued card number does. Nine in ten other numbers (a timestamp,
 * an amount in cents) fail it, which is what lets a report show them.
 *
 * @example
 * luhnValid('4111111111111111') // true
 * luhnValid('1796150006000') // false
 */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let d = digits.charCodeAt(i) - 48;
    if (double) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

// Card numbers have 12 to 19 digits; a longer run may hold one with other digits stuck to it, so it is masked whole.
const longestCardNumber = 19;

/**
 * Masks the digit runs of `text` that can be card numbers: runs of 12 to 19 digits (spaces and dashes allowed) that
 * pass the Luhn check, and any longer run. Other numbers stay readable, as a report about them needs.
 *
 * @example
 * maskCardNumbers('card 4111 1111 1111 1111') // 'card 411111******1111'
 * maskCardNumbers('expiration 1796150006000') // 'expiration 1796150006000'
 */
export function maskCardNumbers(text: string): string {
  return text.replace(longDigits, (run, id?: string) => {
    if (id) return run;
    const digits = run.replace(/[ -]/g, '');
    return digits.length > longestCardNumber || luhnValid(digits) ? maskCardNumber(digits) : run;
  });
}
