// `npm run check:majors`: asks the npm registry for the newest major of each peer (graphql, Pact, msw), of
// TypeScript and of Node (the registry's `node` package), and prints whether the compatibility matrix
// (scripts/compatibility/cells.ts) covers it. Exit status: 0 when every newest major is covered, 1 when one is not
// (add a cell, widen the peer range: VERSIONING.md), 2 when the registry could not be read. CI does not run it, so
// a release elsewhere never turns a build red; run it before a release, or on a schedule.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { kitMessage } from '../src/internal/messages.ts';
import type { Tracked } from './compatibility/cells.ts';
import { majorsReport } from './compatibility/majors.ts';

const root = join(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const registryName: Record<Tracked, string> = {
  graphql: 'graphql',
  '@pact-foundation/pact': '@pact-foundation/pact',
  msw: 'msw',
  typescript: 'typescript',
  node: 'node',
};

const newest: Partial<Record<Tracked, string>> = {};
for (const [name, onRegistry] of Object.entries(registryName) as [Tracked, string][]) {
  const answer = spawnSync('npm', ['view', onRegistry, 'dist-tags.latest'], { encoding: 'utf8' });
  const version = answer.stdout.trim();
  if (answer.status === 0 && /^\d+\./.test(version)) newest[name] = version.split('.')[0];
}

const rows = majorsReport(newest, pkg);
const lines = rows.map(
  (r) =>
    `${r.name.padEnd(22)} newest ${String(r.newest ?? '?').padEnd(4)} range ${r.admitted.join(', ').padEnd(8)} matrix ${r.covered.join(', ').padEnd(10)} ${r.status}`,
);
process.stdout.write(`${lines.join('\n')}\n`);
if (rows.some((r) => r.status === 'unknown')) {
  process.stdout.write(
    `${kitMessage('The npm registry did not answer for every package: check the network or npm login, then run again.')}\n`,
  );
  process.exit(2);
}
const uncovered = rows.filter((r) => r.status === 'new major');
if (uncovered.length > 0) {
  const names = uncovered.map((r) => `${r.name} ${r.newest}`).join(', ');
  process.stdout.write(
    `${kitMessage(`Not covered by the compatibility matrix: ${names}. Add a cell in scripts/compatibility/cells.ts and widen the range (VERSIONING.md, "Peer majors").`)}\n`,
  );
  process.exit(1);
}
process.stdout.write(`${kitMessage('Every newest major is covered by the compatibility matrix.')}\n`);
