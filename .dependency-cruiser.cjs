/**
 * Architecture rules, checked in the test run (`npm run check:architecture`, over src/, test/, bench/ and scripts/): dependency-cruiser
 * reads the real imports, so a rule cannot drift from the code.
 */

/**
 * The mock's folders from the bottom up: a folder imports only its own layer's root modules and the layers below it.
 * The root modules of src/mock/internal (the HTTP error, the option types, ...) are the floor;
 * control, which drives every part, is the top. Moving a folder between layers is a design change: say why in
 * decisions/.
 */
const mockLayers = [
  ['history', 'platform', 'store'],
  ['domain'],
  ['graphql', 'webhooks'],
  ['handle', 'http'],
  ['provider-states', 'ui'],
  ['control'],
];

/**
 * The modules of domain/ the rules below tell apart: the token modules (who the caller is), the payment modules
 * (what a client did) and the pure rules (card and fee rules, the event vocabulary), which hold no state.
 */
const domainTokenModules = '(tokens|access-tokens|client-tokens|token-records|shared-token-ops|shared-tokens)';
const domainPaymentModules = '(payments|settlement|shared-payments)';
const domainRuleModules = '(cards|events|fees)';
/**
 * The base of domain/ that the model and every part above it build on: the virtual clock, the seeded random source,
 * the ordered lists and the waits. They import nothing else of the mock.
 */
const domainBaseModules = '(clock|random|ordered-lists|waiters)';

/** One rule per layer: no import from a folder of that layer into a folder of a layer above it. */
const mockUpwardRules = [
  {
    name: 'mock-root-modules-import-no-folder',
    comment:
      "The root modules of src/mock/internal are the floor every folder builds on: they import no folder of the mock's internals (move what they need down beside them).",
    severity: 'error',
    from: { path: '^src/mock/internal/[^/]+[.]ts$' },
    to: { path: '^src/mock/internal/[^/]+/' },
  },
  ...mockLayers.slice(0, -1).map((layer, i) => ({
    name: `mock-no-upward-import-from-${layer.join('-')}`,
    comment: `src/mock/internal/{${layer.join(',')}} may not import a folder of a layer above it (${mockLayers
      .slice(i + 1)
      .flat()
      .join(', ')}): move the shared piece down to where both can import it (the layers are listed in mockLayers).`,
    severity: 'error',
    from: { path: `^src/mock/internal/(${layer.join('|')})/` },
    to: {
      path: `^src/mock/internal/(${mockLayers
        .slice(i + 1)
        .flat()
        .join('|')})/`,
    },
  })),
];

/**
 * Imports that run back up inside src/mock. Two rules, so the arrows inside the mock all point down:
 *
 * - A module of src/mock/internal never imports a module of src/mock itself (options.ts, control-types.ts, the
 *   entries, the composition root): those import the internals, so each such import closes a loop between the entry
 *   layer and a part. What a part needs of them lives below: the option types in internal/option-types.ts, the
 *   control handle's types in internal/handle/.
 * - A subfolder never imports its parent folder (a graphql/<sub>/ from graphql/): the parent imports the
 *   subfolder, so the pair would import each other; what both need lives in the subfolder.
 */
const mockNoImportUpRules = [
  {
    name: 'mock-internals-import-no-mock-module',
    comment:
      'src/mock/internal imports no module of src/mock itself (options.ts, control-types.ts, the entries): they import the internals, so the pair would import each other. Take the type from internal/option-types.ts or internal/handle/, or move the shared piece down beside them.',
    severity: 'error',
    from: { path: '^src/mock/internal/' },
    to: { path: '^src/mock/[^/]+[.]ts$' },
  },
  {
    name: 'mock-subfolders-import-no-parent',
    comment:
      'A subfolder of a mock part (such as a graphql/<sub>/) imports nothing from the folder above it, which imports the subfolder: move what both need into the subfolder.',
    severity: 'error',
    from: { path: '^src/mock/internal/([^/]+)/[^/]+/' },
    to: { path: '^src/mock/internal/$1/[^/]+[.]ts$' },
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...mockUpwardRules,
    ...mockNoImportUpRules,
    {
      name: 'mock-no-folder-cycles',
      comment:
        'No two folders of the mock import each other, directly or round a loop: a folder cycle hides which part builds on which. Move the shared piece down (see mockLayers).',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/mock/' },
      to: { circular: true },
    },
    {
      name: 'no-cycles',
      comment: 'An import cycle hides which module owns what; split the shared part into its own module.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'mock-internal-stays-in-mock',
      comment: 'src/mock/internal is private to the mock; other entries use its public barrel or src/internal.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/mock/' },
      to: { path: '^src/mock/internal/' },
    },
    {
      name: 'tests-reach-mock-internals-through-support',
      comment:
        "Tests import the mock's internals only through test/support/mock-internals/ (one module per part), so a move inside src/mock/internal changes one of those lists instead of every test that used the module. Import the name from the part's support module (add it there if it is new).",
      severity: 'error',
      from: { path: '^test/', pathNot: '^test/support/mock-internals/' },
      to: { path: '^src/mock/internal/' },
    },
    {
      name: 'bench-and-scripts-stay-off-mock-internals',
      comment:
        "The benchmarks (bench/) and the build and release scripts (scripts/) use the kit's public entries, src/internal, and, for what only the mock holds (the platform's crypto), the same support modules as the tests (test/support/mock-internals/), so a move inside src/mock/internal never breaks them unseen.",
      severity: 'error',
      from: { path: '^(bench|scripts)/' },
      to: { path: '^src/mock/internal/' },
    },
    {
      name: 'msw-stays-in-its-entry',
      comment:
        'msw is an optional peer of payment-contract-kit/msw only: any other module loading it would break consumers without msw.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/msw/' },
      to: { path: '(^|/)node_modules/msw/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'light-root-entries',
      comment:
        'The root and legacy entries hold typed documents only: at run time they import the generated documents and nothing else.',
      severity: 'error',
      from: { path: '^src/(index|legacy)[.]ts$' },
      // @graphql-typed-document-node/core ships declarations only (dependency-cruiser cannot resolve it to code).
      to: { pathNot: '^(generated/|@graphql-typed-document-node/core$)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'contract-layer-stays-at-the-bottom',
      comment:
        'src/contract (the service vocabulary and the one checker) sits under every part: inside src/ it imports only itself, src/internal, the ledger (assumptions.ts) and the types; outside, the generated files and graphql. Never mock, client, pact, webhook, ui, cli, msw, proxy or the schema module (which builds on it).',
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { path: '^src/', pathNot: '^src/(contract|internal|types)/|^src/assumptions[.]ts$' },
    },
    {
      name: 'contract-layer-no-node-built-ins',
      comment:
        'src/contract runs in every entry, browser builds included: it may not import a Node built-in. (Packages are not checked here: the exclude option below drops node_modules targets before rules see them.)',
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'mock-never-imports-pact',
      comment:
        'The mock serves Pact verifiers but knows nothing of the Pact entry: the names both sides share (provider states, headers, error shapes) live in src/contract. `verify` (src/pact/verify) runs the mock, so the arrow goes from pact to mock only.',
      severity: 'error',
      from: { path: '^src/mock/' },
      to: { path: '^src/pact/' },
    },
    {
      name: 'mock-foundations-import-no-part',
      comment:
        'Inside the mock, the HTTP error (http-error.ts) and history/ (paged lists) are what every part builds on: they import no part folder (domain, control, http, graphql, webhooks, ...), so a part can be read without the others.',
      severity: 'error',
      from: { path: '^src/mock/internal/(history/|http-error[.]ts$)' },
      to: { path: '^src/mock/internal/[^/]+/', pathNot: '^src/mock/internal/$1' },
    },
    {
      name: 'mock-domain-base-imports-no-part',
      comment:
        'The base of src/mock/internal/domain (the virtual clock, the seeded random source, the ordered lists, the waits) is what the model and every part above it build on: it imports nothing else of the mock, so it can be read and reused alone.',
      severity: 'error',
      from: { path: `^src/mock/internal/domain/${domainBaseModules}[.]ts$` },
      to: { path: '^src/mock/internal/', pathNot: `^src/mock/internal/domain/${domainBaseModules}[.]ts$` },
    },
    {
      name: 'mock-domain-knows-no-transport',
      comment:
        'src/mock/internal/domain (card and fee rules, the event vocabulary, tokens and credentials, per-client payments and settlement, injected failures, the request journal) is the service model: it knows nothing of how a request arrived or who drives it (http, control, graphql, provider states, ui) nor of webhook delivery (settlement hands payloads to a callback). The routes call the model, not the other way.',
      severity: 'error',
      from: { path: '^src/mock/internal/domain/' },
      to: { path: '^src/mock/internal/(control|graphql|http|provider-states|ui|webhooks)/' },
    },
    {
      name: 'mock-domain-rules-hold-no-state',
      comment:
        'The pure rules of src/mock/internal/domain (card and fee rules, the event vocabulary) are what every part of the model builds on: they import one another, the base of domain/ (clock, random, ordered lists, waits), the stored shapes (store/stored.ts) and the root modules, never the state beside them (tokens, payments, failures, the journal) or any other part, so each can be read and reused alone.',
      severity: 'error',
      from: { path: `^src/mock/internal/domain/${domainRuleModules}[.]ts$` },
      to: {
        path: '^src/mock/internal/[^/]+/',
        pathNot: `^src/mock/internal/(domain/(${domainRuleModules}|${domainBaseModules})|store/stored)[.]ts$`,
      },
    },
    {
      name: 'mock-domain-tokens-stand-alone',
      comment:
        'The token modules of src/mock/internal/domain answer "who is this caller" for every route: they build on the platform (hashing), the records of the state store and the token state a shared store holds (decision 0040), the event vocabulary they tell their changes in, the base of domain/ (clock, random, ordered lists, waits), the stored shapes and the root modules, never on the payments beside them or any other part.',
      severity: 'error',
      from: { path: `^src/mock/internal/domain/${domainTokenModules}[.]ts$` },
      to: {
        path: '^src/mock/internal/[^/]+/',
        pathNot: `^src/mock/internal/(domain/(${domainTokenModules}|events|${domainBaseModules})|platform/[^/]+|store/(records|token-state|stored))[.]ts$`,
      },
    },
    {
      name: 'mock-domain-payments-know-no-tokens',
      comment:
        'The other modules of src/mock/internal/domain (payments, settlement, injected failures, the journal, the card and fee rules) hold what clients did, not who the caller is: the routes check the token and pass the client id in.',
      severity: 'error',
      from: { path: '^src/mock/internal/domain/', pathNot: `^src/mock/internal/domain/${domainTokenModules}[.]ts$` },
      to: { path: `^src/mock/internal/domain/${domainTokenModules}[.]ts$` },
    },
    {
      name: 'mock-graphql-knows-no-transport',
      comment:
        "src/mock/internal/graphql (engine, resolvers, validation) takes a parsed request and answers a GraphQL result: the HTTP exchange, tokens (of domain/ it reads only the base, the rules, the events and the payments; of store/ only the stored shapes), the control plane and webhooks are the routes' business, so the engine runs the same under node:http, app.fetch and msw.",
      severity: 'error',
      from: { path: '^src/mock/internal/graphql/' },
      to: {
        path: '^src/mock/internal/(control|domain|http|provider-states|store|ui|webhooks)/',
        pathNot: `^src/mock/internal/(domain/(${domainBaseModules}|${domainRuleModules}|${domainPaymentModules})|store/stored)[.]ts$`,
      },
    },
    {
      name: 'mock-webhooks-know-no-routes',
      comment:
        'src/mock/internal/webhooks delivers what settlement hands it: of domain/ it reads the base, the rules, the events and the payments, never the tokens, the failures or the journal; never the routes, the control plane or GraphQL (the control API reaches deliveries, not the other way).',
      severity: 'error',
      from: { path: '^src/mock/internal/webhooks/' },
      to: {
        path: '^src/mock/internal/(control|domain|graphql|http|provider-states|ui)/',
        pathNot: `^src/mock/internal/domain/(${domainBaseModules}|${domainRuleModules}|${domainPaymentModules})[.]ts$`,
      },
    },
    {
      name: 'mock-provider-states-use-the-control-handle',
      comment:
        "src/mock/internal/provider-states sets Pact states up through the public control handle (MockControl), as a verifier would: it does not reach into the model's state (of domain/ it reads only the card and fee rules and the events), control, graphql or the store.",
      severity: 'error',
      from: { path: '^src/mock/internal/provider-states/' },
      to: {
        path: '^src/mock/internal/(control|domain|graphql|store)/',
        pathNot: `^src/mock/internal/domain/${domainRuleModules}[.]ts$`,
      },
    },
    {
      name: 'isomorphic-core',
      comment:
        'The mock core (core-app.ts), the browser builds of the mock and msw entries, the web platform and the client run in browsers and workers: nothing they reach may import a Node built-in. Node-only parts plug in through the platform seam (src/mock/platform.ts), chosen by the Node entries.',
      severity: 'error',
      from: {
        path: '^src/(mock/core-app|mock/web-platform|mock/web-app|mock/browser|mock/shared-exports|msw/browser|client/index)[.]ts$',
      },
      to: {
        reachable: true,
        path: '^(node:|(assert|async_hooks|buffer|child_process|cluster|crypto|dgram|diagnostics_channel|dns|events|fs|http|http2|https|inspector|module|net|os|path|perf_hooks|process|querystring|readline|stream|string_decoder|timers|tls|tty|url|util|v8|vm|worker_threads|zlib)(/|$))',
      },
    },
    {
      name: 'browser-builds-leave-redis-tokens-out',
      comment:
        'The token operations over a shared token state (domain/shared-tokens.ts) serve a Redis store only, which never runs in a browser: the Node entries pass them to the core (nodeStoreSeams in src/mock/node-store.ts), so the browser builds do not bundle them. Name their shape from domain/shared-token-ops.ts.',
      severity: 'error',
      from: { path: '^src/(mock/core-app|mock/web-app|mock/browser|msw/browser)[.]ts$' },
      to: { reachable: true, path: '^src/mock/internal/domain/shared-tokens[.]ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
  },
};
