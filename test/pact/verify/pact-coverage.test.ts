/**
 * `verify --coverage`: the behaviours the kit's own pacts exercise, read with the collector's functions, and the
 * file the command writes (which `coverage` reads and gates on).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../src/assumptions.ts';
import { run } from '../../../src/cli/commands/verify.ts';
import { readCoverageReport } from '../../../src/contract/coverage/report.ts';
import { loadOpenApi } from '../../../src/pact/verify/openapi-document.ts';
import { pactCoverage } from '../../../src/pact/verify/pact-coverage.ts';
import { findPactFiles, readPactFiles } from '../../../src/pact/verify/pact-files.ts';
import { captureIo } from '../../support/cli-in-process.ts';

const scratch = mkdtempSync(join(tmpdir(), 'pck-pact-coverage-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const { pacts } = readPactFiles(findPactFiles(['contracts']).files);
const guideByName = (file: string) => (file.includes('legacy') ? 'legacy' : 'current');

describe('coverage of pact files', () => {
  const report = pactCoverage(pacts, (file) => guideByName(file), defaultAssumptions);
  const covered = new Set(report.behaviours.filter((b) => b.covered).map((b) => b.id));

  it("reads the kit's own pacts: tokens, both guides, a refused card, card accounts, the final webhook", () => {
    for (const id of [
      'token.generate',
      'token.refresh',
      'token.expired',
      'graphql.current.processPaymentRequest',
      'graphql.legacy.paymentGatewayFeesCalc',
      'legacy.total',
      'validation.contact',
      'card.refused',
      'card.accepted',
      'payment.by-card-account',
      'webhook.success',
      'card.settled-success',
    ])
      expect(covered, id).toContain(id);
  });

  it('leaves out what no interaction shows', () => {
    for (const id of ['webhook.retried', 'webhook.given-up', 'error.parse-failed', 'token.other-client'])
      expect(covered, id).not.toContain(id);
  });

  it('a pact with no interactions covers nothing', () => {
    expect(pactCoverage([], () => 'current', defaultAssumptions).covered).toBe(0);
  });

  it('verify --coverage writes the report and says where', async () => {
    const file = join(scratch, 'pacts', 'coverage.json');
    const c = captureIo();
    const code = await run(['contracts', '--static-only', '--coverage', file], c.io, {
      loadDynamic: async () => undefined,
      pactInstalled: () => true,
      openapi: () => loadOpenApi(),
    });
    expect(code).toBe(0);
    const written = readCoverageReport(JSON.parse(readFileSync(file, 'utf8')));
    if (typeof written === 'string') throw new Error(written);
    expect(c.err()).toContain(`the interactions exercise ${written.covered} of ${written.total} behaviours`);
    expect(written.covered).toBeGreaterThanOrEqual(covered.size - 2);
    expect(written.behaviours.find((b) => b.id === 'card.refused')?.covered).toBe(true);
  });
});
