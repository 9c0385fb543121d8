/**
 * A recording front for the dynamic half of `verify`: the Pact verifier talks to it, it forwards every request to
 * the in-process mock unchanged and keeps the mock's answers, so a failed interaction can say what the mock
 * answered (its error messages, masked) and not only the verifier's "missing keys: data".
 *
 * @module
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { maskText } from '../../contract/check/show-value.ts';
import { readRestError } from '../../contract/error-shapes.ts';
import { isPlainObject } from '../../internal/plain-object.ts';

/** One exchange the mock answered. */
export interface RecordedAnswer {
  readonly method: string;
  /** Path without the query. */
  readonly path: string;
  /** The request body as sent (text), undefined when none. */
  readonly requestBody: string | undefined;
  readonly status: number;
  /** The answer's body as text. */
  readonly body: string;
}

/** A running front. */
export interface AnswerRecorder {
  /** Base URL to give the verifier. */
  readonly url: string;
  /** Answers so far, in arrival order. */
  readonly answers: RecordedAnswer[];
  close(): Promise<void>;
}

// Hop-by-hop and length headers: node and fetch set their own.
const dropped = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade']);

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Starts a front on a free local port that forwards to `target` and records the answers.
 *
 * @example
 * const front = await startAnswerRecorder(mock.url);
 * // verifier: providerBaseUrl: front.url
 */
export async function startAnswerRecorder(target: string): Promise<AnswerRecorder> {
  const answers: RecordedAnswer[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (!dropped.has(name) && value !== undefined)
          headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      const method = req.method ?? 'GET';
      const answer = await fetch(`${target}${req.url ?? '/'}`, {
        method,
        headers,
        ...(body.length > 0 && method !== 'GET' && method !== 'HEAD' ? { body: new Uint8Array(body) } : {}),
      });
      const text = await answer.text();
      answers.push({
        method,
        path: new URL(req.url ?? '/', target).pathname,
        requestBody: body.length > 0 ? body.toString('utf8') : undefined,
        status: answer.status,
        body: text,
      });
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!dropped.has(name) && name !== 'content-encoding') out[name] = value;
      });
      res.writeHead(answer.status, { ...out, 'content-length': Buffer.byteLength(text) });
      res.end(text);
    })().catch((error: unknown) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`verify's recording front could not reach the mock: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A JSON value with its object keys sorted, for comparing bodies whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isPlainObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}

function parsed(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Takes (and removes) the recorded answer to a pact interaction's request: the first with the same method, path
 * and body, else the first with the same method and path.
 *
 * @example
 * takeAnswer(front.answers, { method: 'POST', path: '/graphql', body: { query, variables } });
 */
export function takeAnswer(
  answers: RecordedAnswer[],
  request: { readonly method: string; readonly path: string; readonly body?: unknown },
): RecordedAnswer | undefined {
  const same = (a: RecordedAnswer) => a.method === request.method.toUpperCase() && a.path === request.path;
  const wanted = request.body === undefined ? undefined : canonical(request.body);
  let at = answers.findIndex((a) => same(a) && (wanted === undefined || canonical(parsed(a.requestBody)) === wanted));
  if (at < 0) at = answers.findIndex(same);
  return at < 0 ? undefined : answers.splice(at, 1)[0];
}

/**
 * One line for what the mock answered: its GraphQL error messages with reason codes and 7.3 paths, its 7.1 message,
 * or the start of the body; card numbers masked, tokens left out.
 *
 * @example
 * describeAnswer({ status: 200, body: '{"errors":[{"message":"Token expired.","extensions":{"reason":"TOKEN_EXPIRED"}}]}' });
 * // 'the mock answered 200 with errors: "Token expired." (TOKEN_EXPIRED)'
 */
export function describeAnswer(answer: Pick<RecordedAnswer, 'status' | 'body'>): string {
  const value = parsed(answer.body);
  const head = `the mock answered ${answer.status}`;
  if (isPlainObject(value) && Array.isArray(value.errors)) {
    const errors = value.errors.map((e) => {
      if (!isPlainObject(e)) return JSON.stringify(e);
      const ext = isPlainObject(e.extensions) ? e.extensions : {};
      const reason = typeof ext.reason === 'string' ? ` (${ext.reason})` : '';
      const paths = isPlainObject(ext.validation) ? ` at ${Object.keys(ext.validation).join(', ')}` : '';
      return `${JSON.stringify(e.message)}${reason}${paths}`;
    });
    return maskText(`${head} with errors: ${errors.join('; ')}`);
  }
  const restError = readRestError(value);
  if (restError) return maskText(`${head}: ${JSON.stringify(restError.message)}`);
  if (isPlainObject(value) && isPlainObject(value.data))
    return `${head} with data for ${Object.keys(value.data).join(', ')}`;
  const text = answer.body.replace(/\s+/g, ' ');
  return text === ''
    ? `${head} with no body`
    : maskText(`${head}: ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`);
}
