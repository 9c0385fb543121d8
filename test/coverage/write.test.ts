/**
 * The test-run side of `payment-contract-kit/coverage`: the msw handlers' `coverage()`, and `coverageAfterAll`
 * writing one file per call into a folder (parallel test files never overwrite each other), which `coverage` then
 * merges.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  coverageAfterAll,
  mergeCoverageReports,
  readCoverageReport,
  writeCoverageReport,
} from '../../src/coverage/index.ts';
import { createMockHandlers } from '../../src/msw/index.ts';
import { servicePaths } from '../../src/spec-names.ts';

const scratch = mkdtempSync(join(tmpdir(), 'pck-coverage-write-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The msw handlers' mock, driven through its own fetch (what msw calls for an intercepted request). */
async function handlersThatGenerated(times: number) {
  const mock = createMockHandlers({ log: false });
  const handler = mock.handlers[0]!;
  for (let i = 0; i < times; i++) {
    const request = new Request(`${mock.baseUrl}${servicePaths.generateToken}`, {
      method: 'POST',
      headers: { 'x-client-id': 'test-client', 'x-api-key': 'test-api-key' },
    });
    const result = await handler.run({ request, requestId: String(i) });
    expect(result?.response?.status).toBe(200);
  }
  return mock;
}

describe('coverage from a test run', () => {
  it('the msw handlers answer what they exercised', async () => {
    const mock = await handlersThatGenerated(2);
    const report = mock.coverage();
    expect(report).toEqual(mock.control.coverage());
    expect(report.behaviours.filter((b) => b.covered).map((b) => [b.id, b.count])).toEqual([['token.generate', 2]]);
    await mock.close();
  });

  it('coverageAfterAll writes a file of its own per call, and the files merge', async () => {
    const dir = join(scratch, 'runs');
    const hooks: (() => void)[] = [];
    const first = await handlersThatGenerated(1);
    const second = await handlersThatGenerated(3);
    coverageAfterAll((fn) => hooks.push(fn), first, { dir });
    coverageAfterAll((fn) => hooks.push(fn), { control: second.control }, { dir });
    expect(readdirSync(scratch)).not.toContain('runs');
    for (const hook of hooks) hook();
    const files = readdirSync(dir);
    expect(files).toHaveLength(2);
    const reports = files.map((f) => readCoverageReport(JSON.parse(readFileSync(join(dir, f), 'utf8'))));
    const merged = mergeCoverageReports(reports.map((r) => (typeof r === 'string' ? expect.fail(r) : r)));
    expect(merged.behaviours.find((b) => b.id === 'token.generate')?.count).toBe(4);
    await first.close();
    await second.close();
  });

  it('writeCoverageReport writes one named file, and names it when it cannot', async () => {
    const mock = await handlersThatGenerated(0);
    const file = join(scratch, 'one', 'coverage.json');
    expect(writeCoverageReport(mock.coverage(), { file })).toBe(file);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(mock.coverage());
    expect(() => writeCoverageReport(mock.coverage(), { file: join(file, 'inside.json') })).toThrow(
      /cannot write the coverage report to .*inside\.json/,
    );
    await mock.close();
  });
});
