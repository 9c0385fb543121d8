/**
 * Architecture rules, checked in the test run (test/architecture.test.ts): dependency-cruiser reads the real imports,
 * so a rule cannot drift from the code.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
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
        'src/contract (the spec vocabulary and the one checker) sits under every part: it imports only src/internal, the ledger, spec names, types, the schema module, generated files and graphql, never mock, client, pact, webhook, ui, cli, msw or proxy.',
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { path: '^src/(mock|client|pact|webhook|ui|cli|msw|proxy)/' },
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
