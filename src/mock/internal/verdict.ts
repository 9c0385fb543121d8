/**
 * What came of one answered request, in the service's own terms: the verdict the request log and the journal print,
 * read off the answer's status and JSON value.
 *
 * @module
 */

/**
 * What came of one request, told in the log and the journal: `ok`, or the refusal in the service's own terms.
 * - `outcome`: `ok`; the reason code of a 7.2 refusal (`TOKEN_EXPIRED`); `validation: <paths>` for a 7.3 refusal
 *   (its dotted input paths, even when the HTTP status is 200); `HTTP <status>` for any other refusal (a 7.1 REST
 *   error, a 404 or 405).
 * - `reason`: the first GraphQL error's `extensions.reason`, if any.
 * - `validation`: the 7.3 input paths, if any.
 */
export interface RequestVerdict {
  readonly outcome: string;
  readonly reason: string | undefined;
  readonly validation: readonly string[] | undefined;
}

/** The verdict of every successful answer (shared: a route that knows it succeeded passes it, and skips the scan). */
export const okVerdict: RequestVerdict = Object.freeze({ outcome: 'ok', reason: undefined, validation: undefined });
const ok = okVerdict;
// A refusal's paths come from the mock's validator, but a hostile request can name many fields: keep the line short.
const MAX_PATHS = 10;

/**
 * The verdict of an answer with HTTP `status` and JSON value `body` (parsed, not text). Successful answers cost one
 * property read.
 *
 * @example
 * verdictOf(200, { errors: [{ message, extensions: { category: 'validation', validation: { 'input.contact': [m] } } }] });
 * // { outcome: 'validation: input.contact', reason: undefined, validation: ['input.contact'] }
 */
export function verdictOf(status: number, body: unknown): RequestVerdict {
  const errors = (body as { errors?: unknown } | null | undefined)?.errors;
  if (!Array.isArray(errors) || errors.length === 0)
    return status < 400 ? ok : { outcome: `HTTP ${status}`, reason: undefined, validation: undefined };
  let reason: string | undefined;
  const paths: string[] = [];
  for (const e of errors as { extensions?: { reason?: unknown; validation?: unknown } }[]) {
    const ext = e?.extensions;
    if (reason === undefined && typeof ext?.reason === 'string') reason = ext.reason;
    if (ext?.validation !== null && typeof ext?.validation === 'object')
      for (const path of Object.keys(ext.validation)) if (paths.length < MAX_PATHS) paths.push(path);
  }
  if (paths.length > 0)
    return {
      outcome: `validation: ${paths.join(', ')}${reason === undefined ? '' : ` (${reason})`}`,
      reason,
      validation: paths,
    };
  return { outcome: reason ?? `HTTP ${status}`, reason, validation: undefined };
}
