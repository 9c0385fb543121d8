/**
 * The control token in the pages: when the mock was started with `--control-token`, every call to `/__pck/` needs
 * `Authorization: Bearer <token>`. The page asks for the token once, keeps it in this tab's sessionStorage (gone when
 * the tab closes, never sent anywhere but the mock's own origin) and asks again when the mock answers 401.
 *
 * @module
 */
import type { PageConfig } from '../page-config.ts';

const storageKey = 'pck:control-token';

function stored(): string | undefined {
  try {
    return sessionStorage.getItem(storageKey) ?? undefined;
  } catch {
    // Storage disabled (a sandboxed frame): ask every time instead.
    return undefined;
  }
}

function ask(again: boolean): string | undefined {
  const question = again
    ? 'The mock refused that control token. Enter the control token it was started with (--control-token / PCK_CONTROL_TOKEN):'
    : 'This mock needs its control token (--control-token / PCK_CONTROL_TOKEN) for the control API. Enter it:';
  const answer = window.prompt(question)?.trim();
  if (!answer) return undefined;
  try {
    sessionStorage.setItem(storageKey, answer);
  } catch {
    // Kept for this call only.
  }
  return answer;
}

/** The token to send: the tab's, or asked for now; undefined when the mock needs none or nobody answered. */
function currentToken(config: PageConfig): string | undefined {
  if (!config.controlTokenRequired) return undefined;
  return stored() ?? ask(false);
}

/** The token to try after `rejected` got a 401: one another call already asked for, or a new answer. */
function replacementFor(rejected: string | undefined): string | undefined {
  const now = stored();
  if (now !== undefined && now !== rejected) return now;
  try {
    sessionStorage.removeItem(storageKey);
  } catch {
    // Nothing stored.
  }
  return ask(true);
}

const headersFor = (token: string | undefined): Record<string, string> =>
  token === undefined ? {} : { authorization: `Bearer ${token}` };

/** The headers that authorize a control call: none when the mock needs no token. */
export function controlAuthHeaders(config: PageConfig): Record<string, string> {
  return headersFor(currentToken(config));
}

/**
 * `fetch` for a control path: with the token when one is needed, and after a 401 (a wrong or stale token) once more
 * with a better one before giving the answer back. Calls in flight together ask only once.
 */
export async function controlFetch(config: PageConfig, url: string, init: RequestInit = {}): Promise<Response> {
  const send = (token: string | undefined) =>
    fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), ...headersFor(token) } });
  const token = currentToken(config);
  const res = await send(token);
  if (res.status !== 401 || !config.controlTokenRequired) return res;
  return send(replacementFor(token));
}
