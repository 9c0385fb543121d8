/**
 * Registers the landing page in the pages route group: GET `/` for requests that accept HTML. JSON clients keep the
 * 404 of an unknown path, unchanged.
 *
 * @module
 */
import { join } from 'node:path';
import { packageRoot } from '../../../internal/package-files.ts';
import { hostName } from '../http/guards.ts';
import type { PageRoutes } from '../http/pages.ts';
import type { MockClientConfig, MockGuide } from '../option-types.ts';
import { renderLanding } from './landing.ts';

/** What the landing page shows. */
export interface LandingPageDeps {
  readonly guide: MockGuide;
  readonly clients: readonly MockClientConfig[];
}

/** Adds GET `/` (HTML only) to `pages`. */
export function registerLandingPage(pages: PageRoutes, deps: LandingPageDeps): void {
  const root = packageRoot();
  const readmePath = root === undefined ? undefined : join(root, 'README.md');
  const clients = deps.clients.map(({ clientId, apiKey }) => ({ clientId, apiKey }));
  pages.add(
    '/',
    (request) => {
      const host = request.headers.host;
      // Only a well-formed Host becomes the base URL; the page escapes it anyway.
      const baseUrl = typeof host === 'string' && hostName(host) !== undefined ? `http://${host}` : undefined;
      const html = renderLanding({ baseUrl, guide: deps.guide, clients, readmePath });
      return { status: 200, text: html, headers: { 'content-type': 'text/html; charset=utf-8' } };
    },
    { htmlOnly: true },
  );
}
