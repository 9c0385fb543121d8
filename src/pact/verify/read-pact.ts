/**
 * Reads a pact file of any specification version, as pact-js and the other languages' Pact libraries write them,
 * into the kit's one model ({@link PactDocument}). What differs between versions is settled here and nowhere else:
 * V1/V2 `providerState` strings and V3/V4 `providerStates` with params; V2 query strings and V3/V4 query maps;
 * header values as strings or lists; V4 bodies as `{ content, contentType, encoded }`; V3 `messages` beside V4
 * `Asynchronous/Messages`; V2 and V3 matching rules (see matching-rules.ts).
 *
 * No JSON schema of pact files ships with a package in this tree (pact-js exposes builder types only), so this is a
 * small typed reader that names the field it could not read.
 *
 * @module
 */
import { kitMessage } from '../../internal/messages.ts';
import { isPlainObject } from '../../internal/plain-object.ts';
import { readMatchingRules } from './matching-rules.ts';
import type {
  MessageInteraction,
  NameValues,
  PactBody,
  PactDocument,
  PactInteraction,
  PactRequest,
  PactResponse,
  ProviderState,
} from './pact-model.ts';
import { scalarText } from './scalar-text.ts';

/** A pact file that cannot be read; the message names the file, the field and what was expected. */
export class PactFormatError extends Error {
  override readonly name = 'PactFormatError';
}

function fail(file: string, where: string, what: string): never {
  throw new PactFormatError(kitMessage(`${file}: ${where} ${what}; is this a Pact file (specification V1 to V4)?`));
}

function names(value: unknown): NameValues {
  if (!isPlainObject(value)) return {};
  const out: Record<string, string[]> = {};
  for (const [name, raw] of Object.entries(value)) {
    if (Array.isArray(raw)) out[name] = raw.map(scalarText);
    else if (raw !== undefined && raw !== null) out[name] = [scalarText(raw)];
  }
  return out;
}

/** V1/V2 write the query as a string (`amount=100&currency=AUD`); V3/V4 as a map of value lists. */
function readQuery(value: unknown): NameValues {
  if (typeof value !== 'string') return names(value);
  const out: Record<string, string[]> = {};
  for (const [name, v] of new URLSearchParams(value)) out[name] = [...(out[name] ?? []), v];
  return out;
}

function headerValue(headers: NameValues, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : headers[key]?.[0];
}

const isJsonType = (contentType: string | undefined) =>
  contentType === undefined || /^application\/(.+\+)?json\b/i.test(contentType);

/**
 * Reads a body. V4 wraps it as `{ content, contentType, encoded }`; older versions hold the JSON value itself, with
 * the content type in the headers.
 */
function readBody(raw: unknown, hasBody: boolean, headers: NameValues, v4: boolean): PactBody {
  if (!hasBody || raw === undefined) return { present: false };
  const headerType = headerValue(headers, 'content-type');
  if (v4 && isPlainObject(raw) && 'content' in raw) {
    const contentType = typeof raw.contentType === 'string' ? raw.contentType : headerType;
    let value: unknown = raw.content;
    if (raw.encoded === 'base64' || raw.encoded === true) {
      value = Buffer.from(scalarText(value), 'base64').toString('utf8');
    }
    // `encoded: "json"` (and decoded base64 JSON) hold the JSON as text.
    if (typeof value === 'string' && raw.encoded !== false && isJsonType(contentType)) {
      try {
        value = JSON.parse(value);
      } catch {
        // Left as text: the checks report a body that is not JSON.
      }
    }
    return { present: true, contentType, value };
  }
  return { present: true, contentType: headerType, value: raw };
}

function readStates(raw: Record<string, unknown>): ProviderState[] {
  if (Array.isArray(raw.providerStates)) {
    return raw.providerStates.filter(isPlainObject).map((state) => ({
      name: scalarText(state.name),
      params: isPlainObject(state.params) ? state.params : {},
    }));
  }
  const single = raw.providerState ?? raw.provider_state;
  return typeof single === 'string' && single !== '' ? [{ name: single, params: {} }] : [];
}

function readComments(raw: Record<string, unknown>): string[] {
  const comments = raw.comments;
  if (!isPlainObject(comments) || !Array.isArray(comments.text)) return [];
  return comments.text.map(scalarText);
}

function readRequest(raw: unknown, file: string, where: string, v4: boolean): PactRequest {
  if (!isPlainObject(raw)) fail(file, `${where}.request`, 'is missing or not an object');
  if (typeof raw.method !== 'string') fail(file, `${where}.request.method`, 'is missing');
  if (typeof raw.path !== 'string') fail(file, `${where}.request.path`, 'is missing');
  const headers = names(raw.headers);
  return {
    method: raw.method.toUpperCase(),
    path: raw.path,
    query: readQuery(raw.query),
    headers,
    body: readBody(raw.body, 'body' in raw, headers, v4),
    rules: readMatchingRules(raw.matchingRules),
  };
}

/** The response status, 200 when left out. Only a number or its text is read: Number() of a list joins it. */
function statusOf(status: unknown): number {
  if (status === undefined) return 200;
  return typeof status === 'number' || typeof status === 'string' ? Number(status) : Number.NaN;
}

function readResponse(raw: unknown, file: string, where: string, v4: boolean): PactResponse {
  if (!isPlainObject(raw)) fail(file, `${where}.response`, 'is missing or not an object');
  const status = statusOf(raw.status);
  if (!Number.isInteger(status)) fail(file, `${where}.response.status`, 'is not a whole number');
  const headers = names(raw.headers);
  return {
    status,
    headers,
    body: readBody(raw.body, 'body' in raw, headers, v4),
    rules: readMatchingRules(raw.matchingRules),
  };
}

function readMessage(
  raw: Record<string, unknown>,
  base: Omit<MessageInteraction, 'kind' | 'contents' | 'metadata' | 'rules'>,
  v4: boolean,
): MessageInteraction {
  // pact-jvm writes V3 message metadata as `metaData`.
  const metadataRaw = raw.metadata ?? raw.metaData;
  const metadata = isPlainObject(metadataRaw) ? metadataRaw : {};
  const contentType = typeof metadata.contentType === 'string' ? metadata.contentType : undefined;
  const headers: NameValues = contentType ? { 'content-type': [contentType] } : {};
  return {
    ...base,
    kind: 'message',
    contents: readBody(raw.contents, 'contents' in raw, headers, v4),
    metadata,
    rules: readMatchingRules(raw.matchingRules),
  };
}

function readInteraction(raw: unknown, file: string, where: string, v4: boolean, message: boolean): PactInteraction {
  if (!isPlainObject(raw)) fail(file, where, 'is not an object');
  if (typeof raw.description !== 'string') fail(file, `${where}.description`, 'is missing');
  const base = {
    description: raw.description,
    providerStates: readStates(raw),
    pending: raw.pending === true,
    comments: readComments(raw),
  };
  const type = typeof raw.type === 'string' ? raw.type : undefined;
  if (message || type === 'Asynchronous/Messages') return readMessage(raw, base, v4);
  if (type !== undefined && type !== 'Synchronous/HTTP') return { ...base, kind: 'other', type };
  return {
    ...base,
    kind: 'http',
    request: readRequest(raw.request, file, where, v4),
    response: readResponse(raw.response, file, where, v4),
  };
}

function specificationOf(metadata: unknown): string {
  if (!isPlainObject(metadata)) return 'unknown';
  const spec = metadata.pactSpecification ?? metadata['pact-specification'] ?? metadata.pactSpecificationVersion;
  if (typeof spec === 'string') return spec;
  if (isPlainObject(spec) && typeof spec.version === 'string') return spec.version;
  return 'unknown';
}

/**
 * Reads a parsed pact file. Throws {@link PactFormatError} naming the field when it is not a pact.
 *
 * @example
 * const pact = readPact(JSON.parse(readFileSync(file, 'utf8')), file);
 * pact.interactions.filter((i) => i.kind === 'http').length;
 */
export function readPact(json: unknown, file: string): PactDocument {
  if (!isPlainObject(json)) fail(file, 'the file', 'is not a JSON object');
  const consumer = isPlainObject(json.consumer) ? json.consumer.name : undefined;
  const provider = isPlainObject(json.provider) ? json.provider.name : undefined;
  if (typeof consumer !== 'string') fail(file, 'consumer.name', 'is missing');
  if (typeof provider !== 'string') fail(file, 'provider.name', 'is missing');
  const specification = specificationOf(json.metadata);
  const v4 = specification.startsWith('4');
  const interactions: PactInteraction[] = [];
  if (json.interactions !== undefined && !Array.isArray(json.interactions)) fail(file, 'interactions', 'is not a list');
  if (json.messages !== undefined && !Array.isArray(json.messages)) fail(file, 'messages', 'is not a list');
  (json.interactions as unknown[] | undefined)?.forEach((raw, i) => {
    interactions.push(readInteraction(raw, file, `interactions[${i}]`, v4, false));
  });
  (json.messages as unknown[] | undefined)?.forEach((raw, i) => {
    interactions.push(readInteraction(raw, file, `messages[${i}]`, v4, true));
  });
  return { file, consumer, provider, specification, interactions };
}
