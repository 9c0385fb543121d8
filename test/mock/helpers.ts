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

/** A fetch function: the global one (over a socket) or a mock app's in-process `app.fetch`. */
type FetchLike = (request: Request) => Promise<Response>;

/** `post` and `get` sending through `send`, so the same test code runs over a socket or in process. */
export function requestsVia(send: FetchLike) {
  const answer = async (res: Response): Promise<JsonAnswer> => {
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
  return {
    /** POSTs JSON (or a raw string) and returns status, headers and parsed body. */
    post: async (url: string, headers: Record<string, string> = {}, body?: unknown): Promise<JsonAnswer> => {
      const init: RequestInit = {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      };
      return answer(await send(new Request(url, init)));
    },
    /** GETs JSON. */
    get: async (url: string): Promise<JsonAnswer> => answer(await send(new Request(url))),
  };
}

const overSocket = requestsVia((request) => fetch(request));

/** POSTs JSON (or a raw string) over a socket and returns status, headers and parsed body. */
export const post = overSocket.post;

/** GETs JSON over a socket. */
export const get = overSocket.get;

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
