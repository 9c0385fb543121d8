/**
 * The control routes for Pact verifiers, in Pact's conventions, so a verifier in any language needs nothing but the
 * mock's URL:
 *
 * | Method | Path | Body / query | Answer |
 * |---|---|---|---|
 * | POST | /__pck/provider-states | `{ state, params, action }`, `{ state, states, params }` or `?state=&action=&<param>=` | the state's values for `fromProviderState`; `{}` for no state and for teardown; 400 for an unknown state (lists the known ones) |
 * | POST | /__pck/messages | `{ description, providerStates: [{ name, params }] }` | the webhook payload as the body, its metadata in `Pact-Message-Metadata` (base64 JSON) |
 *
 * The body form is what pact-js's Verifier and the Rust `pact-verifier --state-change-url` send; the form with
 * `states` is the older Ruby verifier's; `pact-verifier --state-change-as-query` sends the state, the action and
 * each parameter as query parameters (numbers and objects as JSON text).
 *
 * @module
 */
import { isPlainObject } from '../../../internal/plain-object.ts';
import { base64OfBytes, utf8Bytes } from '../../../internal/text-bytes.ts';
import { pactControlPaths } from '../../../spec-names.ts';
import { type BodyLimits, jsonObject, type MockRequest, type Outcome, type RouteEntry } from '../http/exchange.ts';
import type { Router } from '../http/routes.ts';
import { badRequest } from '../http-error.ts';
import type { ProviderStateCall, ProviderStateService } from './setup.ts';

/** Routes of this module, for the control API's list. */
export const pactRoutes = [
  ['POST', pactControlPaths.providerStates],
  ['POST', pactControlPaths.messages],
] as const;

/** Header Pact verifiers read a message's metadata from (base64 of a JSON object). */
export const messageMetadataHeader = 'Pact-Message-Metadata';

function paramsOf(value: unknown, route: string, key: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) throw badRequest(`${route}: "${key}" must be an object of parameters.`);
  return value;
}

/** A state change request in any of the three forms. */
interface StateChange {
  readonly action: 'setup' | 'teardown';
  readonly states: readonly ProviderStateCall[];
}

function stateChange(request: MockRequest, limits: BodyLimits): StateChange {
  const route = `POST ${pactControlPaths.providerStates}`;
  const body = jsonObject(request, limits, route);
  const query = new URLSearchParams(request.query);
  const fromQuery = Object.keys(body).length === 0 && query.has('state');
  const action = fromQuery ? (query.get('action') ?? 'setup') : (body.action ?? 'setup');
  if (action !== 'setup' && action !== 'teardown')
    throw badRequest(`${route}: "action" must be "setup" or "teardown", got ${JSON.stringify(action)}.`);
  if (fromQuery) {
    const params: Record<string, unknown> = {};
    for (const [k, v] of query) if (k !== 'state' && k !== 'action') params[k] = v;
    return { action, states: [{ name: query.get('state') ?? '', params }] };
  }
  const state = body.state ?? '';
  if (typeof state !== 'string') throw badRequest(`${route}: "state" must be a string.`);
  const params = paramsOf(body.params, route, 'params');
  if (body.states !== undefined) {
    if (!Array.isArray(body.states) || !body.states.every((s) => typeof s === 'string'))
      throw badRequest(`${route}: "states" must be a list of state names.`);
    const names = body.states.length > 0 ? (body.states as string[]) : [state];
    return { action, states: names.map((name) => ({ name, params })) };
  }
  return { action, states: [{ name: state, params }] };
}

function messageStates(value: unknown, route: string): ProviderStateCall[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw badRequest(`${route}: "providerStates" must be a list of { name, params }.`);
  return value.map((s, i) => {
    if (!isPlainObject(s) || typeof s.name !== 'string')
      throw badRequest(`${route}: providerStates[${i}] must be { "name": string, "params"?: object }.`);
    return { name: s.name, params: paramsOf(s.params, route, `providerStates[${i}].params`) };
  });
}

/**
 * Adds the provider-state and message routes to `router`.
 *
 * @example
 * registerPactRoutes(router, createProviderStates(deps), defaultAssumptions.limits);
 * // pact-verifier --state-change-url http://127.0.0.1:4010/__pck/provider-states --transports message:4010/__pck/messages
 */
export function registerPactRoutes(router: Router<RouteEntry>, states: ProviderStateService, limits: BodyLimits): void {
  router.add('control', 'POST', pactControlPaths.providerStates, {
    async handle(request): Promise<Outcome> {
      const change = stateChange(request, limits);
      if (change.action === 'teardown') {
        states.teardown(change.states);
        return { status: 200, body: {} };
      }
      return { status: 200, body: await states.setup(change.states) };
    },
  });
  router.add('control', 'POST', pactControlPaths.messages, {
    async handle(request): Promise<Outcome> {
      const route = `POST ${pactControlPaths.messages}`;
      const body = jsonObject(request, limits, route);
      const description = body.description;
      if (typeof description !== 'string' || description === '')
        throw badRequest(`${route}: "description" (the message interaction's description) is required.`);
      const message = await states.message(description, messageStates(body.providerStates, route));
      const metadata = base64OfBytes(utf8Bytes(JSON.stringify(message.metadata)));
      return { status: 200, body: message.payload, headers: { [messageMetadataHeader]: metadata } };
    },
  });
}
