/**
 * The compatibility matrix's cells: each one a fresh consumer project that installs the packed kit beside one
 * combination of graphql, Pact, msw, Node and TypeScript (scripts/test-matrix.ts runs them; scripts/check-majors.ts
 * compares their majors with the registry's newest). One cell per combination that can differ: graphql 17, Pact 17
 * and msw 3 need Node 22 or later (their `engines`), so the Node 20 cell carries the older majors of all three; the
 * Node 26 cell pairs graphql 16 with Pact 17 and msw 3, which carry graphql copies and peers of their own.
 *
 * @module
 */

/** A peer or tool whose major the matrix pins per cell. */
export type Tracked = 'graphql' | '@pact-foundation/pact' | 'msw' | 'typescript' | 'node';

/** One consumer project of the matrix. */
export interface MatrixCell {
  /** Folder name and label: what the cell runs. */
  readonly name: string;
  /** The Node major that installs and runs the cell (npm registry's `node` package unless it is this process's). */
  readonly node: string;
  /** The consumer's dependencies besides the kit, as a team would write them. */
  readonly dependencies: Readonly<Record<string, string>>;
  /** The majors the runtime check must find installed (test/package/matrix/consumer/runtime.mjs). */
  readonly expect: Readonly<Record<'graphql' | 'pact' | 'msw' | 'node', string>>;
  /** The TypeScript major checking the kit's own declarations (`typescript` in `dependencies`). */
  readonly typescript: string;
  /**
   * The package whose tsc checks the client and Pact typings (tsconfig.clients.json): Apollo Client 4's own
   * declarations need TypeScript 5.4 (`NoInfer`), so the TypeScript 5.0 cell runs that half on an aliased 5.4.
   */
  readonly clientsTypescript: string;
}

/** Tools every cell installs at the majors the kit's recipes are written for. */
const tools = {
  '@apollo/client': '^4.3.8',
  rxjs: '^7.8.2',
  '@graphql-codegen/cli': '^7.4.3',
  '@graphql-codegen/add': '^7.1.1',
  '@graphql-codegen/typescript-operations': '^6.1.9',
  '@graphql-codegen/typed-document-node': '^7.1.1',
  vitest: '^4.1.12',
};

/** The cells, oldest majors first. */
export const matrixCells: readonly MatrixCell[] = [
  {
    name: 'graphql16-pact16-msw2-node20-ts5.0',
    node: '20',
    dependencies: {
      ...tools,
      graphql: '^16.15.0',
      '@pact-foundation/pact': '^16.5.0',
      msw: '^2.15.0',
      // graphql-request 7 declares graphql 14 to 16 as its peer, so it is tried beside graphql 16 only.
      'graphql-request': '^7.4.0',
      typescript: '~5.0.4',
      typescript54: 'npm:typescript@~5.4.5',
      '@types/node': '^20.19.0',
    },
    expect: { graphql: '16', pact: '16', msw: '2', node: '20' },
    typescript: '5',
    clientsTypescript: 'typescript54',
  },
  {
    name: 'graphql17-pact17-msw3-node22-ts6',
    node: '22',
    dependencies: {
      ...tools,
      graphql: '^17.1.0',
      '@pact-foundation/pact': '^17.1.4',
      msw: '^3.0.5',
      typescript: '~6.0.3',
      '@types/node': '^22.19.0',
    },
    expect: { graphql: '17', pact: '17', msw: '3', node: '22' },
    typescript: '6',
    clientsTypescript: 'typescript',
  },
  {
    name: 'graphql17-pact17-msw3-node24-ts7',
    node: '24',
    dependencies: {
      ...tools,
      graphql: '^17.1.0',
      '@pact-foundation/pact': '^17.1.4',
      msw: '^3.0.5',
      typescript: '^7.0.2',
      '@types/node': '^24.10.0',
    },
    expect: { graphql: '17', pact: '17', msw: '3', node: '24' },
    typescript: '7',
    clientsTypescript: 'typescript',
  },
  {
    // The newest Node (26, LTS since October), with the team that moved Pact and msw on but kept graphql 16.
    name: 'graphql16-pact17-msw3-node26-ts6',
    node: '26',
    dependencies: {
      ...tools,
      graphql: '^16.15.0',
      '@pact-foundation/pact': '^17.1.4',
      msw: '^3.0.5',
      typescript: '~6.0.3',
      '@types/node': '^26.6.6',
    },
    expect: { graphql: '16', pact: '17', msw: '3', node: '26' },
    typescript: '6',
    clientsTypescript: 'typescript',
  },
];

/** The majors the matrix covers for each tracked package, lowest first. */
export function coveredMajors(cells: readonly MatrixCell[] = matrixCells): Record<Tracked, string[]> {
  const collect = (pick: (c: MatrixCell) => string) =>
    [...new Set(cells.map(pick))].sort((a, b) => Number(a) - Number(b));
  return {
    graphql: collect((c) => c.expect.graphql),
    '@pact-foundation/pact': collect((c) => c.expect.pact),
    msw: collect((c) => c.expect.msw),
    typescript: collect((c) => c.typescript),
    node: collect((c) => c.node),
  };
}

/** One package entry of a package-lock.json (lockfile version 3). */
interface LockEntry {
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

/**
 * Names of the packages the kit brings into a consumer's tree: the kit, its dependencies and its peers, each with
 * everything below it, read from the consumer's package-lock.json. A tool the consumer added for itself (GraphQL
 * Code Generator, say) is outside it unless the kit's closure reaches it too.
 */
export function kitClosure(lock: { packages: Record<string, LockEntry> }, peers: readonly string[]): Set<string> {
  const names = new Set<string>();
  const seen = new Set<string>();
  // npm resolves a dependency from the nearest node_modules above the package that needs it.
  const resolve = (from: string, name: string): string | undefined => {
    for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')))) {
      const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      if (lock.packages[candidate]) return candidate;
      if (!dir) return undefined;
    }
  };
  const visit = (path: string | undefined) => {
    if (path === undefined || seen.has(path)) return;
    seen.add(path);
    names.add(path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    const entry = lock.packages[path]!;
    const needs = { ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies };
    for (const name of Object.keys(needs)) visit(resolve(path, name));
  };
  for (const name of ['payment-contract-kit', ...peers]) visit(resolve('', name));
  return names;
}

/**
 * What in an `npm install`'s output says the tree is not what the consumer asked for: a peer conflict npm worked
 * around (`ERESOLVE overriding peer dependency`), an unmet or invalid peer, and an engine mismatch of a package in
 * `enginesOf` (the kit's closure: a tool the consumer added may need a newer Node, which is that tool's affair).
 * Answers the offending lines.
 */
export function installProblems(output: string, enginesOf?: ReadonlySet<string>): string[] {
  const lines = output.split('\n');
  const peerLines = lines.filter((line) => /ERESOLVE|\bpeer\b|invalid:|missing:/i.test(line));
  // npm prints an engine warning as a block whose `package:` line names the package: 'name@version'.
  const engineLines = lines
    .map((line) => /EBADENGINE\s+package:\s+'(.+)@[^@']+'/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && (enginesOf === undefined || enginesOf.has(m[1]!)))
    .map((m) => m[0]);
  return [...peerLines, ...engineLines];
}

/** The engine warnings of packages outside `closure`, named for the report (they do not fail the cell). */
export function otherEngineWarnings(output: string, closure: ReadonlySet<string>): string[] {
  const names = [...output.matchAll(/EBADENGINE\s+package:\s+'(.+)@[^@']+'/g)].map((m) => m[1]!);
  return [...new Set(names.filter((n) => !closure.has(n)))];
}
