/**
 * A small client of one mock for the state store tests (issue 23): token calls, payments, and the control API, over
 * `app.fetch` (in process) or a base URL (a socket). Answers are `{ status, body }`; nothing throws on an error
 * status, so a test can assert a 503's shape.
 *
 * @module
 */
import { print } from 'graphql';
import { ProcessPaymentRequestDocument } from '../../src/index.ts';
import { defaultCredentials, serviceHeaders, servicePaths } from '../../src/spec-names.ts';
import { payInput } from '../mock/helpers.ts';

const payQuery = print(ProcessPaymentRequestDocument);

/** Status and parsed JSON body of an answer. */
// biome-ignore lint/suspicious/noExplicitAny: each test asserts the shape it expects.
export type Answer = { readonly status: number; readonly body: any };

/** A transport: `app.fetch` or the global fetch. */
export type Send = (request: Request) => Promise<Response>;

/** The client over `send`, addressing `base` (any origin for `app.fetch`). */
export function sandboxClient(send: Send, base = 'http://127.0.0.1') {
  const credentials = {
    [serviceHeaders.clientId]: defaultCredentials.clientId,
    [serviceHeaders.apiKey]: defaultCredentials.apiKey,
  };
  async function call(
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: unknown,
  ): Promise<Answer> {
    const res = await send(
      new Request(new URL(path, base), {
        method,
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }
  return {
    call,
    generate: () => call('POST', servicePaths.generateToken, credentials),
    refresh: (refreshToken: string) =>
      call('POST', servicePaths.refreshToken, credentials, { refresh_token: refreshToken }),
    revoke: (token?: string) =>
      call('POST', servicePaths.revokeToken, { ...credentials, ...(token ? { [serviceHeaders.jwt]: token } : {}) }),
    /** A payment with the fixture input (or `input`); see {@link paidUuid}. */
    pay: (token: string, input: unknown = payInput()) =>
      call('POST', servicePaths.graphql, { [serviceHeaders.jwt]: token }, { query: payQuery, variables: { input } }),
    /** POST to the control API (`/__pck/<path>`). */
    control: (path: string, body: unknown = {}) => call('POST', `/__pck/${path}`, {}, body),
    /** GET from the control API. */
    read: (path: string) => call('GET', `/__pck/${path}`),
  };
}

/** The uuid of a successful payment answer, or undefined. */
export function paidUuid(answer: Answer): string | undefined {
  return answer.status === 200 ? answer.body?.data?.processPaymentRequest?.uuid : undefined;
}
