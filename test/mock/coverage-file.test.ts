/**
 * `coverageFile` / `--coverage-file`: the report is written when the mock stops, on `close()` and on the CLI's
 * SIGTERM and SIGINT, folders created; a path that cannot be written is an error naming it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/commands/mock.ts';
import { readCoverageReport } from '../../src/contract/coverage/report.ts';
import { startMockServer } from '../../src/mock/index.ts';
import { servicePaths } from '../../src/spec-names.ts';
import { inProcessServers } from '../support/cli-in-process.ts';
import { credentials } from './helpers.ts';

const scratch = mkdtempSync(join(tmpdir(), 'pck-coverage-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const servers = inProcessServers();
afterEach(() => servers.stopAll());

const generate = (url: string) =>
  fetch(`${url}${servicePaths.generateToken}`, { method: 'POST', headers: credentials });
function coveredIn(file: string): string[] {
  const report = readCoverageReport(JSON.parse(readFileSync(file, 'utf8')));
  if (typeof report === 'string') throw new Error(report);
  return report.behaviours.filter((b) => b.covered).map((b) => b.id);
}

describe('the coverage file', () => {
  it('startMockServer writes it on close, creating its folder', async () => {
    const file = join(scratch, 'server', 'nested', 'coverage.json');
    const mock = await startMockServer({ port: 0, log: false, coverageFile: file });
    await generate(mock.url);
    await mock.close();
    expect(coveredIn(file)).toEqual(['token.generate']);
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    it(`the CLI mock writes it on ${signal}`, async () => {
      const file = join(scratch, `cli-${signal}.json`);
      const mock = servers.start((io, process) =>
        run(['--port', '0', '--quiet', '--coverage-file', file], { io, process }),
      );
      const url = await mock.url;
      await generate(url);
      await generate(url);
      mock.process.signal(signal);
      expect(await mock.exited).toBe(0);
      expect(coveredIn(file)).toEqual(['token.generate']);
      const report = JSON.parse(readFileSync(file, 'utf8'));
      expect(report.behaviours.find((b: { id: string }) => b.id === 'token.generate').count).toBe(2);
    });

  it('PCK_COVERAGE_FILE sets it too', async () => {
    const file = join(scratch, 'env.json');
    const mock = servers.start((io, process) => run(['--port', '0', '--quiet'], { io, process }), {
      PCK_COVERAGE_FILE: file,
    });
    await mock.url;
    mock.process.signal('SIGTERM');
    expect(await mock.exited).toBe(0);
    expect(coveredIn(file)).toEqual([]);
  });

  it('a path that cannot be written fails the stop, naming the file', async () => {
    const blocker = join(scratch, 'a-file');
    writeFileSync(blocker, '');
    const mock = await startMockServer({ port: 0, log: false, coverageFile: join(blocker, 'coverage.json') });
    await expect(mock.close()).rejects.toThrow(/cannot write the coverage report to .*a-file/);
  });
});
