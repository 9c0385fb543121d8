/**
 * The mock's GraphiQL page (GET /graphql from a browser): the schema comes from introspecting the mock itself, the
 * kit's operations open as tabs with working variables, and `x-jwt-token` is filled with a token from
 * generate-token, and the open tab runs as the page opens when it is a query (the first tab, a fee list, on a first
 * visit). With `--guide both` a switch picks the guide; the mock tells guides apart by the names a request uses, so
 * in the legacy guide the page marks its introspection query with a skipped legacy selection.
 *
 * @module
 */
import '@graphiql/react/dist/style.css';
import 'graphiql/src/style.css';
import './internal/pages.css';
import { GraphiQLProvider, useEditorContext, useExecutionContext } from '@graphiql/react';
import { GraphiQLInterface } from 'graphiql';
import { Kind, parse } from 'graphql';
import { createElement, useEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { credentialHeaders, serviceHeaders } from '../contract/service-names.ts';
import { el, replaceChildren } from './internal/dom.ts';
import { examplesOf, type Guide, type OperationSource } from './internal/examples.ts';
import { readPageConfig } from './internal/read-config.ts';
import { fetchToken } from './internal/token.ts';

declare const __PCK_OPERATIONS__: Record<Guide, OperationSource[]>;

const config = readPageConfig();
const bar = document.getElementById('pck-bar')!;
const mount = document.getElementById('pck-graphiql')!;
const root = createRoot(mount);

/** The guide shown: the served one, or in `both` mode the one in the URL fragment (`#guide=legacy`). */
function currentGuide(): Guide {
  if (config.guide !== 'both') return config.guide;
  return new URLSearchParams(location.hash.slice(1)).get('guide') === 'legacy' ? 'legacy' : 'current';
}

// A legacy-only selection that never runs (@skip): it makes the mock answer the introspection in the legacy guide.
const legacyMarker = 'pckGuide: paymentGatewayFeesCalc(amount: 1) @skip(if: true) { total }\n    __schema {';

/**
 * The operation to run: the document's only operation when it has one. GraphiQL updates its operation name a moment
 * after an edit or a tab switch, so a quick Run could otherwise send the previous tab's name with this document.
 */
function operationNameOf(query: string, given: string | null | undefined): string | null | undefined {
  try {
    const operations = parse(query).definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    if (operations.length === 1 && operations[0]?.kind === Kind.OPERATION_DEFINITION)
      return operations[0].name?.value ?? null;
  } catch {
    // A document that does not parse goes as it is; the mock answers its syntax error.
  }
  return given;
}

function fetcherFor(guide: Guide) {
  return async (
    params: { query: string; operationName?: string | null },
    opts?: { headers?: Record<string, unknown> },
  ) => {
    const marked =
      config.guide === 'both' && guide === 'legacy' && params.operationName === 'IntrospectionQuery'
        ? { ...params, query: params.query.replace('__schema {', legacyMarker) }
        : { ...params, operationName: operationNameOf(params.query, params.operationName) };
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    for (const [k, v] of Object.entries(opts?.headers ?? {})) if (typeof v === 'string') headers[k] = v;
    const res = await fetch(config.paths.graphql, { method: 'POST', headers, body: JSON.stringify(marked) });
    return res.json();
  };
}

/** Keeps each guide's tabs apart in the browser's storage, so switching guides never mixes their documents. */
function storageFor(guide: Guide) {
  const prefix = `pck:${guide}:`;
  return {
    getItem: (key: string) => localStorage.getItem(prefix + key),
    setItem: (key: string, value: string) => localStorage.setItem(prefix + key, value),
    removeItem: (key: string) => localStorage.removeItem(prefix + key),
    clear: () => {
      for (const key of Object.keys(localStorage)) if (key.startsWith(prefix)) localStorage.removeItem(key);
    },
    get length() {
      return Object.keys(localStorage).filter((key) => key.startsWith(prefix)).length;
    },
  };
}

function headersJson(token: string): string {
  const headers: Record<string, string> = { [serviceHeaders.jwt]: token };
  if (config.graphqlRequiresClientHeaders) Object.assign(headers, credentialHeaders(config.clientId, config.apiKey));
  return JSON.stringify(headers, null, 2);
}

/**
 * GraphiQL 3 opens the first of `defaultTabs` with its query but an empty variables editor (its initial variables
 * come only from the `variables` prop or storage), so on a fresh profile the first Run failed with `Variable
 * "$amount" ... was not provided`. On a profile with no saved tabs the first tab's variables go in as the prop;
 * saved tabs keep what the user left in them.
 */
function firstTabVariables(
  storage: ReturnType<typeof storageFor>,
  variables: string | undefined,
): { variables?: string } {
  // GraphiQL namespaces its keys (`graphiql:tabState`) inside the storage it is given.
  return variables !== undefined && storage.getItem('graphiql:tabState') === null ? { variables } : {};
}

/** Whether `query` is a document whose operation is a query: only those run by themselves (never a payment). */
function isQueryDocument(query: string): boolean {
  try {
    const operations = parse(query).definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    return (
      operations.length === 1 &&
      operations[0]?.kind === Kind.OPERATION_DEFINITION &&
      operations[0].operation === 'query'
    );
  } catch {
    return false;
  }
}

/**
 * Runs the open tab once, as soon as GraphiQL's editors exist, so the page answers data without a click. GraphiQL
 * has no prop for it; its own Run button calls the execution context's `run()`, which reads the editors, so this
 * waits for all four (a run before the variables editor exists would send no variables). Mutations wait for a click.
 */
function RunOpenTab({ enabled }: { readonly enabled: boolean }): null {
  const execution = useExecutionContext({ nonNull: true });
  const { queryEditor, variableEditor, headerEditor, responseEditor } = useEditorContext({ nonNull: true });
  const ran = useRef(false);
  useEffect(() => {
    if (ran.current || !enabled || !queryEditor || !variableEditor || !headerEditor || !responseEditor) return;
    ran.current = true;
    if (isQueryDocument(queryEditor.getValue())) execution.run();
  }, [enabled, execution, queryEditor, variableEditor, headerEditor, responseEditor]);
  return null;
}

function renderBar(guide: Guide, status: string): void {
  const guideControl =
    config.guide === 'both'
      ? el(
          'label',
          {},
          'Guide ',
          el(
            'select',
            {
              id: 'pck-guide',
              onchange: (e) => {
                location.hash = `guide=${(e.target as HTMLSelectElement).value}`;
              },
            },
            el('option', { value: 'current', selected: guide === 'current' }, 'current'),
            el('option', { value: 'legacy', selected: guide === 'legacy' }, 'legacy'),
          ),
        )
      : el('span', {}, `Guide: ${guide}`);
  replaceChildren(bar, [
    el('strong', {}, 'payment-contract-kit mock'),
    guideControl,
    el('span', { id: 'pck-token-status' }, status),
    el('button', { type: 'button', onclick: () => void start() }, 'New token'),
    el(
      'nav',
      {},
      el('a', { href: config.pages.reference }, 'API reference'),
      el('a', { href: config.pages.dashboard }, 'Dashboard'),
    ),
  ]);
}

async function start(): Promise<void> {
  const guide = currentGuide();
  renderBar(guide, 'Getting a token…');
  let headers = '{}';
  try {
    const { token, source } = await fetchToken(config);
    headers = headersJson(token);
    renderBar(guide, `x-jwt-token for ${config.clientId} from ${source}`);
  } catch (error) {
    renderBar(guide, `No token: ${error instanceof Error ? error.message : String(error)}`);
  }
  const examples = examplesOf(guide, __PCK_OPERATIONS__[guide]);
  const storage = storageFor(guide);
  // GraphiQL's own component is this provider around this interface; they are used apart so that RunOpenTab sits
  // inside the provider, where the editors and the execution context are.
  root.render(
    createElement(
      GraphiQLProvider,
      {
        // A new key remounts GraphiQL, so a guide switch or a new token starts from a clean editor state.
        key: `${guide}:${headers}`,
        fetcher: fetcherFor(guide),
        storage,
        defaultTabs: examples.map((e) => ({ query: e.query, variables: e.variables, headers })),
        ...firstTabVariables(storage, examples[0]?.variables),
        defaultHeaders: headers,
        headers,
        shouldPersistHeaders: false,
      },
      createElement(GraphiQLInterface, {
        showPersistHeadersSettings: false,
        disableTabs: false,
        defaultEditorToolsVisibility: 'variables',
      }),
      // Without a token the run could only answer TOKEN_MISSING: the bar already says why there is none.
      createElement(RunOpenTab, { enabled: headers !== '{}' }),
    ),
  );
}

window.addEventListener('hashchange', () => void start());
void start();
