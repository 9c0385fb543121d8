/**
 * Shared helpers of the mock's HTTP tests: request fixtures for both guides and small fetch wrappers.
 *
 * @module
 */
// The card is the contracts' fixture (the mock's documented visa test card), defined once for both test suites.
import { ClientError } from 'graphql-request';
import { expect } from 'vitest';
import { defaultCredentials, serviceHeaders, servicePaths } from '../../src/spec-names.ts';
import { card } from '../pact/support/fixtures.ts';

export { card };

export const tokenPaths = {
  generate: servicePaths.generateToken,
  refresh: servicePaths.refreshToken,
  revoke: servicePaths.revokeToken,
} as const;

export const credentials = {
  [serviceHeaders.clientId]: defaultCredentials.clientId,
  [serviceHeaders.apiKey]: defaultCredentials.apiKey,
} as const;

const { card_number, ...cardRest } = card;
export const legacyCard = { ...cardRest, number: card_number };
export const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
export const reference = { description: 'Order 1', reference_no: 'R-1' };
export const payInput = (cardNumber: string = card.card_number) => ({
  amount: 100,
  fees: 1.8,
  credit_card: { ...card, card_number: cardNumber },
  contact,
  payment_reference: reference,
  metadata: { order_id: 'o-1' },
});
export const legacyPayInput = () => ({
  amount: 100,
  fees: 1.8,
  credit_card: legacyCard,
  contact: { ...contact, ...reference },
});

/** Status, headers and parsed JSON body of an answer. */
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the mock answered; each asserts its own shape.
type JsonAnswer = { status: number; headers: Headers; body: any };

/** POSTs JSON (or a raw string) and returns status, headers and parsed body. */
export async function post(url: string, headers: Record<string, string> = {}, body?: unknown): Promise<JsonAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** GETs JSON. */
export async function get(url: string): Promise<JsonAnswer> {
  const res = await fetch(url);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** Decodes a JWT's payload without verifying it. */
export function jwtClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}

/** Awaits a graphql-request call that must fail with an HTTP-level GraphQL answer; returns that answer. */
export async function gqlError(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ClientError);
  return (error as ClientError).response;
}
