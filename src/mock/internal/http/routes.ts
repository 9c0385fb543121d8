/**
 * Routing and the service's own routes. The router matches by exact path, then method: two Map lookups, no regular
 * expressions on the hot path, match results built when routes are added, so a lookup allocates nothing. A known path
 * with an unknown method is a 405 that lists the allowed methods; an unknown path is a 404. The service routes (spec
 * 4) are the three token endpoints and `/graphql`, each a credentials check plus a handler; client mistakes are
 * answered in the route's shape (7.1 on REST, 7.2 on /graphql), never thrown as plain errors.
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import { kitMessage } from '../../../internal/messages.ts';
import { isPlainObject } from '../../../internal/plain-object.ts';
import { serviceHeaders, servicePaths } from '../../../spec-names.ts';
import type { TokenPairResponse } from '../../../types/rest.ts';
import { wrongApiKeyMessage } from '../domain/access-tokens.ts';
import { okVerdict, verdictOf } from '../domain/events.ts';
import { type RevokeTokenData, type TokenCheck, type TokenService, tokenPairJson } from '../domain/tokens.ts';
import type { GraphqlRequest, GraphqlResult } from '../graphql/engine.ts';
import { type EngineLoader, summarizeVariables } from '../graphql/engine-loader.ts';
import { parseGraphqlQueryString } from '../graphql/query-string.ts';
import type { ArmedFailure } from '../store/failure-state.ts';
import { StoreUnavailableError } from '../store/store-errors.ts';
import {
  type Authenticator,
  type BodyLimits,
  bodyText,
  type ErrorMapper,
  graphqlFailure,
  type MockRequest,
  type Outcome,
  parseJsonBody,
  type RouteEntry,
  type RouteKind,
  requestHeader,
} from './exchange.ts';

/** One path with its handlers by method. */
interface Route<H> {
  readonly path: string;
  readonly kind: RouteKind;
  readonly handlers: ReadonlyMap<string, H>;
  /** Value of the `Allow` header of a 405. */
  readonly allow: string;
}

/** Outcome of a lookup. */
export type RouteMatch<H> =
  | { readonly found: 'handler'; readonly route: Route<H>; readonly handler: H }
  | { readonly found: 'method'; readonly route: Route<H> }
  | { readonly found: 'none' };

/** A path → method → handler table. */
export interface Router<H> {
  /** Registers `handler` for `method` on `path`. */
  add(kind: RouteKind, method: string, path: string, handler: H): void;
  /** Looks up a request's path (without query string) and method. */
  match(method: string, path: string): RouteMatch<H>;
}

/** Creates an empty router. */
export function createRouter<H>(): Router<H> {
  interface Entry {
    kind: RouteKind;
    handlers: Map<string, H>;
    route: Route<H>;
    /** Prepared answers: per method, and for any other method (405). */
    matches: Map<string, RouteMatch<H>>;
    otherMethod: RouteMatch<H>;
  }
  const table = new Map<string, Entry>();
  const none: RouteMatch<H> = { found: 'none' };
  return {
    add(kind, method, path, handler) {
      let entry = table.get(path);
      if (!entry) {
        const handlers = new Map<string, H>();
        const route: Route<H> = { path, kind, handlers, allow: '' };
        entry = { kind, handlers, route, matches: new Map(), otherMethod: { found: 'method', route } };
        table.set(path, entry);
      }
      entry.handlers.set(method, handler);
      const route: Route<H> = { path, kind, handlers: entry.handlers, allow: [...entry.handlers.keys()].join(', ') };
      entry.route = route;
      entry.otherMethod = { found: 'method', route };
      entry.matches.clear();
      for (const [m, h] of entry.handlers) entry.matches.set(m, { found: 'handler', route, handler: h });
    },
    match(method, path) {
      const entry = table.get(path);
      if (!entry) return none;
      return entry.matches.get(method) ?? entry.otherMethod;
    },
  };
}

/** What the service routes need. */
interface ServiceRouteDeps {
  readonly assumptions: Assumptions;
  readonly tokens: TokenService;
  readonly engine: EngineLoader;
  readonly errors: ErrorMapper;
  /** The injected failures: when a store holds them, the /graphql token check takes them in its round trip. */
  readonly failures?: RouteFailures | undefined;
}

/** What the /graphql credentials check needs of the injected failures (domain/failure-injection.ts). */
interface RouteFailures {
  readonly inStore: boolean;
  take(path: string): ArmedFailure | Promise<ArmedFailure | undefined> | undefined;
}

/** Most outcomes the kept set holds: a client asks for a few amounts, a hostile one for many. */
const maxKeptAnswers = 64;

const postOnly: Readonly<Record<string, string>> = Object.freeze({ allow: 'POST' });

/** Longest /graphql body whose outcome is kept (the kit's fee list query with its variables is about 400 bytes). */
export const maxKeptBodyBytes = 2048;
const refreshHint = '{ "refresh_token": "<refresh_token from generate-token>" }';
const notAnObjectBody = kitMessage('/graphql needs a JSON object body { "query": "...", "variables": { ... } }.');

/** A token pair's answer: a success, so its verdict is given and the pipeline does not scan the JSON for "errors". */
const pairAnswer = (answer: TokenPairResponse): Outcome => ({
  status: 200,
  json: tokenPairJson(answer),
  verdict: okVerdict,
});

/** The answer of a token call: at once in process, a promise over a shared token state (Redis). */
const tokenAnswer = (answer: TokenPairResponse | Promise<TokenPairResponse>): Outcome | Promise<Outcome> =>
  answer instanceof Promise ? answer.then(pairAnswer) : pairAnswer(answer);

/** Adds the token endpoints and `/graphql` to `router`. */
export function registerServiceRoutes(router: Router<RouteEntry>, deps: ServiceRouteDeps): void {
  const { assumptions, tokens, engine, errors } = deps;
  const failures = deps.failures?.inStore ? deps.failures : undefined;
  // Token endpoints take the client's credentials (spec 5); a failure is thrown as the 7.1 answer.
  const clientCredentials: Authenticator = (request) =>
    tokens.authenticate(requestHeader(request, serviceHeaders.clientId), requestHeader(request, serviceHeaders.apiKey));

  const bearerToken = bearerTokenCheck(deps, failures);

  router.add('rest', 'POST', servicePaths.generateToken, {
    auth: clientCredentials,
    handle: (_request, clientId) => tokenAnswer(tokens.generate(clientId!)),
  });

  router.add('rest', 'POST', servicePaths.refreshToken, {
    auth: clientCredentials,
    handle(request, clientId) {
      const body = parseJsonBody(request.body, assumptions.limits);
      if (!body.ok) return errors.layer('rest', body.status, body.message);
      const refreshToken = isPlainObject(body.value) ? body.value.refresh_token : undefined;
      if (typeof refreshToken !== 'string' || refreshToken === '')
        return errors.layer(
          'rest',
          400,
          kitMessage(
            body.empty
              ? `refresh-token needs a JSON body ${refreshHint}.`
              : `refresh_token is missing or not a string: send ${refreshHint}.`,
          ),
        );
      return tokenAnswer(tokens.refresh(clientId!, refreshToken));
    },
  });

  router.add('rest', 'POST', servicePaths.revokeToken, {
    auth: clientCredentials,
    handle(request, clientId) {
      const revoked = tokens.revoke(clientId!, requestHeader(request, serviceHeaders.jwt));
      // The ledger's status and message, which a client may compare, and what was revoked, which a person needs:
      // without x-jwt-token every token of the client goes, and the body says so.
      const answer = (data: RevokeTokenData): Outcome => ({
        status: 200,
        body: { ...assumptions.revokeTokenBody, data },
      });
      return revoked instanceof Promise ? revoked.then(answer) : answer(revoked);
    },
  });

  // With the failures in the store, so is everything a fee list reads besides configuration: no first catch-up.
  const sharedRead = graphqlSharedReads(engine, assumptions.limits, failures === undefined);
  const graphql = answeringKeptBodies(engine, parsedGraphql);
  const takesFailure = failures !== undefined;
  router.add('graphql', 'POST', servicePaths.graphql, {
    auth: bearerToken,
    handle: (request, clientId) => graphql(request, clientId!),
    readsShared: sharedRead.post,
    takesFailure,
  });

  // Queries over GET, as GraphQL over HTTP allows (urql's default for queries); mutations answer 405.
  router.add('graphql', 'GET', servicePaths.graphql, {
    auth: bearerToken,
    handle: (request, clientId) => graphqlOverGet(request, clientId!),
    readsShared: sharedRead.get,
    takesFailure,
  });

  function graphqlOverGet(request: MockRequest, clientId: string): Outcome | Promise<Outcome> {
    const parsed = parseGraphqlQueryString(request.query, assumptions.limits.maxJsonDepth);
    if (!parsed.ok) return errors.layer('graphql', 400, parsed.message);
    return executeGraphql(request, clientId, { ...parsed.value, readOnly: true }, 'GET');
  }

  function parsedGraphql(request: MockRequest, clientId: string, text: string | undefined) {
    const body = parseJsonBody(request.body, assumptions.limits, text);
    if (!body.ok) return errors.layer('graphql', body.status, body.message);
    if (!isPlainObject(body.value)) return errors.layer('graphql', 400, notAnObjectBody);
    const { query, variables, operationName } = body.value;
    return executeGraphql(request, clientId, { query, variables, operationName }, 'POST');
  }

  function executeGraphql(
    request: MockRequest,
    clientId: string,
    operation: GraphqlRequest,
    method: 'GET' | 'POST',
  ): Outcome | Promise<Outcome> {
    const ready = engine.current();
    // The engine loads on the first /graphql request; afterwards this path stays synchronous.
    if (ready === undefined) return engine.load().then(() => executeGraphql(request, clientId, operation, method));
    const result = ready.execute(operation, { clientId, ip: request.remoteAddress });
    return result instanceof Promise
      ? result.then((r) => graphqlOutcome(r, operation.variables, method))
      : graphqlOutcome(result, operation.variables, method);
  }

  function graphqlOutcome(result: GraphqlResult, variables: unknown, method: 'GET' | 'POST'): Outcome {
    const { internalError } = result;
    // Tested only when there is one, so an answer without one reads nothing of the error classes.
    if (internalError !== undefined) {
      // A resolver's store write that failed (a payment accepted on Redis) is the store's 503, not a bug's 500.
      if (internalError instanceof StoreUnavailableError) throw internalError;
      errors.internal(internalError, method, servicePaths.graphql);
    }
    return {
      status: result.status,
      json: result.json,
      operationName: result.operationName,
      guide: result.guide,
      rootFields: result.rootFields,
      summary: variables === undefined ? undefined : summarizeVariables(variables),
      verdict: verdictOf(result.status, result.body),
      kept: result.kept,
      ...(result.methodNotAllowed ? { headers: postOnly } : {}),
    };
  }
}

/**
 * /graphql takes a token (spec 5), and the client headers too when the ledger says so. Over a shared token state
 * (Redis) the check reads the store, so the answer is a promise. With `failures` (held by that store) the same round
 * trip takes a use of the failure armed for the path, which is the answer then, as if no check had run.
 */
function bearerTokenCheck(deps: ServiceRouteDeps, failures?: RouteFailures): Authenticator {
  const { assumptions, tokens, errors } = deps;
  const reasons = assumptions.reasonCodes;
  const gqlErrorStatus = assumptions.graphqlErrorHttpStatus;
  const checked = (request: MockRequest, check: TokenCheck): string | Outcome => {
    if (!check.ok) return graphqlFailure(gqlErrorStatus, check.message, reasons[check.reason]);
    if (!assumptions.graphqlRequiresClientHeaders) return check.clientId;
    const apiKey = requestHeader(request, serviceHeaders.apiKey);
    if (requestHeader(request, serviceHeaders.clientId) === undefined || apiKey === undefined)
      return graphqlFailure(
        gqlErrorStatus,
        kitMessage(
          `This mock requires ${serviceHeaders.clientId} and ${serviceHeaders.apiKey} on /graphql too (graphqlRequiresClientHeaders): send both with the token.`,
        ),
        reasons.missingClientHeaders,
      );
    if (!tokens.apiKeyMatches(check.clientId, apiKey))
      return graphqlFailure(gqlErrorStatus, wrongApiKeyMessage(check.clientId), reasons.clientMismatch);
    return check.clientId;
  };
  return (request) => {
    const failPath = failures === undefined ? undefined : request.path;
    const check = tokens.verify(
      requestHeader(request, serviceHeaders.jwt),
      requestHeader(request, serviceHeaders.clientId),
      failPath,
    );
    if (check instanceof Promise)
      return check.then((c) => (c.failure && failures ? errors.injected(c.failure, 'graphql') : checked(request, c)));
    if (failPath === undefined || failures === undefined) return checked(request, check);
    // No token the store had to check (missing or not this mock's): the failure takes a round trip of its own.
    return Promise.resolve(failures.take(failPath)).then((f) =>
      f ? errors.injected(f, 'graphql') : checked(request, check),
    );
  };
}

/**
 * The POST /graphql handler over `answer`, with the kept fee list outcomes by body text: the mock's one fee list
 * cache. The engine marks the answer of a configuration-only query (`kept`), and its outcome (answer, verdict, journal summary) is a function of the
 * body's text alone: the guide follows from the document and variables, and the token is checked before, on every
 * request. So the same body is answered again without parsing it, until the engine's reset; only bodies of at most
 * {@link maxKeptBodyBytes} are keyed. Each request answered from one outcome journals the same summary object, as
 * every read of one journal entry already does.
 */
function answeringKeptBodies(
  engine: EngineLoader,
  answer: (request: MockRequest, clientId: string, text: string | undefined) => Outcome | Promise<Outcome>,
): (request: MockRequest, clientId: string) => Outcome | Promise<Outcome> {
  const kept = new Map<string, Outcome>();
  // The lengths of the kept bodies: every /graphql body is looked up (a payment too), and a map lookup hashes the
  // whole body text, about a kilobyte, while a length no kept body has answers at once.
  const lengths = new Set<number>();
  let keptEpoch = 0;
  return (request, clientId) => {
    const raw = request.body;
    const text = raw instanceof Uint8Array && raw.length <= maxKeptBodyBytes ? bodyText(raw) : undefined;
    const ready = engine.current();
    const keyed = text !== undefined && ready !== undefined;
    const hit = keyed && ready.answersEpoch() === keptEpoch && lengths.has(text.length) ? kept.get(text) : undefined;
    if (hit !== undefined) return hit;
    const outcome = answer(request, clientId, text);
    if (!keyed || outcome instanceof Promise || !outcome.kept) return outcome;
    // A new reset, or one body more than the set holds, starts it over: a client sending a new body each time holds
    // a bounded set.
    const epoch = ready.answersEpoch();
    if (epoch !== keptEpoch || kept.size >= maxKeptAnswers) {
      kept.clear();
      lengths.clear();
      keptEpoch = epoch;
    }
    kept.set(text, outcome);
    lengths.add(text.length);
    return outcome;
  };
}

/**
 * With a shared store: a fee list answers from configuration, and its token check from what this process knows, once
 * it has caught up on that token (its first check here), so revocations and the clock of other processes made before
 * count; later ones arrive through the follow loop. With `firstCatchUp` false (a Redis store, whose token check reads
 * the tokens, the clock and the failures) a fee list never catches up. The `readsShared` of POST and GET /graphql.
 */
function graphqlSharedReads(engine: EngineLoader, limits: BodyLimits, firstCatchUp: boolean) {
  const fresh = firstCatchUp ? freshTokens() : () => false;
  const sharedRead = (request: MockRequest, operation: () => GraphqlRequest | undefined): boolean => {
    const first = fresh(requestHeader(request, serviceHeaders.jwt));
    const ready = engine.current();
    if (first || ready === undefined) return true;
    const op = operation();
    return op !== undefined && ready.readsShared(op);
  };
  return {
    post: (request: MockRequest) =>
      sharedRead(request, () => {
        const body = parseJsonBody(request.body, limits);
        if (!body.ok || !isPlainObject(body.value)) return undefined;
        const { query, operationName } = body.value;
        return { query, operationName };
      }),
    get: (request: MockRequest) =>
      sharedRead(request, () => {
        const parsed = parseGraphqlQueryString(request.query, limits.maxJsonDepth);
        return parsed.ok ? parsed.value : undefined;
      }),
  };
}

/** How many tokens {@link freshTokens} remembers before it starts over (each then catches up once more). */
const knownTokensCap = 4096;

/**
 * True the first time a token is seen (and after the set starts over): that check waits for a catch-up with the
 * shared store; a missing token is refused without one.
 */
function freshTokens(): (token: string | undefined) => boolean {
  const known = new Set<string>();
  return (token) => {
    if (token === undefined || known.has(token)) return false;
    if (known.size >= knownTokensCap) known.clear();
    known.add(token);
    return true;
  };
}
