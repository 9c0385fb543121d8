/**
 * The fuzz's check of one answer against the spec: never 5xx, a JSON body, errors in the route's shape (7.1 on REST
 * and control paths, 7.2 or 7.3 on /graphql) and successes in the shape of a result.
 *
 * @module
 */
import type { CaseKind } from './request-arbitraries.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function restError(body: unknown, injectedMessages: ReadonlySet<string>): string | undefined {
  if (!isObject(body) || body.status !== 'ERROR' || typeof body.message !== 'string')
    return 'error body is not 7.1 { status: "ERROR", message }';
  if (!body.message.startsWith('[payment-contract-kit]') && !injectedMessages.has(body.message))
    return 'error message lacks the [payment-contract-kit] prefix';
  return undefined;
}

function graphqlError(entry: unknown): string | undefined {
  if (!isObject(entry) || typeof entry.message !== 'string') return 'GraphQL error without a message string';
  const ext = entry.extensions;
  if (!isObject(ext)) return 'GraphQL error without extensions (7.2)';
  if (ext.category === 'validation') {
    if (!isObject(ext.validation)) return '7.3 error without a validation map';
    for (const [path, messages] of Object.entries(ext.validation))
      if (!Array.isArray(messages) || messages.some((m) => typeof m !== 'string'))
        return `7.3 validation["${path}"] is not an array of strings`;
    return undefined;
  }
  if (typeof ext.reason !== 'string' || ext.reason === '') return 'GraphQL error without extensions.reason (7.2)';
  return undefined;
}

/**
 * Why an answer breaks the spec, or `undefined` when it is fine. `method` matters for HEAD, whose answers have no
 * body. `injectedMessages` are messages the fuzz asked `POST /__pck/fail-next` to answer with: the mock echoes a
 * tester's message as it is, so those need not carry the kit's prefix.
 */
export function replyProblem(
  kind: CaseKind,
  method: string,
  status: number,
  contentType: string,
  text: string,
  injectedMessages: ReadonlySet<string> = new Set(),
): string | undefined {
  if (status >= 500) return `status ${status}`;
  if (status < 200) return `status ${status}`;
  if (method === 'HEAD') return undefined;
  // A page for a browser (GET `/` with Accept: text/html, when the pages are on) is HTML by design.
  if (method === 'GET' && status === 200 && contentType.startsWith('text/html')) return undefined;
  if (!contentType.startsWith('application/json')) return `content-type "${contentType}"`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'body is not JSON';
  }
  if (kind === 'graphql') {
    if (!isObject(body)) return 'GraphQL body is not an object';
    if (body.errors !== undefined) {
      if (!Array.isArray(body.errors) || body.errors.length === 0) return 'errors is not a non-empty array';
      for (const e of body.errors) {
        const problem = graphqlError(e);
        if (problem) return problem;
      }
      return undefined;
    }
    if (status >= 400) return `status ${status} without errors`;
    if (!isObject(body.data)) return 'GraphQL result without data';
    return undefined;
  }
  if (status >= 400) return restError(body, injectedMessages);
  if (!isObject(body)) return 'result is not a JSON object';
  return undefined;
}

/**
 * Whether a case is a browser asking for GraphiQL (GET /graphql, `Accept` naming text/html, no query string): the one
 * request the mock answers with HTML instead of JSON.
 */
export function isPageRequest(method: string, path: string, headers: Readonly<Record<string, string>>): boolean {
  return method === 'GET' && path === '/graphql' && (headers.accept ?? '').includes('text/html');
}

/** Why a page answer is wrong: it must be a 200 HTML page. */
export function pageProblem(status: number, contentType: string): string | undefined {
  if (status !== 200) return `page answered ${status}`;
  if (!contentType.startsWith('text/html')) return `page content-type "${contentType}"`;
  return undefined;
}
