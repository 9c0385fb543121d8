/**
 * The kit's answers to everything the service interface leaves "not shown". Every value here is listed, with its
 * reason and how to override it, in ASSUMPTIONS.md; code reads these values from this module only.
 *
 * @module
 */

/** One row of the fee table: how the mock prices a payment for one card type. */
export interface FeeRule {
  /** Card type name as the service reports it in `card_type`. */
  readonly card_type: string;
  /** Percentage of the amount charged as fee, GST already included (1.5 means 1.5 %). */
  readonly percent: number;
  /** Fixed part of the fee per payment, GST already included. */
  readonly fixed: number;
  /** Value of the legacy guide's `card_location` for this card type. */
  readonly card_location: string;
}

/** How the mock recognises a card type from the leading digits of a card number. */
export interface CardTypePattern {
  /** Card type name; must appear in the fee table to be payable. */
  readonly card_type: string;
  /** Pattern matched against the digits of the card number. */
  readonly pattern: RegExp;
}

/** Retry schedule of webhook deliveries: exponential backoff with jitter. */
export interface WebhookRetryPolicy {
  /** Attempts in all, the first one included. */
  readonly maxAttempts: number;
  /** Delay before the second attempt, in milliseconds. */
  readonly initialDelayMs: number;
  /** Factor applied to the delay after each failed attempt. */
  readonly multiplier: number;
  /** Upper bound of one delay, in milliseconds. */
  readonly maxDelayMs: number;
  /** Relative jitter applied to each delay (0.2 spreads a delay over ±20 %). */
  readonly jitter: number;
  /** How long one attempt may take before it counts as failed, in milliseconds. */
  readonly attemptTimeoutMs: number;
}

/** Caps of the mock's histories (`Assumptions.history`); each is a whole number of at least 1. */
export interface HistoryCaps {
  /** Payments kept per client; past it the oldest settled payment is evicted (the oldest payment when none is). */
  readonly maxPaymentsPerClient: number;
  /** Finished webhook deliveries kept per dispatcher; past it the one finished longest ago is evicted. */
  readonly maxDeliveries: number;
  /** Pending webhook deliveries per dispatcher; past it new deliveries are refused (failed, `pending-cap`). */
  readonly maxPendingDeliveries: number;
  /** Attempts kept per delivery (the latest); attempt numbers keep counting. */
  readonly maxAttemptsPerDelivery: number;
}

/** Limits on a request as a whole; see {@link Assumptions.limits}. */
export interface RequestLimits {
  /** Largest request body in bytes; a larger one is answered 413. */
  readonly maxBodyBytes: number;
  /**
   * Deepest nesting of objects and arrays in a JSON request body (and in GraphQL variables sent over GET); a deeper
   * one is refused with 400 in the route's error shape before it is parsed.
   */
  readonly maxJsonDepth: number;
  /** Most lexical tokens in a GraphQL document; parsing stops at the first token past it. */
  readonly maxTokens: number;
  /** Deepest field nesting of a GraphQL operation (introspection fields count too). */
  readonly maxDepth: number;
  /** Most aliased fields in a GraphQL operation (`__typename` aliases are free). */
  readonly maxAliases: number;
  /** Most directives in a GraphQL operation. */
  readonly maxDirectives: number;
  /** Highest estimated cost of a GraphQL operation (graphql-armor's cost model; `__schema` is left out). */
  readonly maxCost: number;
}

/** Everything the kit assumes where the service interface is silent. */
export interface Assumptions {
  /** Fee table, one row per card type; `paymentGatewayFeesCalc` answers one entry per row, in this order. */
  readonly feeTable: readonly FeeRule[];
  /** Meaning of `total_settlement_amount` (and the legacy `total`): amount plus fees, or amount less fees. */
  readonly totalSettlement: 'amount-plus-fees' | 'amount-minus-fees';
  /** Card type detection, first match wins; a card matching none is rejected as unsupported. */
  readonly cardTypes: readonly CardTypePattern[];
  /** Status names: right after processPaymentRequest, and the two final outcomes. */
  readonly statusNames: { readonly processing: string; readonly success: string; readonly failure: string };
  /** Reason codes put in `extensions.reason` of GraphQL errors (spec 7.2). */
  readonly reasonCodes: {
    readonly missingToken: string;
    readonly invalidToken: string;
    readonly expiredToken: string;
    readonly revokedToken: string;
    readonly clientMismatch: string;
    readonly missingClientHeaders: string;
    readonly badRequest: string;
    readonly graphqlParseFailed: string;
    readonly graphqlValidationFailed: string;
    /** The request is written in the guide the mock does not serve, or mixes both (never a card or data problem). */
    readonly guideMismatch: string;
    readonly internal: string;
    /** The sandbox's state store (file, Redis) cannot be written or read: the request was not kept (503). */
    readonly storeUnavailable: string;
  };
  /** HTTP status of answers that carry GraphQL errors (authentication and validation alike). */
  readonly graphqlErrorHttpStatus: number;
  /**
   * HTTP statuses the interface does not list, each answered to a request refused before the service handles it,
   * in the path's error shape (7.1 on the token paths, 7.2 on `/graphql`). The checker reads them from here: such an
   * answer to such a request is the service's refusal of a bad request, not a drift.
   */
  readonly unlistedStatuses: readonly UnlistedStatus[];
  /** Whether the GraphQL endpoint also demands x-client-id and x-api-key, as the legacy guide's general rule says. */
  readonly graphqlRequiresClientHeaders: boolean;
  /** Access token lifetime in seconds (spec: 10 minutes). */
  readonly tokenTtlSeconds: number;
  /** What a second generate-token call for the same client does: issue a new pair, or refuse with 401. */
  readonly repeatGenerateToken: 'reissue' | 'reject';
  /**
   * What the client (`payment-contract-kit/client`) does when the service refuses its refresh token (spec 4.1:
   * "call this endpoint only once"): `generate-again` calls generate-token once more (the only way back to a
   * working token), `fail` surfaces the refusal as an authentication error and never calls generate again.
   */
  readonly clientRefusedRefresh: 'generate-again' | 'fail';
  /** Unit of `data.expiration`: Unix time in seconds (JWT `exp` style) or in milliseconds (JavaScript `Date` style). */
  readonly expirationUnit: 'seconds' | 'milliseconds';
  /**
   * Body of a successful revoke-token answer. The mock adds `data` saying what it revoked (`{ revoked: 'token' }` for
   * the token in x-jwt-token, `{ revoked: 'client' }` for every token of the client, each with the `refresh_tokens`
   * revoked with it); the checker compares only these two fields with a service's answer.
   */
  readonly revokeTokenBody: { readonly status: 'SUCCESS'; readonly message: string };
  /** Input bounds that the service does not publish. */
  readonly bounds: {
    /** Largest accepted payment amount; amounts must also be greater than zero. */
    readonly maxAmount: number;
    /** Digits allowed in a card number. */
    readonly cardNumberDigits: { readonly min: number; readonly max: number };
    /** Digits allowed in a CVV. */
    readonly cvvDigits: { readonly min: number; readonly max: number };
    /** Longest accepted string in any other text field. */
    readonly maxTextLength: number;
    /** Largest difference tolerated between the `fees` sent and the fee the calculation gives. */
    readonly feeTolerance: number;
    /** Largest accepted `metadata`, in bytes of its JSON (UTF-8). */
    readonly maxMetadataBytes: number;
    /** Deepest accepted nesting of `metadata`: the object itself is level 1, each object or array inside adds one. */
    readonly maxMetadataDepth: number;
  };
  /**
   * Limits on a request as a whole (the service publishes none). Each is checked before any work is done for the
   * request; GraphQL documents are checked once per distinct query text, not on every request.
   */
  readonly limits: RequestLimits;
  /**
   * Caps of the mock's histories (the service keeps its own; these bound the mock's memory in a sandbox that runs for
   * days). What happens at each cap: ASSUMPTIONS.md "History caps" and the README's reliability section.
   */
  readonly history: HistoryCaps;
  /** Webhook header names (spec: "not shown") and delivery behaviour. */
  readonly webhook: {
    readonly signingKeyHeader: string;
    readonly clientIdHeader: string;
    /**
     * Header carrying the delivery id: one id per event and URL, the same on every retry and redelivery, so a
     * receiver can recognise a duplicate.
     */
    readonly deliveryIdHeader: string;
    /** Event type name used in delivery logs and in the opt-in Standard Webhooks headers. */
    readonly eventType: string;
    readonly retry: WebhookRetryPolicy;
  };
  /** Milliseconds between a payment's acceptance and its final outcome in the mock. */
  readonly settleDelayMs: number;
  /** How replicas sharing a Redis store hand work over, and how a file store's log is kept short (decision 0040). */
  readonly store: {
    /** Redis: how long a replica's claim on due work (a settlement, a webhook attempt) holds; a dead one's lapses. */
    readonly leaseMs: number;
    /**
     * Redis: how often each replica polls for due work and reads the epoch and the clock without requests; a file:
     * how soon a failed store is probed again (ms).
     */
    readonly followIntervalMs: number;
    /**
     * File store compaction: once the log holds this many records beyond its last snapshot, it is rewritten to a
     * snapshot of the sandbox (an atomic rename). 0 turns compaction by size off. Redis keeps no log to compact.
     */
    readonly compactAfterRecords: number;
    /** Compaction as {@link Assumptions.store.compactAfterRecords}, by the bytes of those records. 0: off. */
    readonly compactAfterBytes: number;
  };
  /** Rate limits: the service publishes none, so the mock enforces none. */
  readonly rateLimit: null;
  /** How the validating proxy (`payment-contract-kit proxy`) answers when the service fails it. */
  readonly proxy: ProxyAssumptions;
}

/** One HTTP status of {@link Assumptions.unlistedStatuses}: the status and the refused request it answers. */
export interface UnlistedStatus {
  /** The HTTP status code. */
  readonly status: number;
  /** The request it answers, in words. */
  readonly when: string;
}

/** The validating proxy's own choices where the service cannot answer (ASSUMPTIONS.md, "Validating proxy"). */
export interface ProxyAssumptions {
  /** Largest body the proxy buffers, either way (the consumer's request, the service's answer, a webhook). */
  readonly maxBodyBytes: number;
  /** How long the service may take for a whole answer (status, headers and body) before the consumer gets 504. */
  readonly upstreamTimeoutMs: number;
  /** `extensions.reason` of the 7.2 errors the proxy answers on /graphql when the service fails. */
  readonly reasonCodes: {
    /** The service refused or reset the connection, or its address does not resolve (502). */
    readonly upstreamUnreachable: string;
    /** The service did not answer in time (504). */
    readonly upstreamTimeout: string;
    /** The service answered something that is not an answer of the service: not JSON, HTML, too large (502). */
    readonly upstreamInvalidAnswer: string;
  };
}

/**
 * The kit's defaults. Override any part through the mock's options (`assumptions`) or CLI flags; see ASSUMPTIONS.md.
 */
export const defaultAssumptions: Assumptions = {
  feeTable: [
    { card_type: 'visa', percent: 1.5, fixed: 0.3, card_location: 'domestic' },
    { card_type: 'mastercard', percent: 1.5, fixed: 0.3, card_location: 'domestic' },
    { card_type: 'amex', percent: 2.9, fixed: 0.3, card_location: 'international' },
    { card_type: 'diners', percent: 2.9, fixed: 0.3, card_location: 'international' },
  ],
  totalSettlement: 'amount-plus-fees',
  cardTypes: [
    { card_type: 'amex', pattern: /^3[47]/ },
    { card_type: 'diners', pattern: /^3(?:0[0-5]|[689])/ },
    { card_type: 'visa', pattern: /^4/ },
    { card_type: 'mastercard', pattern: /^(?:5[1-5]|2(?:2[2-9]|[3-6]\d|7[01]|720))/ },
  ],
  statusNames: { processing: 'processing', success: 'success', failure: 'failure' },
  reasonCodes: {
    missingToken: 'TOKEN_MISSING',
    invalidToken: 'TOKEN_INVALID',
    expiredToken: 'TOKEN_EXPIRED',
    revokedToken: 'TOKEN_REVOKED',
    clientMismatch: 'TOKEN_CLIENT_MISMATCH',
    missingClientHeaders: 'CLIENT_HEADERS_MISSING',
    badRequest: 'BAD_REQUEST',
    graphqlParseFailed: 'GRAPHQL_PARSE_FAILED',
    graphqlValidationFailed: 'GRAPHQL_VALIDATION_FAILED',
    guideMismatch: 'GUIDE_MISMATCH',
    internal: 'INTERNAL_SERVER_ERROR',
    storeUnavailable: 'STORE_UNAVAILABLE',
  },
  graphqlErrorHttpStatus: 200,
  unlistedStatuses: [
    { status: 400, when: 'a body that is not JSON, or a refresh-token body without a refresh_token string' },
    { status: 403, when: 'a Host header the mock does not answer (allowedHosts), or a cross-origin call it refuses' },
    { status: 405, when: 'a method the path does not take (the Allow header names the one it does)' },
    { status: 413, when: 'a body larger than limits.maxBodyBytes' },
  ],
  graphqlRequiresClientHeaders: false,
  tokenTtlSeconds: 600,
  repeatGenerateToken: 'reissue',
  clientRefusedRefresh: 'generate-again',
  expirationUnit: 'seconds',
  revokeTokenBody: { status: 'SUCCESS', message: 'Token revoked.' },
  bounds: {
    maxAmount: 1_000_000,
    cardNumberDigits: { min: 12, max: 19 },
    cvvDigits: { min: 3, max: 4 },
    maxTextLength: 255,
    feeTolerance: 0.005,
    maxMetadataBytes: 16 * 1024,
    maxMetadataDepth: 10,
  },
  limits: {
    maxBodyBytes: 1024 * 1024,
    maxJsonDepth: 64,
    maxTokens: 5_000,
    maxDepth: 32,
    maxAliases: 50,
    maxDirectives: 50,
    maxCost: 5_000,
  },
  history: {
    maxPaymentsPerClient: 10_000,
    maxDeliveries: 10_000,
    maxPendingDeliveries: 10_000,
    maxAttemptsPerDelivery: 20,
  },
  webhook: {
    signingKeyHeader: 'x-webhook-signing-key',
    clientIdHeader: 'x-client-id',
    deliveryIdHeader: 'x-webhook-delivery-id',
    eventType: 'payment.status_updated',
    retry: {
      maxAttempts: 8,
      initialDelayMs: 5_000,
      multiplier: 4,
      maxDelayMs: 6 * 60 * 60 * 1000,
      jitter: 0.2,
      attemptTimeoutMs: 10_000,
    },
  },
  settleDelayMs: 1_000,
  store: { leaseMs: 3_000, followIntervalMs: 250, compactAfterRecords: 20_000, compactAfterBytes: 32 * 1024 * 1024 },
  rateLimit: null,
  proxy: {
    maxBodyBytes: 10 * 1024 * 1024,
    upstreamTimeoutMs: 30_000,
    reasonCodes: {
      upstreamUnreachable: 'UPSTREAM_UNREACHABLE',
      upstreamTimeout: 'UPSTREAM_TIMEOUT',
      upstreamInvalidAnswer: 'UPSTREAM_INVALID_ANSWER',
    },
  },
};

/** A partial override of a nested assumption: every object level partial, arrays whole. */
type DeepPartial<T> = T extends readonly unknown[] | RegExp
  ? T
  : T extends object
    ? { readonly [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** A partial override of {@link Assumptions}: nested objects merge at every level, arrays replace. */
export type AssumptionOverrides = { readonly [K in keyof Assumptions]?: DeepPartial<Assumptions[K]> };

/** Whether `value` is an object to merge into (not an array, a pattern, or null). */
function mergeable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof RegExp);
}

/** `base` with `over` merged in: objects key by key at every level, anything else replaced. */
function merged(base: unknown, over: unknown): unknown {
  if (!mergeable(base) || !mergeable(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) if (value !== undefined) out[key] = merged(base[key], value);
  return out;
}

/**
 * Applies overrides to the defaults. Nested objects merge at every level, so `{ webhook: { retry: { maxAttempts: 2 }
 * } }` keeps the other retry settings; arrays (the fee table, card types) replace the default whole.
 */
export function resolveAssumptions(overrides: AssumptionOverrides = {}): Assumptions {
  return merged(defaultAssumptions, overrides) as Assumptions;
}
