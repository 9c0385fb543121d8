/**
 * The browser pages' routes, registered in one call (`registerUiRoutes`): GraphiQL on GET /graphql when a browser
 * asks for HTML, the API reference at `/__pck/reference`, the dashboard at `/__pck/ui`, and their assets under
 * `/__pck/ui/assets/`. The pages call only the mock's own service paths and control API; nothing here changes what
 * JSON clients get.
 *
 * GET /graphql: a GET or HEAD whose `Accept` names text/html gets GraphiQL (the `pages` group's `htmlOnly` rule);
 * every other request reaches the API routes. `/__pck/openapi.yaml`, which the reference reads, is served by the
 * published-sources routes.
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import { kitMessage } from '../../../internal/messages.ts';
import { controlPrefix, servicePaths } from '../../../spec-names.ts';
import type { PageConfig } from '../../../ui/page-config.ts';
import type { ErrorMapper, Outcome } from '../http/exchange.ts';
import type { PageRoutes } from '../http/pages.ts';
import type { MockClientConfig, MockGuide } from '../option-types.ts';
import { type AssetName, type AssetStore, assetNames } from './assets.ts';
import { pageHtml } from './html.ts';

/** Where the pages are served. */
export const uiPaths = {
  graphiql: servicePaths.graphql,
  reference: `${controlPrefix}reference`,
  dashboard: `${controlPrefix}ui`,
  assets: `${controlPrefix}ui/assets/`,
  openapi: `${controlPrefix}openapi.yaml`,
} as const;

/** What the page routes need. */
export interface UiRouteDeps {
  readonly guide: MockGuide;
  readonly clients: readonly MockClientConfig[];
  readonly assumptions: Assumptions;
  readonly errors: ErrorMapper;
  readonly assets: AssetStore;
  /** The control API needs a token: the pages ask for it and use the control API for GraphiQL's token. */
  readonly controlTokenRequired?: boolean;
}

// The pages load only their own scripts and styles and call only the mock's origin; GraphiQL's editor and Swagger
// UI set inline styles, and both use data: URIs for icons.
const pageSecurity = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

/**
 * Adds the pages to the `pages` route group (which exists only with the pages on).
 *
 * @example
 * registerUiRoutes(pages, { guide: opts.guide, clients: opts.clients, assumptions, errors, assets: createAssetStore() });
 */
export function registerUiRoutes(pages: PageRoutes, deps: UiRouteDeps): void {
  const { assets, errors } = deps;
  const client = deps.clients[0];
  const config: PageConfig = {
    guide: deps.guide,
    clientId: client?.clientId ?? '',
    apiKey: deps.controlTokenRequired ? '' : (client?.apiKey ?? ''),
    controlTokenRequired: deps.controlTokenRequired ?? false,
    graphqlRequiresClientHeaders: deps.assumptions.graphqlRequiresClientHeaders,
    paths: {
      generateToken: servicePaths.generateToken,
      graphql: servicePaths.graphql,
      openapi: uiPaths.openapi,
      control: controlPrefix,
    },
    pages: { graphiql: uiPaths.graphiql, reference: uiPaths.reference, dashboard: uiPaths.dashboard },
  };

  /** A page built from its assets, or 503 in the route's error shape when the assets are not built. */
  function page(kind: 'graphql' | 'control', title: string, bodyClass: string, mountId: string, names: AssetName[]) {
    const urls = names.map((n) => ({ name: n, url: assets.url(uiPaths.assets, n) }));
    const absent = urls.find((u) => u.url === undefined);
    if (absent) {
      const problem = assets.get(absent.name);
      return errors.layer(kind, 503, kitMessage(typeof problem === 'string' ? problem : 'The page is not built.'));
    }
    const html = pageHtml({
      title: `${title} · payment-contract-kit mock`,
      bodyClass,
      mountId,
      styles: urls.filter((u) => u.name.endsWith('.css')).map((u) => u.url!),
      scripts: urls.filter((u) => u.name.endsWith('.js')).map((u) => u.url!),
      config,
    });
    return {
      status: 200,
      text: html,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', ...pageSecurity },
    } satisfies Outcome;
  }

  const graphiqlPage = () =>
    page('graphql', 'GraphiQL', 'pck-page-graphiql', 'pck-graphiql', ['graphiql.css', 'graphiql.js']);
  const dashboardPage = () =>
    page('control', 'Dashboard', 'pck-page-dashboard', 'pck-main', ['dashboard.css', 'dashboard.js']);
  const referencePage = () =>
    page('control', 'API reference', 'pck-page-reference', 'pck-swagger', [
      'swagger-ui.css',
      'reference.css',
      'swagger-ui-bundle.js',
      'reference.js',
    ]);

  // Registered `htmlOnly` on /graphql: a browser navigating there gets GraphiQL, every API request goes on as before.
  pages.add(uiPaths.graphiql, graphiqlPage, { htmlOnly: true });
  pages.add(uiPaths.dashboard, dashboardPage);
  pages.add(uiPaths.reference, referencePage);
  pages.add(
    uiPaths.assets,
    (request) => {
      const name = request.path.slice(uiPaths.assets.length);
      const asset = (assetNames as readonly string[]).includes(name) ? assets.get(name as AssetName) : undefined;
      if (asset === undefined || typeof asset === 'string')
        return errors.layer('control', 404, kitMessage(asset ?? `No asset "${name}" under ${uiPaths.assets}.`));
      // The versioned URL the pages link to never changes content; any other is checked again on every use.
      const pinned = new URLSearchParams(request.query).get('v') === asset.version;
      return {
        status: 200,
        text: asset.contents,
        headers: {
          'content-type': asset.contentType,
          'cache-control': pinned ? 'public, max-age=31536000, immutable' : 'no-cache',
          'x-content-type-options': 'nosniff',
        },
      };
    },
    { prefix: true },
  );
}
