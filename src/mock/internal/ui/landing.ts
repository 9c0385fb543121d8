/**
 * The landing page at GET `/` for browsers: where the mock is, which credentials it accepts, and links to its pages,
 * its published sources and the first docs pages. A small template; every value is escaped, since the base URL
 * comes from the request's `Host` header and client ids from the user's configuration.
 *
 * @module
 */
import { controlPrefix, serviceHeaders, servicePaths } from '../../../spec-names.ts';
import { escapeHtml } from './html.ts';

/** What the page shows. */
export interface LandingInfo {
  /** Base URL as the browser reached the mock (from `Host`), or undefined when unknown (in-process). */
  readonly baseUrl: string | undefined;
  readonly guide: 'current' | 'legacy' | 'both';
  /** Configured clients: id and API key (test credentials of a mock, meant to be copied). */
  readonly clients: readonly { readonly clientId: string; readonly apiKey: string }[];
  /** Where the package's README is on this machine, when found. */
  readonly readmePath: string | undefined;
}

export { escapeHtml };

/** The docs pages a newcomer looks for first, relative to the package root (the README links every page). */
export const landingDocPages: readonly [string, string][] = [
  ['Your first day', 'docs/first-day.md'],
  ['The mock from the CLI', 'docs/mock-cli.md'],
  ['What the mock does, its control API', 'docs/mock-behaviour.md'],
  ['Webhooks', 'docs/webhooks.md'],
  ['Browser pages', 'docs/browser-pages.md'],
];

/** The mock's pages, linked from the landing page; registered by their own modules when the pages are on. */
export const pageLinks: readonly [string, string, string][] = [
  [servicePaths.graphql, 'GraphiQL', 'run queries and mutations against this mock'],
  [`${controlPrefix}reference`, 'API reference', 'the REST token endpoints (openapi.yaml)'],
  [`${controlPrefix}ui`, 'Dashboard', 'payments, webhook deliveries and requests, live'],
];

/**
 * Renders the page.
 *
 * @example
 * renderLanding({ baseUrl: 'http://127.0.0.1:4010', guide: 'current', clients, readmePath: undefined })
 */
export function renderLanding(info: LandingInfo): string {
  const e = escapeHtml;
  const base = info.baseUrl ?? '';
  const shown = info.baseUrl ?? '(this page was served in-process; use the URL you fetched it from)';
  const client = info.clients[0];
  const curl =
    client === undefined
      ? ''
      : `curl -s -X POST ${base || 'http://127.0.0.1:4010'}${servicePaths.generateToken} -H '${serviceHeaders.clientId}: ${client.clientId}' -H '${serviceHeaders.apiKey}: ${client.apiKey}'`;
  const clientRows = info.clients
    .map((c) => `<tr><td><code>${e(c.clientId)}</code></td><td><code>${e(c.apiKey)}</code></td></tr>`)
    .join('');
  const pages = pageLinks
    .map(([path, name, what]) => `<li><a href="${e(base + path)}">${e(name)}</a>: ${e(what)}</li>`)
    .join('');
  const guideQuery = info.guide === 'both' ? '?guide=current' : '';
  const readme = landingDocPages.map(([title, path]) => `<li>${e(title)} <small>(${e(path)})</small></li>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>payment-contract-kit mock</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}code,pre{font:14px ui-monospace,monospace;background:#f3f4f6;border-radius:4px}pre{padding:.75rem;overflow-x:auto}code{padding:0 .2rem}table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left}</style>
</head>
<body>
<h1>payment-contract-kit mock</h1>
<p>Base URL: <code id="base-url">${e(shown)}</code> &middot; guide: <code>${e(info.guide)}</code></p>
<h2>Pages</h2>
<ul>${pages}</ul>
<h2>Credentials</h2>
<p>Send these as <code>${e(serviceHeaders.clientId)}</code> and <code>${e(serviceHeaders.apiKey)}</code> to the token endpoints, then the access token as <code>${e(serviceHeaders.jwt)}</code> to <code>${e(servicePaths.graphql)}</code>.</p>
<table><thead><tr><th>${e(serviceHeaders.clientId)}</th><th>${e(serviceHeaders.apiKey)}</th></tr></thead><tbody>${clientRows}</tbody></table>
<pre>${e(curl)}</pre>
<h2>Published sources</h2>
<ul>
<li><a href="${e(`${base}${controlPrefix}schema.graphql${guideQuery}`)}">schema.graphql</a> (the served guide's SDL${info.guide === 'both' ? '; <code>?guide=legacy</code> for the legacy guide' : ''})</li>
<li><a href="${e(`${base}${controlPrefix}openapi.yaml`)}">openapi.yaml</a></li>
<li><a href="${e(`${base}${controlPrefix}health`)}">${e(`${controlPrefix}health`)}</a> and the rest of the control API</li>
</ul>
<h2>Docs</h2>
<p>${info.readmePath === undefined ? 'The package README' : `<code>${e(info.readmePath)}</code>`} links one page per task; to start with:</p>
<ul>${readme}</ul>
</body>
</html>
`;
}
