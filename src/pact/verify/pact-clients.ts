/**
 * The clients a pact file names, so `verify`'s in-process mock can accept any team's pact: client ids from provider
 * state parameters (`clientId`), from requests' `x-client-id` headers (with the `x-api-key` sent beside them) and from
 * messages' `x-client-id` metadata (with the `x-webhook-signing-key` expected beside it).
 *
 * Only `verify` configures clients this way; a mock the user starts keeps the clients it was given.
 *
 * @module
 */
import { defaultCredentials, serviceHeaders } from '../../contract/service-names.ts';
import { DEFAULT_WEBHOOK_HEADER_NAMES } from '../../contract/webhook-headers.ts';
import type { MockClientConfig } from '../../mock/options.ts';

// The webhook header names are assumptions (ASSUMPTIONS.md); verify's mock runs with the defaults.
const webhookNames = DEFAULT_WEBHOOK_HEADER_NAMES;

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A header or metadata value by case-insensitive name; V4 pacts may write a header as a list of values. */
function field(map: unknown, name: string): string | undefined {
  for (const [key, value] of Object.entries(record(map))) {
    if (key.toLowerCase() !== name) continue;
    const first = Array.isArray(value) ? value[0] : value;
    return typeof first === 'string' && first !== '' ? first : undefined;
  }
  return undefined;
}

/**
 * The clients of one pact file (V2, V3 or V4), in the order the file first names them, each with the API key its
 * requests send (else the default test API key) and the signing key its messages expect (else the mock's default).
 * The default test client is added when the file does not name it, so the first client is the file's own: provider
 * states without a `clientId` use it.
 *
 * @example
 * const clients = pactClients(JSON.parse(await readFile(file, 'utf8')));
 * const mock = await startMockServer({ port: 0, clients });
 */
export function pactClients(pact: unknown): MockClientConfig[] {
  const found = new Map<string, { apiKey?: string; signingKey?: string }>();
  const note = (clientId: string | undefined, extra: { apiKey?: string; signingKey?: string }) => {
    if (clientId === undefined) return;
    const known = found.get(clientId) ?? {};
    found.set(clientId, { apiKey: known.apiKey ?? extra.apiKey, signingKey: known.signingKey ?? extra.signingKey });
  };
  const p = record(pact);
  const list = [
    ...(Array.isArray(p.interactions) ? p.interactions : []),
    ...(Array.isArray(p.messages) ? p.messages : []),
  ];
  for (const raw of list) {
    const i = record(raw);
    for (const s of Array.isArray(i.providerStates) ? i.providerStates : []) {
      const id = record(record(s).params).clientId;
      note(typeof id === 'string' && id !== '' ? id : undefined, {});
    }
    const headers = record(i.request).headers;
    note(field(headers, serviceHeaders.clientId), { apiKey: field(headers, serviceHeaders.apiKey) });
    // V3 messages write `metaData`, V4 messages `metadata`.
    const meta = i.metaData ?? i.metadata;
    note(field(meta, webhookNames.clientId), { signingKey: field(meta, webhookNames.signingKey) });
  }
  if (!found.has(defaultCredentials.clientId)) found.set(defaultCredentials.clientId, {});
  return [...found].map(([clientId, c]) => ({
    clientId,
    apiKey: c.apiKey ?? defaultCredentials.apiKey,
    ...(c.signingKey === undefined ? {} : { signingKey: c.signingKey }),
  }));
}
