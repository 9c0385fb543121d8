/**
 * What the model says each kind of answer must look like (spec 2.1, 2.2, 2.3, 2.7, 7.1, 7.2, 7.3 and the ledger),
 * as assertions that name the request and the answer when they fail.
 *
 * @module
 */
import { defaultAssumptions } from '../../src/assumptions.ts';
import type { WireResponse } from './deployment.ts';
import type { Refusals, TimeWindow } from './reference-model.ts';

/** A disagreement between a deployment and the model. */
export class ModelDisagreement extends Error {}

/** Fails the command with what was expected and the answer that came. */
export function disagree(what: string, response?: WireResponse): never {
  throw new ModelDisagreement(response ? `${what}; got HTTP ${response.status} ${response.text.slice(0, 600)}` : what);
}

export function expectThat(condition: boolean, what: string, response?: WireResponse): void {
  if (!condition) disagree(what, response);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Spec 2.1: a token pair whose `expiration` (ledger: Unix seconds) is ten minutes after the issue window. */
export function expectTokenPair(response: WireResponse, at: TimeWindow): { token: string; refresh: string } {
  const body = response.body;
  const data = isObject(body) ? body.data : undefined;
  expectThat(
    response.status === 200 && isObject(body) && body.status === 'SUCCESS' && isObject(data),
    'a token pair (spec 2.1)',
    response,
  );
  const pair = data as Record<string, unknown>;
  const ttl = defaultAssumptions.tokenTtlSeconds;
  const exp = pair.expiration;
  expectThat(
    typeof pair.token === 'string' && typeof pair.refresh_token === 'string' && Number.isInteger(exp),
    'token, refresh_token strings and an integer expiration',
    response,
  );
  expectThat(
    (exp as number) >= Math.floor(at.lo / 1000) + ttl && (exp as number) <= Math.floor(at.hi / 1000) + ttl,
    `expiration ${ttl} s after the issue, in seconds (ledger expirationUnit)`,
    response,
  );
  return { token: pair.token as string, refresh: pair.refresh_token as string };
}

/** Spec 7.1: `{ status: "ERROR", message }` with the status given. */
export function expectRestError(response: WireResponse, status: number): void {
  const body = response.body;
  expectThat(
    response.status === status && isObject(body) && body.status === 'ERROR' && typeof body.message === 'string',
    `HTTP ${status} with { status: "ERROR", message } (spec 7.1)`,
    response,
  );
}

/** The first error's `extensions`, or undefined when the answer has no errors. */
function firstErrorExtensions(response: WireResponse): Record<string, unknown> | undefined {
  const body = response.body;
  if (!isObject(body) || !Array.isArray(body.errors)) return undefined;
  const first = body.errors[0];
  return isObject(first) && isObject(first.extensions) ? first.extensions : {};
}

const tokenReasons = new Set(
  (['missingToken', 'invalidToken', 'expiredToken', 'revokedToken', 'clientMismatch'] as const).map(
    (k) => defaultAssumptions.reasonCodes[k],
  ),
);

/**
 * Whether a GraphQL call was refused for its token, checked against the refusals the model allows: one of `must`
 * when there is any, and otherwise an answer or one of `may`. Spec 7.2 shape, ledger `graphqlErrorHttpStatus`.
 */
export function refusedForToken(response: WireResponse, refusals: Refusals): boolean {
  const extensions = firstErrorExtensions(response);
  const reason = extensions?.reason;
  const refused = typeof reason === 'string' && tokenReasons.has(reason);
  const allowed = [...refusals.must, ...refusals.may];
  if (refusals.must.length > 0)
    expectThat(
      refused && allowed.includes(reason as string),
      `a refusal with reason ${allowed.join(' or ')}`,
      response,
    );
  else if (refused)
    expectThat(allowed.includes(reason as string), `no token refusal (or ${allowed.join(' or ')})`, response);
  if (refused)
    expectThat(
      response.status === defaultAssumptions.graphqlErrorHttpStatus &&
        typeof (response.body as { errors: { message?: unknown }[] }).errors[0]?.message === 'string',
      'a 7.2 error with the ledger status',
      response,
    );
  return refused;
}

/** Spec 7.3: one validation entry whose keys are exactly `keys` (or, for each alternative, one of them). */
export function expectValidation(response: WireResponse, keys: readonly (readonly string[])[]): void {
  const extensions = firstErrorExtensions(response);
  expectThat(
    response.status === defaultAssumptions.graphqlErrorHttpStatus &&
      extensions?.category === 'validation' &&
      isObject(extensions.validation),
    'a 7.3 validation error',
    response,
  );
  const got = Object.keys(extensions?.validation as object).sort();
  expectThat(
    got.length === keys.length && keys.every((alternatives) => alternatives.some((k) => got.includes(k))),
    `validation keys ${keys.map((k) => k.join('|')).join(', ')}`,
    response,
  );
}

/** A 7.2 or 7.3 error whose reason is `reason` (the guide mismatch carries one beside the 7.3 keys). */
export function expectReason(response: WireResponse, reason: string): void {
  expectThat(firstErrorExtensions(response)?.reason === reason, `an error with reason ${reason}`, response);
}

/** `data.<field>` of a GraphQL answer with data and no errors. */
export function expectData(response: WireResponse, field: string): unknown {
  const body = response.body;
  expectThat(
    response.status === 200 && isObject(body) && body.errors === undefined && isObject(body.data),
    `data.${field}`,
    response,
  );
  return (body as { data: Record<string, unknown> }).data[field];
}

/** Numbers equal to the cent. */
export function sameMoney(a: unknown, b: number): boolean {
  return typeof a === 'number' && Math.abs(a - b) < 0.005;
}
