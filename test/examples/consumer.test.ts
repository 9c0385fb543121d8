// examples/consumer as a team runs it: the kit packed with `npm pack`, the example copied to a temporary directory
// with its dependency pointed at that tarball, one `npm install` (the registry for the rest, pinned versions), then
// its strict `tsc --noEmit` and its vitest run on Node 20 (this one) and on Node 22 and 24 from the registry's `node`
// package. The example's own tests start the mock in vitest's global setup, pay with graphql-request, verify the
// webhook and write a Pact contract; the mock writes its coverage report when the run ends, and the figure it
// reports is the one docs/coverage.md states.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, npmInstall, onNode, packKit, root, run } from '../package/support/packed-kit.ts';
import { coverageFigure, documentedFigure, documentedNeverTried } from './support/coverage-figure.ts';

/** A coverage report as the example's mock writes it. */
interface Report {
  behaviours: { id: string; covered: boolean; count: number }[];
  covered: number;
  total: number;
}

/**
 * What the example's two tests exercise: one token, the fee list, the card priced and paid from its card account,
 * settled by the clock, its webhook accepted at the first attempt. The Pact test talks to Pact's own mock server and
 * the forged-signature test to the receiver only, so neither adds a behaviour.
 */
const exampleCovers = [
  'token.generate',
  'graphql.current.paymentGatewayFeesCalc',
  'graphql.current.paymentCreditCardFeeCalc',
  'graphql.current.processPaymentRequest',
  'card.accepted',
  'card.settled-success',
  'payment.by-card-account',
  'webhook.success',
  'webhook.first-attempt',
];

const readReport = async (): Promise<Report> =>
  JSON.parse(await readFile(join(project(), 'pck-coverage.json'), 'utf8')) as Report;
const coveredIds = (report: Report) => report.behaviours.filter((b) => b.covered).map((b) => b.id);

/** One more test a team might add: a card refused before processing (the test card the interface names). */
const refusedCardTest = `import { ProcessPaymentRequestDocument } from 'payment-contract-kit';
import { expect, inject, it } from 'vitest';
import { accessToken, graphqlClient, visaFee } from '../src/checkout.ts';
import { service } from './service.ts';

it('a card refused before processing is refused', async () => {
  const mockUrl = inject('mockUrl');
  const client = graphqlClient(mockUrl, await accessToken({ baseUrl: mockUrl, ...service }));
  const card = { full_name: 'Ada Lovelace', card_number: '4000000000000069', expiry_month: '12', expiry_year: '39', cvv: '123' };
  const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
  const input = {
    amount: 100,
    fees: await visaFee(client, 100),
    credit_card: card,
    contact,
    payment_reference: { description: 'Order ORD-2', reference_no: 'ORD-2' },
  };
  await expect(client.request(ProcessPaymentRequestDocument, { input })).rejects.toThrow(/card_number/);
});
`;

let dir = '';
const project = () => join(dir, 'consumer');
let installOutput = '';

beforeAll(async () => {
  await ensureBuilt();
  dir = await mkdtemp(join(tmpdir(), 'pck-example-'));
  const tarball = await packKit(dir);
  await cp(join(root, 'examples/consumer'), project(), {
    recursive: true,
    filter: (source) => !/[\\/](node_modules|pacts|pck-coverage\.json)$|\.tgz$/.test(source),
  });
  const manifestPath = join(project(), 'package.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
  manifest.dependencies['payment-contract-kit'] = `file:${join(dir, tarball)}`;
  await writeFile(manifestPath, JSON.stringify(manifest, null, 2));
  // One install serves every Node version: nothing in the tree is built for one Node ABI (Pact's core is N-API).
  installOutput = await npmInstall(project());
}, 600_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('examples/consumer from the packed tarball', () => {
  it('pins every dependency to an exact version, the kit aside', async () => {
    const manifest = JSON.parse(await readFile(join(root, 'examples/consumer/package.json'), 'utf8'));
    const pinned = { ...manifest.dependencies, ...manifest.devDependencies };
    delete pinned['payment-contract-kit'];
    for (const [name, version] of Object.entries(pinned)) expect(version, name).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.dependencies['payment-contract-kit']).toMatch(/^file:.*\.tgz$/);
  });

  it('installs with no engine warning', () => {
    expect(installOutput).not.toMatch(/EBADENGINE|Unsupported engine/);
  });

  it('type-checks under strict', async () => {
    await run('npx', ['tsc', '--noEmit'], project());
  }, 120_000);

  it.each(['20', '22', '24'])(
    'passes its tests on Node %s',
    async (major) => {
      const vitest = ['node_modules/vitest/vitest.mjs', 'run'];
      await rm(join(project(), 'pacts'), { recursive: true, force: true });
      await rm(join(project(), 'pck-coverage.json'), { force: true });
      // Node 20 is this process's own; the others come from the registry's `node` package.
      const [cmd, args] = major === process.versions.node.split('.')[0] ? ['node', vitest] : onNode(major, vitest);
      const { stdout } = await run(cmd, args, project(), { ...process.env, CI: '1', NO_COLOR: '1' });
      expect(stdout).toMatch(/Test Files\s+2 passed \(2\)/);
      expect(stdout).toMatch(/Tests\s+3 passed \(3\)/);
      const [versionCmd, versionArgs] = cmd === 'node' ? ['node', ['--version']] : onNode(major, ['--version']);
      expect((await run(versionCmd, versionArgs, project())).stdout.trim()).toMatch(new RegExp(`^v${major}\\.`));
      // The Pact test wrote the contract where the example says.
      const pact = JSON.parse(
        await readFile(join(project(), 'pacts/checkout-service-example-card-payment-service.json'), 'utf8'),
      );
      expect(pact.interactions).toHaveLength(1);

      // The mock wrote its coverage when the run ended: exactly what the two tests exercised, counted in the
      // packed kit's collector, and the figure docs/coverage.md states.
      const report = await readReport();
      expect(coveredIds(report)).toEqual(exampleCovers);
      expect({ covered: report.covered, total: report.total }).toEqual({ covered: 9, total: 53 });
      const byId = new Map(report.behaviours.map((b) => [b.id, b]));
      expect(byId.get('token.generate')?.count).toBe(1);
      for (const never of ['token.expired', 'card.refused', 'webhook.retried', 'validation.contact', 'legacy.number'])
        expect(byId.get(never), never).toMatchObject({ covered: false, count: 0 });
      expect(documentedFigure(), 'docs/coverage.md: paste this paragraph over the old one').toBe(
        coverageFigure(report),
      );
      // Its gate, as the example's README runs it, with the packed CLI.
      const gate = await run('npm', ['run', '--silent', 'coverage'], project());
      expect(gate.stdout).toContain('Service behaviours exercised: 9 of 53 (17.0%).');
    },
    300_000,
  );

  it('reports exactly the behaviours one more test exercises, and the rest as before', async () => {
    const extra = join(project(), 'test/refused-card.test.ts');
    await writeFile(extra, refusedCardTest);
    try {
      await rm(join(project(), 'pck-coverage.json'), { force: true });
      const vitest = ['node_modules/vitest/vitest.mjs', 'run'];
      const { stdout } = await run('node', vitest, project(), { ...process.env, CI: '1', NO_COLOR: '1' });
      expect(stdout).toMatch(/Tests\s+4 passed \(4\)/);
      const report = await readReport();
      const never = documentedNeverTried(documentedFigure() ?? '');
      // The documented gaps but the refused card are still gaps; nothing else moved.
      expect(report.behaviours.filter((b) => !b.covered).map((b) => b.id)).toEqual(
        never.filter((id) => id !== 'card.refused'),
      );
      expect(coveredIds(report)).toEqual([...exampleCovers, 'card.refused'].sort(byCatalogue(report)));
    } finally {
      await rm(extra, { force: true });
    }
  }, 300_000);
});

/** Orders ids as the report (the catalogue) lists them. */
function byCatalogue(report: Report): (a: string, b: string) => number {
  const at = new Map(report.behaviours.map((b, i) => [b.id, i]));
  return (a, b) => (at.get(a) ?? 0) - (at.get(b) ?? 0);
}
