// `proxy` as a real process: one smoke test of the CLI entry, and the exit code a CI job sees after a signal. Every
// flag, message and exit code is pinned in process by test/cli/proxy.test.ts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../../src/mock/index.ts';
import { servicePaths } from '../../../src/spec-names.ts';
import { credentials, rawRequest, sendJson, startStandIn } from '../../proxy/support.ts';
import { cliProcesses } from '../../support/cli-process.ts';

const processes = cliProcesses();
const scratch = mkdtempSync(join(tmpdir(), 'pck-cli-proxy-process-'));
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, log: false });
});
afterAll(async () => {
  await mock.close();
  rmSync(scratch, { recursive: true, force: true });
});
afterEach(() => processes.killAll());

describe('payment-contract-kit proxy (process)', () => {
  // Needs a process: a real SIGTERM reaching the command's handler, the report written before the process ends, and
  // the exit code main.ts sets.
  it('forwards to the upstream on the printed URL, and on SIGTERM writes its report and exits 0', async () => {
    const report = join(scratch, 'clean.json');
    const proxy = processes.spawnCli(['proxy', '--upstream', mock.url, '--report', report]);
    const url = await proxy.url;
    const answer = await rawRequest(url, { path: servicePaths.generateToken, headers: credentials });
    expect(answer.status).toBe(200);
    proxy.child.kill('SIGTERM');
    expect(await proxy.exited).toBe(0);
    expect(proxy.out().trim().split('\n')).toEqual([`payment-contract-kit proxy listening on ${url}`]);
    expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({ exchanges: 1, drifts: [] });
    expect(proxy.err()).toContain('proxy: 1 exchange, no drift.');
  });

  // Needs a process: --fail-on-drift's 1 after SIGINT reaches CI only as the process's exit status, set by main.ts
  // after the signal and kept by the forced exit.
  it('--fail-on-drift ends the process with status 1 on SIGINT after a contract drift', async () => {
    const service = await startStandIn((_req, _body, res) => sendJson(res, 200, { status: 'SUCCESS', data: {} }));
    try {
      const proxy = processes.spawnCli(['proxy', '--fail-on-drift'], { PCK_UPSTREAM: service.url, PCK_PORT: '0' });
      await rawRequest(await proxy.url, { path: servicePaths.generateToken, headers: credentials });
      proxy.child.kill('SIGINT');
      expect(await proxy.exited).toBe(1);
      expect(proxy.err()).toMatch(/\[payment-contract-kit\] proxy: contract drift in #1 POST \S+generate-token/);
    } finally {
      await service.close();
    }
  });
});
