/**
 * The mock's one vocabulary of what happened: every change of the sandbox's state and every answered request is a
 * typed event. The parts that own state apply the events that concern them (live, on restore, on replay); the
 * journal, the request log, the dashboard, the webhooks and the coverage report read them from one bus instead of
 * each keeping its own record of the story. A request's verdict (what came of it, in the service's own terms, read
 * off the answer's status and JSON value) is part of that vocabulary and is built here.
 *
 * Events are plain JSON values (no class instances, no functions), so a store can write them down as they are and a
 * reader of a newer kit's journal can skip a kind it does not know.
 *
 * @module
 */
import type { CardAccount, DeliveryState, StoredPayment } from '../store/stored.ts';

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

/** The guide a request was read in. */
export type EventGuide = 'current' | 'legacy';

/** A token pair was handed out (generate-token, or a refresh's new pair). */
export interface TokenIssued {
  readonly kind: 'token.issued';
  readonly clientId: string;
  /** How the pair came: `generate`, `refresh`, or `control` (issued outside the generate-once rule: control API, provider states). */
  readonly via: 'generate' | 'refresh' | 'control';
  /** The number of the pair's refresh token (which of the client's refresh tokens it is). */
  readonly refreshNumber: number;
  /** The number of the access token's id (its `jti` is derived from it). */
  readonly tokenNumber: number;
}

/** A refresh token was spent: it cannot be used again. */
export interface TokenRefreshed {
  readonly kind: 'token.refreshed';
  readonly clientId: string;
  /** The number of the refresh token spent. */
  readonly refreshNumber: number;
}

/** Access tokens were revoked: one (by its id) or every token of the client. */
export interface TokenRevoked {
  readonly kind: 'token.revoked';
  readonly clientId: string;
  /** The revoked token's id (`jti`); undefined when every token of the client went. */
  readonly tokenId: string | undefined;
  /** The revoked token's expiry (`exp`, seconds since the epoch); undefined when every token of the client went. */
  readonly expiresAt: number | undefined;
}

/** A card account was stored (`card_account_uid` handed out); never holds the card number. */
export interface CardAccountCreated {
  readonly kind: 'card.account-created';
  readonly clientId: string;
  readonly cardAccountUid: string;
  /** The stored account (masked number, card type, expiry, outcome). */
  readonly account: CardAccount;
}

/** `processPaymentRequest` accepted a payment. */
export interface PaymentAccepted {
  readonly kind: 'payment.accepted';
  readonly clientId: string;
  readonly uuid: string;
  readonly guide: EventGuide;
  /** Whether the payment named a stored card account instead of card details. */
  readonly byCardAccount: boolean;
  /** The payment as stored when it was accepted (a copy: later changes do not show through). */
  readonly payment: StoredPayment;
}

/** A payment reached its final status. */
export interface PaymentSettled {
  readonly kind: 'payment.settled';
  readonly clientId: string;
  readonly uuid: string;
  readonly outcome: 'success' | 'failure';
  /** Sandbox time of the settlement (ms since the epoch). */
  readonly at: number;
}

/** One webhook delivery attempt was made. */
export interface DeliveryAttempted {
  readonly kind: 'delivery.attempted';
  readonly deliveryId: string;
  readonly uuid: string;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** The receiver's HTTP status, or undefined when no answer came (refused, timed out). */
  readonly status: number | undefined;
  /** Why no answer came (`ECONNREFUSED`, `timeout`, …), when none came. */
  readonly error: string | undefined;
  /** The delivery's URL as configured. */
  readonly url: string;
  /** Sandbox time the attempt started (ms since the epoch). */
  readonly at: number;
}

/** A webhook delivery ended: delivered, or given up after its last attempt. */
export interface DeliveryFinished {
  readonly kind: 'delivery.finished';
  readonly deliveryId: string;
  readonly uuid: string;
  readonly delivered: boolean;
  /** Attempts made in all. */
  readonly attempts: number;
  /** The delivery's URL as configured. */
  readonly url: string;
  /** The state it ended in. */
  readonly state: Extract<DeliveryState, 'delivered' | 'failed' | 'gone'>;
  /** Why it ended undelivered (`retries-exhausted`, …), when it did. */
  readonly reason: string | undefined;
}

/** The sandbox clock moved forward. */
export interface ClockMoved {
  readonly kind: 'clock.moved';
  readonly ms: number;
}

/** A failure was armed through the control API. */
export interface FailureArmed {
  readonly kind: 'failure.armed';
  /** What it applies to (a service path). */
  readonly target: string;
  readonly status: number;
  /** The error message answered, when one was given. */
  readonly message: string | undefined;
  /** How many requests it fails. */
  readonly times: number;
}

/** The sandbox was reset to its start. */
export interface SandboxReset {
  readonly kind: 'sandbox.reset';
}

/**
 * A request was answered: any request, the control plane's and unknown paths' included (`route` tells them apart).
 * One object per request, built by the pipeline's last step and read by the request log (every one), the journal
 * (those {@link journaled}) and the coverage report (those of the service's own routes); none of them keeps it.
 */
export interface RequestAnswered {
  readonly kind: 'request.answered';
  /** The kind of route that answered: `control` for the control API and the pages; undefined for an unknown path. */
  readonly route: 'rest' | 'graphql' | 'control' | undefined;
  readonly method: string;
  /** The path, without the query string (card-like digit runs masked when the mock does not serve it). */
  readonly path: string;
  /** The GraphQL operation name, if it was a GraphQL operation. */
  readonly operationName: string | undefined;
  readonly status: number;
  /** Virtual time of the answer, ms since the epoch. */
  readonly at: number;
  /** Real time spent answering, in ms. */
  readonly durationMs: number;
  /**
   * The client the request's credentials (token endpoints) or token (`/graphql`) named; undefined when they were
   * refused or missing, which tells a bad x-client-id or x-api-key (7.1 before the handler) from a refused refresh
   * token (7.1 from the handler).
   */
  readonly clientId: string | undefined;
  readonly guide: EventGuide | undefined;
  /** The GraphQL root fields the request selected, if it was a GraphQL request. */
  readonly rootFields: readonly string[] | undefined;
  /** Masked summary of the GraphQL variables (no CVV, card numbers masked). */
  readonly summary: unknown;
  readonly verdict: RequestVerdict;
  /** `verdict.outcome` again, so the event is the journal's entry as it is (no copy built to record it). */
  readonly outcome: string;
}

/**
 * Whether the journal keeps an answered request: every one but the control plane's (control calls, pages) and a CORS
 * preflight answered 204, so waiting for "a request" never matches the wait call itself or a browser's preflight
 * before the request it waits for.
 */
export function journaled(e: RequestAnswered): boolean {
  return e.route !== 'control' && !(e.method === 'OPTIONS' && e.status === 204);
}

/** Every event of the mock. */
export type MockEvent =
  | TokenIssued
  | TokenRefreshed
  | TokenRevoked
  | CardAccountCreated
  | PaymentAccepted
  | PaymentSettled
  | DeliveryAttempted
  | DeliveryFinished
  | ClockMoved
  | FailureArmed
  | SandboxReset
  | RequestAnswered;

/** The kinds of {@link MockEvent}. */
export type MockEventKind = MockEvent['kind'];

/** Where events are told, and who listens. */
export interface EventBus {
  /** Tells the listeners of its kind, in the order they subscribed. A listener that throws does not stop the others. */
  emit(event: MockEvent): void;
  /** Adds a listener of `kinds` (every kind when left out); returns its unsubscribe. */
  on(listener: (event: MockEvent) => void, kinds?: readonly MockEventKind[]): () => void;
  /**
   * Whether anyone listens to `kind`: an emitter on a hot path skips building an event nobody reads (the journal and
   * the coverage report always listen, each to a few kinds only).
   */
  wants(kind: MockEventKind): boolean;
}

/** A bus with no listeners at first. `onListenerError` hears a listener's throw (default: ignored). */
export function createEventBus(onListenerError?: (error: unknown) => void): EventBus {
  type Listener = (event: MockEvent) => void;
  let subscribed: readonly { readonly listener: Listener; readonly kinds?: readonly MockEventKind[] | undefined }[] =
    [];
  // The listeners of each kind, worked out on first use and forgotten when someone subscribes or leaves.
  let byKind = new Map<MockEventKind, readonly Listener[]>();
  const listenersOf = (kind: MockEventKind): readonly Listener[] => {
    let listeners = byKind.get(kind);
    if (listeners === undefined) {
      listeners = subscribed.filter((s) => s.kinds === undefined || s.kinds.includes(kind)).map((s) => s.listener);
      byKind.set(kind, listeners);
    }
    return listeners;
  };
  return {
    emit(event) {
      for (const listener of listenersOf(event.kind)) {
        try {
          listener(event);
        } catch (error) {
          onListenerError?.(error);
        }
      }
    },
    on(listener, kinds) {
      const entry = { listener, kinds };
      subscribed = [...subscribed, entry];
      byKind = new Map();
      return () => {
        subscribed = subscribed.filter((s) => s !== entry);
        byKind = new Map();
      };
    },
    wants: (kind) => listenersOf(kind).length > 0,
  };
}
