/**
 * The API reference page (`/__pck/reference`): Swagger UI (its prebuilt bundle, loaded before this script) over the
 * mock's `openapi.yaml`, with "Try it out" pointed at the mock itself: the document's `base_url` server variable is
 * set to this page's origin.
 *
 * @module
 */
import './internal/pages.css';
import { controlAuthHeaders } from './internal/control-auth.ts';
import { el, replaceChildren } from './internal/dom.ts';
import { readPageConfig } from './internal/read-config.ts';

interface SwaggerUi {
  oas3Actions: { setServerVariableValue(args: { server: string; key: string; val: string }): void };
  specSelectors: { servers(): { toJS(): { url: string; variables?: Record<string, unknown> }[] } };
}
declare const SwaggerUIBundle: (options: Record<string, unknown>) => SwaggerUi;

const config = readPageConfig();
replaceChildren(document.getElementById('pck-bar')!, [
  el('strong', {}, 'payment-contract-kit mock: API reference'),
  el('span', {}, `Try it out calls ${location.origin}`),
  el(
    'nav',
    {},
    el('a', { href: config.pages.graphiql }, 'GraphiQL'),
    el('a', { href: config.pages.dashboard }, 'Dashboard'),
  ),
]);

const ui = SwaggerUIBundle({
  url: config.paths.openapi,
  dom_id: '#pck-swagger',
  deepLinking: true,
  tryItOutEnabled: true,
  // The public validator badge would call a remote service; the mock's pages never leave this origin.
  validatorUrl: null,
  // The document is served under /__pck/, which needs the control token when the mock has one.
  requestInterceptor: (request: { url: string; headers: Record<string, string> }) => {
    if (new URL(request.url, location.href).pathname.startsWith(config.paths.control))
      Object.assign(request.headers, controlAuthHeaders(config));
    return request;
  },
  onComplete: () => {
    for (const server of ui.specSelectors.servers().toJS())
      if (server.variables && 'base_url' in server.variables)
        ui.oas3Actions.setServerVariableValue({ server: server.url, key: 'base_url', val: location.origin });
  },
});
