// The consumer under test in the contract tests: a small client of the payment service, as a team would write it
// (pact-js examples: consumer.ts). It builds GraphQL requests from the kit's typed documents, the same way the
// contracts do, and reports status and JSON body so each test can assert what its code would rely on.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import type { ErrorResponse, TokenPairResponse } from '../../../src/index.ts';
import { operationOf } from '../../../src/pact/graphql-request.ts';
import { tokenPaths } from '../../../src/pact/names.ts';

/** A GraphQL answer: data, errors, or both. */
export interface GraphqlAnswer<TData> {
  data?: TData | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

/** An HTTP answer with its parsed JSON body (undefined when there is none). */
export interface Answer<TBody> {
  status: number;
  body: TBody;
}

export interface Credentials {
  clientId: string;
  apiKey: string;
}

async function send<TBody>(url: string, headers: Record<string, string>, body?: unknown): Promise<Answer<TBody>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as TBody };
}

/** A client bound to a base URL (the Pact mock server in consumer tests). */
export function createPaymentServiceClient(baseUrl: string) {
  const credentialHeaders = (c: Credentials) => ({ 'x-client-id': c.clientId, 'x-api-key': c.apiKey });
  return {
    generateToken: (c: Credentials) =>
      send<TokenPairResponse | ErrorResponse>(baseUrl + tokenPaths.generate, credentialHeaders(c)),
    refreshToken: (c: Credentials, refreshToken: string) =>
      send<TokenPairResponse | ErrorResponse>(baseUrl + tokenPaths.refresh, credentialHeaders(c), {
        refresh_token: refreshToken,
      }),
    revokeToken: (c: Credentials) => send<unknown>(baseUrl + tokenPaths.revoke, credentialHeaders(c)),
    /** Runs a typed document; `token` null sends no x-jwt-token. */
    graphql: <TResult, TVariables>(
      document: TypedDocumentNode<TResult, TVariables>,
      variables: TVariables,
      token: string | null,
    ) =>
      send<GraphqlAnswer<TResult>>(`${baseUrl}/graphql`, token === null ? {} : { 'x-jwt-token': token }, {
        query: print(document),
        variables,
        operationName: operationOf(document).name.value,
      }),
  };
}
