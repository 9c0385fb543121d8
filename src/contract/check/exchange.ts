/**
 * The one checker's vocabulary: an exchange seen on the wire (a live request and its answer through the proxy, a HAR
 * entry for `check`, an interaction of a pact for `verify`) and the drifts found in it. The proxy, `check` and `verify`
 * all speak these types, so a drift reads the same whichever of them found it.
 *
 * @module
 */
import type { Assumptions } from '../../assumptions.ts';

/** Which guide of the service an exchange is checked against; `both` lets the checker detect it per exchange. */
export type CheckGuide = 'current' | 'legacy' | 'both';

/**
 * Who is at fault for a drift.
 * - `contract`: the service broke what the interface document states (a field, a type, an error shape).
 * - `assumption`: the service did something the document leaves open differently from the kit's ledger.
 * - `upstream`: the service failed or could not be reached (refused, timed out, reset, not JSON).
 * - `consumer`: the request itself breaks the contract (the consumer's own mistake, not the service's).
 */
export type DriftKind = 'contract' | 'assumption' | 'upstream' | 'consumer';

/** One HTTP message as the checker sees it: header names in lower case, the body as text (undefined when none). */
export interface ExchangeMessage {
  /** Header names in lower case; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as UTF-8 text, or undefined when the message had none. */
  readonly body?: string | undefined;
  /**
   * True when the message had a body that was not recorded (a HAR saved without content): the checks that need the
   * body are skipped and named in {@link ExchangeCheck.unchecked}, instead of reporting a missing body.
   */
  readonly bodyNotRecorded?: boolean | undefined;
}

/** The request half of an exchange. */
export interface ExchangeRequest extends ExchangeMessage {
  /** HTTP method in upper case. */
  readonly method: string;
  /** Path and query as sent (`/graphql?x=1`); an absolute URL is accepted and its origin ignored. */
  readonly url: string;
}

/** The answer half of an exchange. */
export interface ExchangeResponse extends ExchangeMessage {
  /** HTTP status code of the answer. */
  readonly status: number;
}

/**
 * One exchange to check: a service request and its answer (`http`), or a webhook the service sent and the receiver's
 * answer (`webhook`; `request` is the service's POST, `response` what the receiver said).
 */
export interface Exchange {
  /** `http` (default) for a call to the service, `webhook` for a notification the service sent. */
  readonly kind?: 'http' | 'webhook';
  /** The request as the consumer (or, for a webhook, the service) sent it. */
  readonly request: ExchangeRequest;
  /** The answer; undefined when none came (an `upstream` drift is then expected from the caller). */
  readonly response?: ExchangeResponse | undefined;
}

/** Options of {@link checkExchange}. */
export interface CheckOptions {
  /** Guide to check against; `both` (default) detects it from the request, then checks the answer against it. */
  readonly guide?: CheckGuide;
  /** The ledger to compare `assumption` drifts with; the kit's defaults when omitted. */
  readonly assumptions?: Assumptions;
}

/** One difference between an exchange and the contract. */
export interface Drift {
  /** Who is at fault (see {@link DriftKind}). */
  readonly kind: DriftKind;
  /** Which half of the exchange the drift is in. */
  readonly side: 'request' | 'response';
  /**
   * Where, in dotted form with indexes (`data.paymentGatewayFeesCalc[0].fees`, `errors[0].extensions.validation`,
   * `data.expiration`), or `(http)` for the request line, status line and content type, `(header) <name>` for a
   * header, `(body)` for a body as a whole.
   */
  readonly path: string;
  /** What the contract or the ledger expects there, in words or as a value. */
  readonly expected: string;
  /** What the exchange held there (secrets masked: card numbers to first 6 and last 4 digits, CVVs and keys hidden). */
  readonly actual: string;
  /** For `assumption` drifts: the key in `src/assumptions.ts` whose value the service contradicted. */
  readonly ledgerKey?: keyof Assumptions;
  /** For `assumption` drifts: what the service was seen to do, as a value for that ledger key where one can be read. */
  readonly observed?: unknown;
  /** A sentence a person can act on. */
  readonly message: string;
}

/** What the checker made of one exchange. */
export interface ExchangeCheck {
  /** The guide the exchange was checked against (detected when the option was `both`); undefined when skipped. */
  readonly guide?: 'current' | 'legacy' | undefined;
  /** GraphQL operation name (or the root field when the operation is anonymous), for GraphQL exchanges. */
  readonly operationName?: string | undefined;
  /** Why the exchange was not checked (not a path of the service); undefined when it was. */
  readonly skipped?: string | undefined;
  /** Every drift found, request side first. */
  readonly drifts: readonly Drift[];
  /** What could not be checked because the exchange did not record it (`the response body was not recorded`). */
  readonly unchecked?: readonly string[] | undefined;
}
