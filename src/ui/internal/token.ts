/**
 * How GraphiQL gets its `x-jwt-token`: generate-token with the configured test client, as an integration would.
 * When the mock refuses a second generate-token (`--strict-generate`), the control API issues one instead, and the
 * page says so.
 *
 * @module
 */
import { credentialHeaders } from '../../contract/service-names.ts';
import type { PageConfig } from '../page-config.ts';
import { controlFetch } from './control-auth.ts';

/** A token and where it came from. */
export interface PageToken {
  readonly token: string;
  readonly source: 'generate-token' | 'control API';
}

/** Gets a token for the page's client; throws with the mock's own message when neither way works. */
export async function fetchToken(config: PageConfig): Promise<PageToken> {
  // Behind a control token the page has no API key: the control API issues the token.
  const generated = config.controlTokenRequired
    ? undefined
    : await fetch(config.paths.generateToken, {
        method: 'POST',
        headers: credentialHeaders(config.clientId, config.apiKey),
      });
  const body = await generated?.json().catch(() => undefined);
  if (generated?.ok && typeof body?.data?.token === 'string')
    return { token: body.data.token, source: 'generate-token' };
  const issued = await controlFetch(config, `${config.paths.control}tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: config.clientId }),
  });
  const fallback = await issued.json().catch(() => undefined);
  if (issued.ok && typeof fallback?.data?.token === 'string')
    return { token: fallback.data.token, source: 'control API' };
  throw new Error(String(fallback?.message ?? body?.message ?? `the control API answered ${issued.status}`));
}
