import { existsSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PluginBuild } from 'esbuild';
import { defineConfig, type Options } from 'tsup';

// Library entries: one per public subpath (package.json `exports`); dependencies stay external so consumers share
// one copy of graphql with their own code.
const libraryEntries = {
  index: 'src/index.ts',
  legacy: 'src/legacy.ts',
  mock: 'src/mock/index.ts',
  webhook: 'src/webhook/index.ts',
  pact: 'src/pact/index.ts',
  client: 'src/client/index.ts',
  // msw is an optional peer: external like every peer, so the consumer's msw 2 or 3 is the one that runs.
  msw: 'src/msw/index.ts',
  // The validating proxy (node:http, its own listener): a Node entry of its own so no other entry loads it.
  proxy: 'src/proxy/index.ts',
  // The one checker for teams' own tests (checkExchange, createCheckedFetch): no node:* import, so it runs in browsers.
  check: 'src/contract/check/index.ts',
  // Reading, merging and writing coverage reports, and the test-runner helper (node:fs): a Node entry of its own.
  coverage: 'src/coverage/index.ts',
};

// The GraphQL limit rules of the mock (src/mock/internal/graphql/limits.ts).
const armor = [/^@escape\.tech\/graphql-armor-/];

// The mock's schema tooling and its small helpers, compiled into dist at the versions the tests ran with. Their
// ranges drift for consumers (merge 9.2 -> utils 12 -> @whatwg-node/promise-helpers 2 needs Node >= 22.15, and
// this package's `overrides` never reach a consumer), so they are development dependencies bundled here instead.
const graphqlTools = [
  /^@graphql-tools\//,
  /^@whatwg-node\/promise-helpers/,
  /^cross-inspect/,
  /^fast-json-stable-stringify/,
  /^tslib/,
];

// The browser pages (dist/ui, scripts/build-ui.ts) are built when the library build succeeds; `npm start` passes
// --silent to tsup, and the pages' build honours it too.
const buildUi = `tsx scripts/build-ui.ts${process.argv.includes('--silent') ? ' --silent' : ''}`;

// The mock script's shipped V8 code cache (scripts/build-code-cache.ts), made once the script is built.
const buildCodeCache = `tsx scripts/build-code-cache.ts${process.argv.includes('--silent') ? ' --silent' : ''}`;

// The browser and worker builds of the msw and mock entries (package.json `browser` and `worker` conditions): the isomorphic core
// on the web platform, with no Node built-in. @noble/hashes (its hashing) is bundled in, so consumers install nothing
// more; graphql and msw stay external, the consumer's copies.
const browserEntries = { msw: 'src/msw/browser.ts', mock: 'src/mock/browser.ts' };

/**
 * The sources import `graphql/index.js` (Node loads graphql's CommonJS files, as graphql-jit deep-requires them), and
 * the bundled graphql-tools import `graphql`. A consumer's bundler resolves those two to graphql's CommonJS and ESM
 * copies: two realms whose `instanceof` checks reject each other's schemas. The browser build has no graphql-jit, so
 * every graphql import there becomes the bare `graphql` the consumer's bundler resolves once.
 */
const oneGraphql = {
  name: 'one-graphql',
  // tsup marks peers external before any esbuild alias or plugin runs, so the specifier is rewritten in the output.
  renderChunk(code: string) {
    return { code: code.replace(/(["'])graphql\/index\.js\1/g, '$1graphql$1') };
  },
};

/**
 * The CLI bundle's graphql is its ESM copy, for every importer (graphql-jit's deep requires of `graphql/x/y.js`
 * become `graphql/x/y.mjs`). With the CommonJS copy, each bundled module importing graphql got its own interop copy
 * of graphql's 400-odd exports, as getters over getters: a sixth of the mock's cold start and a getter on every
 * graphql call after it (profiled).
 */
const graphqlEsm = {
  name: 'graphql-esm',
  setup(build: PluginBuild) {
    const dir = dirname(createRequire(import.meta.url).resolve('graphql/package.json'));
    build.onResolve({ filter: /^graphql(\/.*)?$/ }, (args) => {
      const sub = args.path === 'graphql' ? 'index.js' : args.path.slice('graphql/'.length);
      const file = join(dir, sub.replace(/(\.js)?$/, '.mjs'));
      // `graphql/language` names a folder: its index.
      return { path: existsSync(file) ? file : join(dir, sub, 'index.mjs') };
    });
  },
};

const builtins = new Set(builtinModules);

/**
 * The CLI bundle reads Node's built-in modules with `require` (the banner's), not `import`. An ESM import of a
 * built-in builds its ESM facade by reading every export, and that runs the lazy getters: `node:fs` loaded
 * fs/promises and the fs streams, `node:crypto` the Web Crypto API, before the mock's first answer. Through
 * require, each export is read when used.
 */
const requiredBuiltins = {
  name: 'required-builtins',
  setup(build: PluginBuild) {
    build.onResolve({ filter: /^[a-z0-9_:/]+$/ }, (args) => {
      const name = args.path.replace(/^node:/, '');
      // node:module stays an import: the banner's createRequire comes from it.
      if (!builtins.has(name) || name === 'module' || args.namespace === 'required-builtin') return undefined;
      return { path: name, namespace: 'required-builtin' };
    });
    build.onLoad({ filter: /.*/, namespace: 'required-builtin' }, (args) => ({
      contents: `module.exports = require('node:${args.path}');`,
      loader: 'js',
    }));
  },
};

/**
 * The mock script reads each guide's schema already parsed (guide-schema-document.ts, generated JSON) instead of
 * parsing its SDL (guide-schema-source.ts): a tenth of the time on its cold start's way to the first answer, for
 * three times the bytes, which only this script carries (decision 0037).
 */
const parsedGuideSchemas = {
  name: 'parsed-guide-schemas',
  setup(build: PluginBuild) {
    build.onResolve({ filter: /\/guide-schema-source\.ts$/ }, (args) => ({
      path: join(args.resolveDir, 'guide-schema-document.ts'),
    }));
  },
};

/** What the two CommonJS scripts of the CLI (the cached mock script and the launcher) are built with. */
const cliScript = {
  outDir: 'dist/cli',
  format: ['cjs'],
  outExtension: () => ({ js: '.cjs' }),
  dts: false,
  clean: false,
  target: 'node20',
  platform: 'node',
  splitting: false,
  minify: true,
} satisfies Options;

export default defineConfig([
  {
    entry: libraryEntries,
    onSuccess: buildUi,
    format: ['esm', 'cjs'],
    dts: true,
    clean: false,
    target: 'node20',
    platform: 'node',
    splitting: true,
    treeshake: true,
    // graphql-armor's rules (the mock's GraphQL limits) and graphql-tools are development dependencies compiled into
    // the mock, so consumers install nothing more; their run-time import, graphql, stays external (the consumer's
    // copy, a peer). graphql-jit stays an exact-pinned dependency: it deep-requires graphql's CommonJS files.
    noExternal: [...armor, ...graphqlTools],
  },
  {
    // The CLI runs in its own process, so it may carry a private, bundled copy of the GraphQL stack: resolving and
    // loading hundreds of files from node_modules was most of the mock's cold start. No schema object leaves it.
    // verify-dynamic-child: the dynamic half of `verify`, run in a child process by the CLI.
    entry: { index: 'src/cli/main.ts', 'verify-dynamic-child': 'src/cli/verify-dynamic-child.ts' },
    outDir: 'dist/cli',
    format: ['esm'],
    dts: false,
    clean: false,
    target: 'node20',
    platform: 'node',
    splitting: true,
    treeshake: true,
    minify: true,
    noExternal: ['graphql', 'graphql-jit', ...graphqlTools, ...armor],
    // graphql ships CommonJS and ESM copies; every import and require of it, graphql-jit's deep requires included,
    // must resolve to one of them, or the bundle holds two graphql realms whose instanceof checks reject each other.
    esbuildPlugins: [graphqlEsm, requiredBuiltins],
    // tsup's own node: plugin would mark every `node:` built-in external before requiredBuiltins sees it.
    removeNodeProtocol: false,
    // ESM builds first (graphql-armor ships both): their imports of graphql need no CommonJS interop.
    esbuildOptions(options) {
      options.mainFields = ['module', 'main'];
    },
    // Bundled CommonJS dependencies call require(); give the ESM bundle one.
    banner: {
      js: "import { createRequire as __pckCreateRequire } from 'node:module'; const require = __pckCreateRequire(import.meta.url);",
    },
  },
  {
    // The mock command as one CommonJS script, for the V8 code cache of src/cli/code-cache.ts (decision 0035): Node 20
    // caches compiled code for scripts only. Dynamic imports are inlined (a script run by vm has no module loader);
    // the optional Redis client stays a require of the consumer's ioredis. Built-ins are plain requires in CommonJS.
    entry: { mock: 'src/cli/commands/mock.ts' },
    onSuccess: buildCodeCache,
    ...cliScript,
    noExternal: ['graphql', 'graphql-jit', ...graphqlTools, ...armor],
    esbuildPlugins: [graphqlEsm, parsedGuideSchemas],
    removeNodeProtocol: false,
    esbuildOptions(options) {
      options.mainFields = ['module', 'main'];
      options.supported = { ...options.supported, 'dynamic-import': false };
      // The script is decoded as latin1 (code-cache.ts): every character outside ASCII escaped.
      options.charset = 'ascii';
      // package-files.ts reads `import.meta.url` in ESM and `__filename` here, where import.meta is empty.
      options.logOverride = { ...options.logOverride, 'empty-import-meta': 'silent' };
    },
  },
  {
    // The executable (package.json `bin`): CommonJS, so `mock` starts without Node's ES module loader (launcher.ts).
    // Its import() of the ES module CLI stays an import().
    entry: { launcher: 'src/cli/launcher.ts' },
    ...cliScript,
    removeNodeProtocol: false,
  },
  {
    entry: browserEntries,
    outDir: 'dist/browser',
    // ESM only, minified: every browser bundler reads ESM, and a `require` under the browser condition (Jest's jsdom)
    // falls through to the Node build, which runs there. Minified to keep the package's size budget.
    format: ['esm'],
    minify: true,
    // Same API as the Node build: package.json points the browser condition's types at dist/msw.d.ts.
    dts: false,
    clean: false,
    target: 'es2022',
    platform: 'browser',
    splitting: true,
    treeshake: true,
    external: ['graphql', 'msw'],
    noExternal: [...armor, ...graphqlTools, /^@noble\/hashes/],
    plugins: [oneGraphql],
  },
]);
