// The compatibility matrix's own logic (scripts/compatibility): the peer ranges say exactly what the cells run, the
// install-output rules catch the warnings a consumer would see, and check:majors' report flags a major the matrix
// does not cover. The matrix itself (npm run test:matrix, a step of .ci/run) installs the packed kit for real.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  coveredMajors,
  installProblems,
  kitClosure,
  matrixCells,
  otherEngineWarnings,
} from '../../scripts/compatibility/cells.ts';
import { majorsOfRange, majorsReport } from '../../scripts/compatibility/majors.ts';
import { root } from './support/packed-kit.ts';

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

describe('peer ranges and the matrix', () => {
  it.each(['graphql', '@pact-foundation/pact', 'msw'] as const)(
    '%s: the range admits exactly the majors the cells run',
    (peer) => {
      expect(majorsOfRange(pkg.peerDependencies[peer])).toEqual(coveredMajors()[peer]);
    },
  );

  it('runs every Node major from the oldest in engines', () => {
    const oldest = majorsOfRange(pkg.engines.node)[0];
    expect(coveredMajors().node[0]).toBe(oldest);
    expect(coveredMajors().node).toEqual(expect.arrayContaining(['20', '22', '24']));
  });

  it('puts each newer peer major only on a Node its engines accept (graphql 17, Pact 17, msw 3: Node 22 or later)', () => {
    for (const cell of matrixCells) {
      const needs22 = cell.expect.graphql === '17' || cell.expect.pact === '17' || cell.expect.msw === '3';
      if (needs22) expect(Number(cell.node), cell.name).toBeGreaterThanOrEqual(22);
    }
  });

  it('names each cell after what it runs, and pins each dependency to the major it claims', () => {
    for (const cell of matrixCells) {
      expect(cell.name).toContain(`graphql${cell.expect.graphql}`);
      expect(cell.name).toContain(`node${cell.node}`);
      expect(majorsOfRange(cell.dependencies.graphql)).toEqual([cell.expect.graphql]);
      expect(majorsOfRange(cell.dependencies['@pact-foundation/pact'])).toEqual([cell.expect.pact]);
      expect(majorsOfRange(cell.dependencies.msw)).toEqual([cell.expect.msw]);
      expect(majorsOfRange(cell.dependencies.typescript)).toEqual([cell.typescript]);
    }
  });
});

describe('install output', () => {
  const eresolve = 'npm warn ERESOLVE overriding peer dependency\nnpm warn While resolving: payment-contract-kit@0.1.0';
  const engine = (name: string) =>
    `npm warn EBADENGINE Unsupported engine {\nnpm warn EBADENGINE   package: '${name}@1.2.3',\nnpm warn EBADENGINE   required: { node: '>=22' },\nnpm warn EBADENGINE }`;

  it('flags a peer conflict npm worked around and an invalid peer', () => {
    expect(installProblems(eresolve)).toEqual(['npm warn ERESOLVE overriding peer dependency']);
    expect(installProblems('npm error invalid: graphql@17.1.0')).toHaveLength(1);
  });

  it("flags an engine warning of the kit's tree, and only names one of a consumer's own tool", () => {
    const output = `${engine('graphql')}\n${engine('@scope/tool')}\nadded 3 packages`;
    const closure = new Set(['payment-contract-kit', 'graphql']);
    expect(installProblems(output, closure)).toEqual(["EBADENGINE   package: 'graphql@1.2.3'"]);
    expect(otherEngineWarnings(output, closure)).toEqual(['@scope/tool']);
  });

  it('passes a clean install and npm install-scripts notes', () => {
    expect(
      installProblems(
        'added 472 packages in 2m\nnpm warn install-scripts   @scarf/scarf@1.4.0 (postinstall)',
        new Set(),
      ),
    ).toEqual([]);
  });

  it("reads the kit's closure from a lockfile, nested copies and peers included, a consumer's tool left out", () => {
    const lock = {
      packages: {
        '': { dependencies: { 'payment-contract-kit': 'file:x', tool: '1' } },
        'node_modules/payment-contract-kit': {
          dependencies: { 'graphql-jit': '1' },
          peerDependencies: { graphql: '16' },
        },
        'node_modules/graphql-jit': { dependencies: { ajv: '8' } },
        'node_modules/graphql-jit/node_modules/ajv': {},
        'node_modules/ajv': {},
        'node_modules/graphql': {},
        'node_modules/tool': { dependencies: { listr2: '10' } },
        'node_modules/listr2': {},
      },
    };
    expect([...kitClosure(lock, ['graphql', 'msw'])].sort()).toEqual([
      'ajv',
      'graphql',
      'graphql-jit',
      'payment-contract-kit',
    ]);
  });
});

describe('check:majors report', () => {
  it('reads the majors of peer and engine ranges', () => {
    expect(majorsOfRange('^16.15.0 || ^17.1.0')).toEqual(['16', '17']);
    expect(majorsOfRange('^2.0.0 || ^3.0.0')).toEqual(['2', '3']);
    expect(majorsOfRange('>=20')).toEqual(['20']);
    expect(majorsOfRange(undefined)).toEqual([]);
  });

  it('says covered for the majors the cells run, new major for a newer one, unknown without an answer', () => {
    const report = majorsReport({ graphql: '17', '@pact-foundation/pact': '18', msw: '3', typescript: '7' }, pkg);
    const status = Object.fromEntries(report.map((r) => [r.name, r.status]));
    expect(status).toEqual({
      graphql: 'covered',
      '@pact-foundation/pact': 'new major',
      msw: 'covered',
      typescript: 'covered',
      node: 'unknown',
    });
    expect(report.find((r) => r.name === 'graphql')?.admitted).toEqual(['16', '17']);
  });
});
