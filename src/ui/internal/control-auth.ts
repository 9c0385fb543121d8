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

/** The headers that authorize a control call: none when the mock needs no token. */
export function controlAuthHeaders(config: PageConfig, again = false): Record<string, string> {
  if (!config.controlTokenRequired) return {};
  if (again) {
    try {
      sessionStorage.removeItem(storageKey);
    } catch {
      // Nothing stored.
    }
  }
  const token = (again ? undefined : stored()) ?? ask(again);
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

/**
 * `fetch` for a control path: with the token when one is needed, asking once more after a 401 (a wrong or stale
 * token) before giving the answer back.
 */
export async function controlFetch(config: PageConfig, url: string, init: RequestInit = {}): Promise<Response> {
  const send = (again: boolean) =>
    fetch(url, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), ...controlAuthHeaders(config, again) },
    });
  const res = await send(false);
  if (res.status !== 401 || !config.controlTokenRequired) return res;
  return send(true);
}
