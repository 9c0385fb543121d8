/**
 * The control API over HTTP: every operation of the control handle under the reserved prefix `/__pck/`, JSON in and
 * JSON out, so tests in any language, Pact provider states and shell scripts can drive the mock. Errors use the 7.1
 * body (`{ status: "ERROR", message }`). Control calls are logged but not journaled, so waiting for "a request"
 * never matches the wait call itself.
 *
 * | Method | Path | Body / query | Answer |
 * |---|---|---|---|
 * | GET | /__pck/health | | `{ ok, now, guide, history, warnings, store }` (see lists.ts) |
 * | POST | /__pck/reset | | `{ ok }` |
 * | GET | /__pck/clock | | `{ now, iso }` |
 * | POST | /__pck/clock/advance | `{ ms }` | `{ now, iso }`; 400 unless 0 <= ms and the date stays valid |
 * | GET | /__pck/payments | `?limit=&before=&after=&clientId=&state=&uuid=` | one page (see lists.ts) |
 * | POST | /__pck/payments/settle | `{ uuid, outcome? }` | `{ payment }`; 404 unknown, 409 already settled |
 * | GET | /__pck/requests | `?limit=&before=&after=&since=&clientId=&path=&method=&operationName=&status=` | one page, `cursor` |
 * | POST | /__pck/requests/wait | `{ method?, path?, operationName?, status?, clientId?, guide?, since?, timeoutMs? }` | `{ request }`; 408 on timeout |
 * | GET | /__pck/deliveries | `?limit=&before=&after=&state=&paymentUuid=&clientId=&url=` | one page |
 * | POST | /__pck/deliveries/wait | `{ paymentUuid?, state?, url?, clientId?, timeoutMs? }` | `{ delivery }`; 408 on timeout |
 * | POST | /__pck/deliveries/redeliver | `{ id }` | `{ ok }`; 404 unknown, 409 not finished yet (or the mock is closing) |
 * | POST | /__pck/tokens | `{ clientId }` | `{ status: "SUCCESS", data: { token, refresh_token, expiration } }` |
 * | POST | /__pck/card-accounts | `{ clientId, card: { card_number, expiry_month, expiry_year } }` | `{ card_account_uid }` |
 * | POST | /__pck/fail-next | `{ path, status, message?, times? }` | `{ ok }` |
 * | GET | /__pck/coverage | `?format=json\|text\|junit` | the coverage report (see lists.ts) |
 * | POST | /__pck/provider-states | Pact state change | state values (see `provider-states/routes.ts`) |
 * | POST | /__pck/messages | `{ description, providerStates }` | a webhook as a Pact message (see `provider-states/routes.ts`) |
 *
 * @module
 */

import { isPlainObject } from '../../../internal/plain-object.ts';
import type { MockControl, MockRequestMatcher } from '../handle/control-handle.ts';
import { type BodyLimits, jsonObject, type MockRequest, type Outcome, type RouteEntry } from '../http/exchange.ts';
import type { Router } from '../http/routes.ts';
import { badRequest, restError } from '../http-error.ts';
import { pactRoutes, registerPactRoutes } from '../provider-states/routes.ts';
import type { ProviderStateService } from '../provider-states/setup.ts';
import { StoreUnavailableError } from '../store/store-errors.ts';
import { coveragePath, registerListRoutes } from './lists.ts';

type ControlHandler = (request: MockRequest) => Outcome | Promise<Outcome>;

/** Every control route, for documentation and tests. */
export const controlRoutes = [
  ['GET', '/__pck/health'],
  ['POST', '/__pck/reset'],
  ['GET', '/__pck/clock'],
  ['POST', '/__pck/clock/advance'],
  ['GET', '/__pck/payments'],
  ['POST', '/__pck/payments/settle'],
  ['GET', '/__pck/requests'],
  ['POST', '/__pck/requests/wait'],
  ['GET', '/__pck/deliveries'],
  ['POST', '/__pck/deliveries/wait'],
  ['POST', '/__pck/deliveries/redeliver'],
  ['POST', '/__pck/tokens'],
  ['POST', '/__pck/card-accounts'],
  ['POST', '/__pck/fail-next'],
  ['GET', coveragePath],
  ...pactRoutes,
] as const;

const ok = (body: unknown): Outcome => ({ status: 200, body });

function optionalString(body: Record<string, unknown>, key: string, route: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badRequest(`${route}: "${key}" must be a string.`);
  return v;
}

function requiredString(body: Record<string, unknown>, key: string, route: string): string {
  const v = optionalString(body, key, route);
  if (v === undefined || v === '') throw badRequest(`${route}: "${key}" is required.`);
  return v;
}

function optionalNumber(body: Record<string, unknown>, key: string, route: string): number | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw badRequest(`${route}: "${key}" must be a number.`);
  return v;
}

/** Longest wait a timer can hold (node caps setTimeout at 2^31 - 1 ms and fires at once beyond it). */
const MAX_WAIT_MS = 2_147_483_647;

function optionalTimeout(body: Record<string, unknown>, route: string): number | undefined {
  const v = optionalNumber(body, 'timeoutMs', route);
  if (v !== undefined && (!Number.isInteger(v) || v < 0 || v > MAX_WAIT_MS))
    throw badRequest(`${route}: "timeoutMs" must be a whole number of milliseconds from 0 to ${MAX_WAIT_MS}.`);
  return v;
}

/**
 * Turns a wait that gave up (timed out, or the mock closed under it) into a 408 with the wait's own message. A store
 * that failed the wait's reads goes on as it is, so the pipeline answers it as the store's 503: the caller then
 * retries later rather than widening a time-out that was never the cause.
 */
async function orTimeout<T>(wait: Promise<T>): Promise<T> {
  try {
    return await wait;
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw error;
    throw restError(408, error instanceof Error ? error.message : String(error));
  }
}

/**
 * Adds the control routes to `router`, each delegating to `control`.
 *
 * @example
 * registerControlRoutes(router, control, 'current', defaultAssumptions.limits, createProviderStates(deps));
 * // curl -X POST localhost:4010/__pck/clock/advance -d '{"ms":600000}'
 */
export function registerControlRoutes(
  router: Router<RouteEntry>,
  control: MockControl,
  guide: string,
  limits: BodyLimits,
  providerStates?: ProviderStateService,
): void {
  const add = (method: string, path: string, handle: ControlHandler) => router.add('control', method, path, { handle });
  // A POST route reads a JSON object body; its errors name the route.
  const post = (path: string, handle: (body: Record<string, unknown>, route: string) => Outcome | Promise<Outcome>) =>
    add('POST', path, async (req) => handle(jsonObject(req, limits, `POST ${path}`), `POST ${path}`));
  const clockAnswer = (now: number) => ok({ now, iso: new Date(now).toISOString() });

  registerListRoutes(add, control, guide);
  add('POST', '/__pck/reset', () => {
    control.reset();
    return ok({ ok: true });
  });
  add('GET', '/__pck/clock', () => clockAnswer(control.now()));
  post('/__pck/clock/advance', async (body, route) => {
    const ms = optionalNumber(body, 'ms', route);
    if (ms === undefined || ms < 0) throw badRequest(`${route} needs { "ms": <non-negative milliseconds> }.`);
    return clockAnswer(control.advanceClock(ms));
  });
  post('/__pck/payments/settle', async (body, route) => {
    const outcome = optionalString(body, 'outcome', route);
    if (outcome !== undefined && outcome !== 'success' && outcome !== 'failure')
      throw badRequest(`${route}: "outcome" must be "success" or "failure".`);
    return ok({ payment: await control.settlePayment(requiredString(body, 'uuid', route), outcome) });
  });
  post('/__pck/requests/wait', async (body, route) => {
    const guideValue = optionalString(body, 'guide', route);
    if (guideValue !== undefined && guideValue !== 'current' && guideValue !== 'legacy')
      throw badRequest(`${route}: "guide" must be "current" or "legacy".`);
    const matcher: MockRequestMatcher = {
      method: optionalString(body, 'method', route),
      path: optionalString(body, 'path', route),
      operationName: optionalString(body, 'operationName', route),
      status: optionalNumber(body, 'status', route),
      clientId: optionalString(body, 'clientId', route),
      guide: guideValue,
    };
    const timeoutMs = optionalTimeout(body, route);
    const since = optionalNumber(body, 'since', route);
    // Options left out and options given as undefined mean the same to every wait: the defaults.
    const request = await orTimeout(control.waitForRequest(matcher, { timeoutMs, since }));
    return ok({ request });
  });
  post('/__pck/deliveries/wait', async (body, route) => {
    const fields = (['paymentUuid', 'state', 'url', 'clientId'] as const)
      .map((k) => [k, optionalString(body, k, route)] as const)
      .filter(([, v]) => v !== undefined);
    const timeoutMs = optionalTimeout(body, route);
    const delivery = await orTimeout(
      control.waitForDelivery((d) => fields.every(([k, v]) => d[k] === v), { timeoutMs }),
    );
    return ok({ delivery });
  });
  post('/__pck/deliveries/redeliver', async (body, route) => {
    await control.redeliver(requiredString(body, 'id', route));
    return ok({ ok: true });
  });
  post('/__pck/tokens', async (body, route) => {
    const clientId = requiredString(body, 'clientId', route);
    return ok({ status: 'SUCCESS', data: control.issueToken(clientId) });
  });
  post('/__pck/card-accounts', async (body, route) => {
    const clientId = requiredString(body, 'clientId', route);
    const card = body.card;
    if (!isPlainObject(card))
      throw badRequest(`${route}: "card" must be { "card_number", "expiry_month", "expiry_year" }.`);
    const uid = control.registerCardAccount(clientId, {
      card_number: requiredString(card, 'card_number', `${route} card`),
      expiry_month: requiredString(card, 'expiry_month', `${route} card`),
      expiry_year: requiredString(card, 'expiry_year', `${route} card`),
    });
    return ok({ card_account_uid: uid });
  });
  post('/__pck/fail-next', async (body, route) => {
    const status = optionalNumber(body, 'status', route);
    if (status === undefined) throw badRequest(`${route}: "status" is required.`);
    const message = optionalString(body, 'message', route);
    const times = optionalNumber(body, 'times', route);
    control.failNextRequest(requiredString(body, 'path', route), status, { message, times });
    return ok({ ok: true });
  });
  if (providerStates) registerPactRoutes(router, providerStates, limits);
}
