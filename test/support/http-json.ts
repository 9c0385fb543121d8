/**
 * JSON over real HTTP for tests that send thousands of requests: node:http with one keep-alive agent, so a pool of N
 * requests in flight reuses about N sockets. Node's fetch costs about 2.5 times the CPU per request (measured on a
 * loaded 2-core machine), which is what made the many-request tests slow enough to time out under load.
 *
 * @module
 */
import http from 'node:http';

// Free keep-alive sockets do not hold the process open; a mock's close() ends the busy ones.
const agent = new http.Agent({ keepAlive: true });

/** POSTs a JSON body and resolves with the status and the answer text. */
export function postJsonText(
  url: URL | string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.end(body);
  });
}

/**
 * POSTs `body` as JSON (nothing when it is left out) and returns the status and the parsed answer (`undefined` for
 * an empty one), like the fetch-based `post` of `test/mock/helpers.ts`.
 */
export async function postJson(
  url: string,
  headers: Record<string, string> = {},
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the mock answered; each asserts its own shape.
): Promise<{ status: number; body: any }> {
  const { status, text } = await postJsonText(
    url,
    { accept: 'application/json', ...headers },
    body === undefined ? '' : JSON.stringify(body),
  );
  return { status, body: text ? JSON.parse(text) : undefined };
}
