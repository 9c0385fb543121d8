/**
 * `createPaymentClient`: typed operations of either guide over `fetch`, with the token lifecycle built in and the
 * service's error answers turned into error classes.
 *
 * @module
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { type Assumptions, defaultAssumptions } from '../assumptions.ts';
import type { OperationName } from '../contract/operations.ts';
import { credentialHeaders, serviceHeaders, servicePaths } from '../contract/service-names.ts';
import type {
  PaymentCreditCardFeeCalcQuery,
  PaymentCreditCardFeeCalcQueryVariables,
  PaymentGatewayFeesCalcQuery,
  ProcessPaymentRequestInput,
  ProcessPaymentRequestMutation,
} from '../index.ts';
import { parseHttpUrl } from '../internal/http-url.ts';
import { kitMessage } from '../internal/messages.ts';
import type {
  PaymentCreditCardFeeCalcQuery as LegacyPaymentCreditCardFeeCalcQuery,
  PaymentCreditCardFeeCalcQueryVariables as LegacyPaymentCreditCardFeeCalcQueryVariables,
  PaymentGatewayFeesCalcQuery as LegacyPaymentGatewayFeesCalcQuery,
  ProcessPaymentRequestMutation as LegacyProcessPaymentRequestMutation,
  ProcessPaymentInput,
} from '../legacy.ts';
import { readGraphqlAnswer } from './internal/graphql-answer.ts';
import { type FetchLike, postJson } from './internal/http.ts';
import { guideDocuments, operationText, rootFieldOf } from './internal/operation-text.ts';
import { createTokenManager } from './internal/token-manager.ts';
import { createMemoryTokenStore, type TokenStore } from './token-store.ts';

/** The guide a client speaks: the current one, or the older one (spec 9). */
export type PaymentClientGuide = 'current' | 'legacy';

/** Argument and result types of the client's named operations, per guide. */
export interface GuideOperations {
  readonly current: {
    readonly fees: PaymentGatewayFeesCalcQuery['paymentGatewayFeesCalc'];
    readonly cardFeeVariables: PaymentCreditCardFeeCalcQueryVariables;
    readonly cardFee: PaymentCreditCardFeeCalcQuery['paymentCreditCardFeeCalc'];
    readonly paymentInput: ProcessPaymentRequestInput;
    readonly payment: ProcessPaymentRequestMutation['processPaymentRequest'];
  };
  readonly legacy: {
    readonly fees: LegacyPaymentGatewayFeesCalcQuery['paymentGatewayFeesCalc'];
    readonly cardFeeVariables: LegacyPaymentCreditCardFeeCalcQueryVariables;
    readonly cardFee: LegacyPaymentCreditCardFeeCalcQuery['paymentCreditCardFeeCalc'];
    readonly paymentInput: ProcessPaymentInput;
    readonly payment: LegacyProcessPaymentRequestMutation['processPaymentRequest'];
  };
}

/** Options of {@link createPaymentClient}. */
export interface PaymentClientOptions<G extends PaymentClientGuide = 'current'> {
  /** The service's base address, such as `https://payments.example.com` or the mock's `url`. */
  readonly baseUrl: string;
  /** Sent as `x-client-id` on the token endpoints. */
  readonly clientId: string;
  /** Sent as `x-api-key` on the token endpoints. */
  readonly apiKey: string;
  /** Guide of the documents and types; default `current`. */
  readonly guide?: G;
  /** The `fetch` to call; default the global one. Any compatible function works (msw, undici, a test double). */
  readonly fetch?: FetchLike;
  /** Where the token pair is kept; default in memory. Persist it so a restart does not call generate-token again. */
  readonly tokenStore?: TokenStore;
  /** Refresh this many ms before the token's `expiration`; default 30,000. */
  readonly refreshSkewMs?: number;
  /**
   * Current time in ms since the epoch, for the "ahead of expiry" check; default `Date.now`. Tests against the mock
   * pass `mock.control.now` so that advancing the mock's clock makes the client refresh. Whatever the clock says,
   * a `TOKEN_EXPIRED` answer still makes the client refresh once and retry.
   */
  readonly now?: () => number;
  /** When refresh-token is refused: generate again (default) or fail; see `clientRefusedRefresh` in ASSUMPTIONS.md. */
  readonly refusedRefresh?: Assumptions['clientRefusedRefresh'];
  /** Reason codes of the service, when they differ from the kit's (`reasonCodes` in ASSUMPTIONS.md). */
  readonly reasonCodes?: Partial<Assumptions['reasonCodes']>;
  /** Also send `x-client-id` and `x-api-key` on `/graphql` (`graphqlRequiresClientHeaders`); default false. */
  readonly graphqlClientHeaders?: boolean;
  /**
   * Prints a document that is not one of the kit's (the kit's are shipped with their text): pass `print` from
   * `graphql` to `execute` your own documents. Documents parsed with their source location need no printer.
   */
  readonly printDocument?: (document: TypedDocumentNode<unknown, never>) => string;
}

/** A client of the payment service in guide `G`. */
export interface PaymentClient<G extends PaymentClientGuide = 'current'> {
  /** The guide this client speaks. */
  readonly guide: G;
  /** paymentGatewayFeesCalc (spec 4.4): the fee for `amount` per card type. */
  feesFor(amount: number): Promise<GuideOperations[G]['fees']>;
  /** paymentCreditCardFeeCalc (spec 4.5): the fee for one card, with its reusable `card_account_uid`. */
  cardFee(variables: GuideOperations[G]['cardFeeVariables']): Promise<GuideOperations[G]['cardFee']>;
  /** processPaymentRequest (spec 4.6): starts a payment; the outcome arrives by webhook. */
  processPayment(input: GuideOperations[G]['paymentInput']): Promise<GuideOperations[G]['payment']>;
  /** Runs any typed document of the kit (or your own, see `printDocument`) with the client's token. */
  execute<TResult, TVariables>(
    document: TypedDocumentNode<TResult, TVariables>,
    variables: TVariables,
  ): Promise<TResult>;
  /** A valid access token (generated or refreshed as needed), for calls the client does not make itself. */
  accessToken(): Promise<string>;
  /** Revokes the current token (revoke-token with `x-jwt-token`) and clears the token store; later calls throw. */
  close(): Promise<void>;
}

type AnyDocument = TypedDocumentNode<unknown, never>;

/** The client's methods that each run one operation of `operations/`. */
type NamedMethod = Exclude<keyof PaymentClient, 'guide' | 'execute' | 'accessToken' | 'close'>;

/** How a named method runs its operation: which one, and how the method's argument becomes its variables. */
interface NamedOperation<Argument> {
  readonly operation: OperationName;
  readonly variables: (argument: Argument) => object;
}

/**
 * One row per named method. The method returns its operation's root field (generated from `operations/`); the
 * interface {@link PaymentClient} declares its types. A method without a row, or a row without a method, fails to
 * compile here.
 */
const namedOperations = {
  feesFor: { operation: 'PaymentGatewayFeesCalc', variables: (amount) => ({ amount }) },
  cardFee: { operation: 'PaymentCreditCardFeeCalc', variables: (variables) => variables },
  processPayment: { operation: 'ProcessPaymentRequest', variables: (input) => ({ input }) },
} satisfies { readonly [M in NamedMethod]: NamedOperation<Parameters<PaymentClient<PaymentClientGuide>[M]>[0]> };

/** An operation of `operations/` no named method runs; `never` when each has one. */
type OperationWithoutMethod = Exclude<OperationName, (typeof namedOperations)[NamedMethod]['operation']>;
/**
 * Fails to compile, naming the operation, when an operation of `operations/` has no row in `namedOperations` (and
 * so no method of {@link PaymentClient}). Exported only so the check is not an unused declaration.
 *
 * @internal
 */
export type EveryOperationHasAMethod = AssertNone<OperationWithoutMethod>;
type AssertNone<T extends never> = T;

/** The name of the document's operation, sent as `operationName` and used in messages. */
function operationName(document: AnyDocument): string | undefined {
  const definition = document.definitions.find((d) => d.kind === 'OperationDefinition') as
    | { name?: { value: string } }
    | undefined;
  return definition?.name?.value;
}

function required(name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '')
    throw new TypeError(kitMessage(`createPaymentClient: ${name} must be a non-empty string.`));
  return value;
}

/**
 * Creates a client of the payment service. No request is made until the first call: then the client calls
 * generate-token once (or uses the pair in `tokenStore`), and refreshes from then on.
 *
 * @example
 * const client = createPaymentClient({ baseUrl: mock.url, clientId: 'test-client', apiKey: 'test-api-key' });
 * const fees = await client.feesFor(100);
 * await client.close();
 */
export function createPaymentClient<G extends PaymentClientGuide = 'current'>(
  options: PaymentClientOptions<G>,
): PaymentClient<G> {
  const base = parseHttpUrl(required('baseUrl', options.baseUrl));
  if (!base)
    throw new TypeError(
      kitMessage(
        `createPaymentClient: baseUrl must be an http(s) URL such as https://payments.example.com, got "${options.baseUrl}".`,
      ),
    );
  const baseUrl = base.href.replace(/\/+$/, '');
  const clientId = required('clientId', options.clientId);
  const apiKey = required('apiKey', options.apiKey);
  const guide = (options.guide ?? 'current') as G;
  if (guide !== 'current' && guide !== 'legacy')
    throw new TypeError(kitMessage(`createPaymentClient: guide must be 'current' or 'legacy'.`));
  const fetchFn: FetchLike | undefined = options.fetch ?? globalThis.fetch?.bind(globalThis);
  if (!fetchFn)
    throw new TypeError(kitMessage('createPaymentClient: no global fetch here; pass one as the `fetch` option.'));
  const codes = { ...defaultAssumptions.reasonCodes, ...options.reasonCodes };
  const reasons = {
    recoverable: [codes.expiredToken, codes.revokedToken],
    authentication: [
      codes.missingToken,
      codes.invalidToken,
      codes.expiredToken,
      codes.revokedToken,
      codes.clientMismatch,
      codes.missingClientHeaders,
    ],
    guideMismatch: codes.guideMismatch,
  };
  const tokens = createTokenManager({
    baseUrl,
    clientId,
    apiKey,
    fetch: fetchFn,
    store: options.tokenStore ?? createMemoryTokenStore(),
    now: options.now ?? Date.now,
    refreshSkewMs: options.refreshSkewMs ?? 30_000,
    refusedRefresh: options.refusedRefresh ?? defaultAssumptions.clientRefusedRefresh,
  });
  const extraHeaders: Record<string, string> = options.graphqlClientHeaders ? credentialHeaders(clientId, apiKey) : {};
  let closed = false;

  function textOf(document: AnyDocument): string {
    const text =
      operationText.get(document) ?? (document.loc?.source.body || undefined) ?? options.printDocument?.(document);
    if (text === undefined)
      throw new TypeError(
        kitMessage(
          `execute: ${operationName(document) ?? 'an anonymous operation'} is not one of the kit's documents and has no source text; pass \`printDocument: print\` (from graphql) to createPaymentClient.`,
        ),
      );
    return text;
  }

  async function execute<TResult, TVariables>(
    document: TypedDocumentNode<TResult, TVariables>,
    variables: TVariables,
  ): Promise<TResult> {
    if (closed) throw new Error(kitMessage('This payment client was closed; create a new one.'));
    const query = textOf(document as unknown as AnyDocument);
    const operation = operationName(document as unknown as AnyDocument);
    const name = operation ?? 'anonymous operation';
    const body = operation === undefined ? { query, variables } : { query, variables, operationName: operation };
    const send = async (token: string) =>
      readGraphqlAnswer(
        name,
        await postJson(
          fetchFn as FetchLike,
          name,
          `${baseUrl}${servicePaths.graphql}`,
          { [serviceHeaders.jwt]: token, ...extraHeaders },
          body,
        ),
        reasons,
      );
    const token = await tokens.token();
    let outcome = await send(token);
    // An expired or revoked token: one recovery (refresh, or generate when the refresh token is refused), one retry.
    if (!outcome.ok && outcome.recoverable) outcome = await send(await tokens.recover(token));
    if (!outcome.ok) throw outcome.error;
    return outcome.data as TResult;
  }

  // The one method maker: each named method runs its row's document and returns the operation's root field.
  const documents = guideDocuments[guide];
  const methods = Object.fromEntries(
    (Object.keys(namedOperations) as NamedMethod[]).map((method) => {
      const row = namedOperations[method] as NamedOperation<unknown>;
      const field = rootFieldOf(guide, row.operation);
      const run = async (argument: unknown) => {
        const data = await execute(documents[row.operation] as AnyDocument, row.variables(argument) as never);
        return (data as Record<string, unknown>)[field];
      };
      return [method, run];
    }),
  ) as unknown as Pick<PaymentClient<G>, NamedMethod>;
  return {
    guide,
    ...methods,
    execute,
    accessToken() {
      if (closed) return Promise.reject(new Error(kitMessage('This payment client was closed; create a new one.')));
      return tokens.token();
    },
    async close() {
      if (closed) return;
      closed = true;
      await tokens.close();
    },
  };
}
