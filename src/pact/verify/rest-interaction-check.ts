/**
 * The static check of one REST interaction against openapi.yaml: the path and method exist, the request carries
 * the documented headers under their exact names, the body fits the request schema, the expected status is
 * documented for the operation, and the expected body fits that status's schema.
 *
 * @module
 */
import { checkJsonSchema } from './json-schema-check.ts';
import type { Mismatch } from './mismatch.ts';
import type { OpenApiDocument, OpenApiOperation } from './openapi-document.ts';
import type { HttpInteraction, NameValues } from './pact-model.ts';

/** Headers every HTTP client may send that an API description does not list. */
const generalHeaders = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'content-type',
  'content-length',
  'user-agent',
  'host',
  'connection',
  'cache-control',
  'traceparent',
  'tracestate',
]);

/** The documented path a pact path matches (`{name}` segments match one segment). */
function findPath(document: OpenApiDocument, path: string): string | undefined {
  if (document.paths.has(path)) return path;
  for (const candidate of document.paths.keys()) {
    const pattern = new RegExp(
      `^${candidate.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`,
    );
    if (pattern.test(path)) return candidate;
  }
  return undefined;
}

/** The documented responses a status falls under: its own code, its class (`4XX`), or `default`. */
export function responseFor(operation: OpenApiOperation, status: number): string | undefined {
  const code = String(status);
  const range = `${code[0]}XX`;
  return [code, range, range.toLowerCase(), 'default'].find((key) => operation.responses.has(key));
}

function hasHeader(headers: NameValues, name: string): boolean {
  return Object.keys(headers).some((h) => h.toLowerCase() === name.toLowerCase());
}

/**
 * Checks the request headers: each required header is there, and no `x-` header is one openapi.yaml does not name
 * (a misspelt header is sent by the client and silently ignored by the service).
 */
export function checkHeaders(
  headers: NameValues,
  documented: OpenApiOperation['headers'],
  what: string,
  source: string,
  out: Mismatch[],
  area: 'request.header' | 'message.metadata' = 'request.header',
): void {
  const names = documented.map((h) => h.name);
  for (const header of documented)
    if (header.required && !hasHeader(headers, header.name))
      out.push({
        area,
        path: header.name,
        message: 'required header missing',
        expected: `${header.name} on ${what} (${source})`,
      });
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if (generalHeaders.has(lower) || names.some((n) => n.toLowerCase() === lower)) continue;
    if (lower.startsWith('x-'))
      out.push({
        area,
        path: name,
        message: `unknown header "${name}"`,
        expected: `one of ${names.join(', ') || 'no custom headers'} on ${what} (${source})`,
      });
  }
}

/**
 * Checks a REST interaction; empty when it agrees with openapi.yaml.
 *
 * @example
 * checkRestInteraction(interaction, loadOpenApi()); // [] for the kit's generate-token interaction
 */
export function checkRestInteraction(interaction: HttpInteraction, document: OpenApiDocument): Mismatch[] {
  const out: Mismatch[] = [];
  const { request, response } = interaction;
  const source = document.source;
  const path = findPath(document, request.path);
  if (path === undefined) {
    out.push({
      area: 'request.path',
      path: request.path,
      message: 'no such path',
      expected: `one of ${[...document.paths.keys(), '/graphql'].join(', ')} (${source}, schema.graphql)`,
    });
    return out;
  }
  const operation = document.paths.get(path)?.get(request.method);
  if (!operation) {
    out.push({
      area: 'request.method',
      path: request.method,
      message: `${request.method} is not documented for ${path}`,
      expected: `${[...(document.paths.get(path)?.keys() ?? [])].join(' or ')} (${source})`,
    });
    return out;
  }
  const what = `${operation.method} ${path}`;
  checkHeaders(request.headers, operation.headers, what, source, out);

  if (request.body.present) {
    if (!operation.requestBody?.schema)
      out.push({
        area: 'request.body',
        path: '$',
        message: 'a body the operation does not take',
        expected: `no body on ${what} (${source})`,
      });
    else
      checkJsonSchema(
        { resolve: document.resolve, rules: request.rules.body, area: 'request.body', source, out },
        request.body.value,
        operation.requestBody.schema,
        [],
      );
  } else if (operation.requestBody?.required) {
    out.push({
      area: 'request.body',
      path: '$',
      message: 'no body',
      expected: `the body ${what} requires (${source})`,
    });
  }

  const documented = [...operation.responses.keys()].join(', ');
  const key = responseFor(operation, response.status);
  if (key === undefined) {
    out.push({
      area: 'response.status',
      path: String(response.status),
      message: `status ${response.status} is not documented for ${what}`,
      expected: `one of ${documented} (${source})`,
    });
    return out;
  }
  for (const rule of response.rules.status ?? [])
    for (const matcher of rule.matchers)
      if (matcher.match === 'statusCode' && Array.isArray(matcher.status))
        for (const status of matcher.status)
          if (typeof status === 'number' && responseFor(operation, status) === undefined)
            out.push({
              area: 'response.status',
              path: String(status),
              message: `the statusCode matcher allows ${status}, which is not documented for ${what}`,
              expected: `one of ${documented} (${source})`,
            });
  const schema = operation.responses.get(key);
  if (response.body.present) {
    if (!schema)
      out.push({
        area: 'response.body',
        path: '$',
        message: 'a body the documented response does not have',
        expected: `no body for ${key} on ${what} (${source})`,
      });
    else
      checkJsonSchema(
        { resolve: document.resolve, rules: response.rules.body, area: 'response.body', source, out },
        response.body.value,
        schema,
        [],
      );
  }
  return out;
}
