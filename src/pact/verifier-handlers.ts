/**
 * `stateHandlers` and `messageProviders` for pact-js's `Verifier`, pointed at a running mock. They hold no state logic
 * of their own: each call goes to the mock's `POST /__pck/provider-states` and `POST /__pck/messages`, the routes a
 * verifier in another language uses, so every verifier sees the same states and the same messages.
 *
 * The mock is given by its base URL (a string or `URL`) or by anything with a `url` (the `MockServer` of
 * `startMockServer`): a URL works for a mock in this process, in a child process (the CLI mock) or in a container.
 *
 * @module
 */
import type { VerifierOptions } from '@pact-foundation/pact';
import { providerStates } from '../contract/provider-state-names.ts';
import { pactControlPaths } from '../contract/service-names.ts';
import { kitMessage } from '../internal/messages.ts';

/** A running mock: its base URL, or an object with one (such as a `MockServer`). */
export type MockTarget = string | URL | { readonly url: string };

/** `VerifierOptions['stateHandlers']` of the installed pact-js. */
export type VerifierStateHandlers = NonNullable<VerifierOptions['stateHandlers']>;
/** `VerifierOptions['messageProviders']` of the installed pact-js. */
export type VerifierMessageProviders = NonNullable<VerifierOptions['messageProviders']>;

/** The header the mock's message route puts a message's metadata in (base64 of a JSON object). */
const metadataHeader = 'pact-message-metadata';

function baseUrl(mock: MockTarget): string {
  const url = typeof mock === 'string' ? mock : mock instanceof URL ? mock.href : mock.url;
  if (typeof url !== 'string' || !/^https?:\/\//.test(url))
    throw new TypeError(kitMessage(`the mock must be given by its base URL (http://host:port), got ${String(url)}.`));
  return url.replace(/\/+$/, '');
}

async function post(url: string, body: unknown): Promise<Response> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.ok) return res;
  const text = await res.text();
  let message = text;
  try {
    message = String((JSON.parse(text) as { message?: unknown }).message ?? text);
  } catch {
    // Not the mock's JSON error: show the text as it came.
  }
  throw new Error(kitMessage(`POST ${url} answered ${res.status}: ${message}`));
}

/**
 * Provider state handlers for pact-js's `Verifier`: one per state of {@link providerStates}, plus `""` for
 * interactions without a state (the mock starts them from a clean state). Setup answers the values for
 * `fromProviderState` (token, refresh token, client id, API key, card account uid). Each setup starts from a clean
 * mock, so no teardown is needed. Spread the result to add states of your own.
 *
 * @example
 * const mock = await startMockServer({ port: 0, guide: 'both' });
 * await new Verifier({
 *   provider: providerName, providerBaseUrl: mock.url, pactUrls: ['pacts/checkout-card-payment-service.json'],
 *   stateHandlers: stateHandlers(mock), messageProviders: messageProviders(mock),
 * }).verifyProvider();
 */
export function stateHandlers(mock: MockTarget): VerifierStateHandlers {
  const url = `${baseUrl(mock)}${pactControlPaths.providerStates}`;
  const handlers: VerifierStateHandlers = {};
  for (const state of ['', ...Object.values(providerStates)]) {
    // The function form: pact-js types the `{ setup, teardown }` form out of VerifierOptions, and no teardown is
    // needed since every setup starts from a clean mock.
    handlers[state] = async (params?: unknown) => {
      const res = await post(url, { state, params: params ?? {}, action: 'setup' });
      return (await res.json()) as Record<string, string>;
    };
  }
  return handlers;
}

/**
 * Message providers for pact-js's `Verifier`: for ANY message description, the mock sets up the message's provider
 * states and answers the webhook it delivers for that payment (payload, with the signing key and client id headers
 * as metadata). The result answers every description, so it cannot be spread; wrap it to add providers of your own.
 *
 * @example
 * new Verifier({ provider: providerName, pactUrls, stateHandlers: stateHandlers(mock.url), messageProviders: messageProviders(mock.url) });
 */
export function messageProviders(mock: MockTarget): VerifierMessageProviders {
  const url = `${baseUrl(mock)}${pactControlPaths.messages}`;
  const provider: VerifierMessageProviders[string] = async (descriptor) => {
    const res = await post(url, {
      description: descriptor.description,
      providerStates: descriptor.providerStates ?? [],
    });
    const encoded = res.headers.get(metadataHeader);
    const metadata = encoded
      ? (JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as Record<string, string>)
      : {};
    return { __pactMessageMetadata: metadata, message: await res.json() };
  };
  // The Verifier looks a provider up by the interaction's description; every description gets the same one. Names
  // that generic code probes (then, toJSON, constructor, ...) stay undefined, so the object is not mistaken for a
  // promise or a class instance.
  const isDescription = (key: string | symbol): key is string =>
    typeof key === 'string' && key !== 'then' && key !== 'toJSON' && !(key in Object.prototype);
  return new Proxy({} as VerifierMessageProviders, {
    get: (_target, key) => (isDescription(key) ? provider : undefined),
    has: (_target, key) => isDescription(key),
  });
}
