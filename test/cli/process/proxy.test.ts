// `proxy` as a real process: one smoke test of the CLI entry, docs/proxy.md's recipe in front of the CLI's own mock,
// and the exit code a CI job sees after a signal. Every flag, message and exit code is pinned in process by
// test/cli/commands/proxy.test.ts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../../src/mock/index.ts';
import { serviceHeaders, servicePaths } from '../../../src/spec-names.ts';
import {
  credentials,
  gql,
  json,
  jsonHeaders,
  queries,
  rawRequest,
  sendJson,
  startStandIn,
} from '../../proxy/support.ts';
import { cliProcesses, projectRoot } from '../../support/cli-process.ts';

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

  // Needs two processes: docs/proxy.md's recipe, the CLI's mock behind the CLI's proxy, as a reader runs it.
  it("docs/proxy.md's recipe: the proxy in front of the kit's own mock forwards, and reports no drift", async () => {
    const page = readFileSync(join(projectRoot, 'docs/proxy.md'), 'utf8');
    const recipe = [...page.matchAll(/```sh\n([\s\S]*?)```/g)]
      .map((m) => m[1]!)
      .find((block) => block.includes('proxy --upstream http://127.0.0.1:4010'));
    const commands = recipe
      ?.split('\n')
      .filter((line) => line.startsWith('npx payment-contract-kit '))
      .map((line) => line.replace(/#.*$/, '').replace(/&\s*$/, '').trim().split(/\s+/).slice(2));
    expect(commands?.map((c) => c[0])).toEqual(['mock', 'proxy']);
    const [mockArgs, proxyArgs] = commands as [string[], string[]];
    // Free ports instead of the page's 4010 and 4020 (tests never bind fixed ports), the report in a scratch folder.
    const documentedMock = mockArgs.map((a) => (a === '4010' ? '0' : a));
    const upstream = processes.spawnCli(documentedMock);
    const upstreamUrl = await upstream.url;
    const report = join(scratch, 'recipe-drift.json');
    const proxy = processes.spawnCli(
      proxyArgs.map((a) =>
        a === 'http://127.0.0.1:4010' ? upstreamUrl : a === '4020' ? '0' : a === 'drift.json' ? report : a,
      ),
    );
    const url = await proxy.url;
    const token = json(await rawRequest(url, { path: servicePaths.generateToken, headers: credentials })).data.token;
    const fees = await rawRequest(url, {
      path: servicePaths.graphql,
      headers: { ...jsonHeaders, [serviceHeaders.jwt]: token },
      body: gql(queries.fees, { amount: 100 }),
    });
    expect(json(fees).data.paymentGatewayFeesCalc.length).toBeGreaterThan(0);
    proxy.child.kill('SIGINT');
    expect(await proxy.exited).toBe(0);
    expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({ exchanges: 2, drifts: [] });
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
