// `proxy` in process: the command's `run` with its output captured, its own variables and stop signals (a real
// process's signals and exit code are test/cli/process/proxy.test.ts's).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseProxyArgs, proxyFlags, proxyHelp, run } from '../../../src/cli/commands/proxy.ts';
import { type MockServer, startMockServer } from '../../../src/mock/index.ts';
import { servicePaths } from '../../../src/spec-names.ts';
import { credentials, json, rawRequest, sendJson, startStandIn } from '../../proxy/support.ts';
import { captureIo, inProcessServers, testProcess } from '../../support/cli-in-process.ts';

const projectRoot = resolve(import.meta.dirname, '../../..');
const servers = inProcessServers();
/** `payment-contract-kit proxy <args>` in process, with `env` as its environment. */
const proxyCli = (args: readonly string[], env: NodeJS.ProcessEnv = {}) =>
  servers.start((io, process) => run(args, io, process), env);
const scratch = mkdtempSync(join(tmpdir(), 'pck-cli-proxy-'));
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, log: false });
});
afterAll(async () => {
  await mock.close();
  rmSync(scratch, { recursive: true, force: true });
});
afterEach(() => servers.stopAll());

describe('payment-contract-kit proxy (in process)', () => {
  it('prints one line with its URL, forwards, and on SIGTERM writes the report and the recording and exits 0', async () => {
    const report = join(scratch, 'clean.json');
    const record = join(scratch, 'clean.har');
    const proxy = proxyCli(['--upstream', mock.url, '--report', report, '--record', record, '--fail-on-drift']);
    const url = await proxy.url;
    const answer = await rawRequest(url, { path: servicePaths.generateToken, headers: credentials });
    expect(answer.status).toBe(200);
    const live = json(await rawRequest(url, { method: 'GET', path: '/__pck/drift' }));
    expect(live).toMatchObject({ exchanges: 1, drifts: [], suggestedConfig: { assumptions: {} } });
    proxy.process.signal('SIGTERM');
    expect(await proxy.exited).toBe(0);
    expect(proxy.out().trim().split('\n')).toEqual([`payment-contract-kit proxy listening on ${url}`]);
    expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({ exchanges: 1, drifts: [] });
    const har = JSON.parse(readFileSync(record, 'utf8'));
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries[0].request.url).toBe(`${mock.url}${servicePaths.generateToken}`);
    expect(proxy.err()).toContain(`#1 POST ${servicePaths.generateToken} - 200`);
    expect(proxy.err()).toContain('proxy: 1 exchange, no drift.');
    expect(proxy.err()).toContain(`wrote ${report}.`);
  });

  it('--fail-on-drift exits 1 at stop after a contract drift, which the text summary names as it happens', async () => {
    const service = await startStandIn((_req, _body, res) => sendJson(res, 200, { status: 'SUCCESS', data: {} }));
    try {
      const report = join(scratch, 'drift.json');
      const proxy = proxyCli(['--fail-on-drift', '--report', report], {
        PCK_UPSTREAM: service.url,
        PCK_PORT: '0',
      });
      const url = await proxy.url;
      await rawRequest(url, { path: servicePaths.generateToken, headers: credentials });
      proxy.process.signal('SIGINT');
      expect(await proxy.exited).toBe(1);
      expect(proxy.err()).toMatch(
        /\[payment-contract-kit\] proxy: contract drift in #1 POST \S+generate-token .* at data\.token/,
      );
      const written = JSON.parse(readFileSync(report, 'utf8'));
      expect(written.drifts.map((d: { kind: string; path: string }) => [d.kind, d.path])).toContainEqual([
        'contract',
        'data.token',
      ]);
    } finally {
      await service.close();
    }
  });

  it('--log json writes one JSON object per exchange; --quiet writes nothing', async () => {
    const proxy = proxyCli(['--upstream', mock.url, '--log', 'json']);
    const url = await proxy.url;
    await rawRequest(url, { path: servicePaths.generateToken, headers: credentials });
    proxy.process.signal('SIGTERM');
    expect(await proxy.exited).toBe(0);
    const first = JSON.parse(proxy.err().split('\n')[0]!);
    expect(first).toMatchObject({ level: 'info', seq: 1, method: 'POST', status: 200, drifts: 0 });
    const quiet = proxyCli(['--upstream', mock.url, '--quiet']);
    await rawRequest(await quiet.url, { path: servicePaths.generateToken, headers: credentials });
    quiet.process.signal('SIGTERM');
    expect(await quiet.exited).toBe(0);
    expect(quiet.err()).toBe('');
  });

  it.each([
    [[], /--upstream is required/],
    [['--upstream', 'http://x', '--nope'], /Unknown option '--nope'/],
  ])('usage error %j exits 2 with one line', async (args, message) => {
    const c = captureIo();
    expect(await run(args, c.io, testProcess())).toBe(2);
    expect(c.err()).toMatch(message);
    expect(c.err().trim().split('\n')).toHaveLength(1);
    expect(c.err()).toMatch(/^\[payment-contract-kit\] /);
  });
});

describe('proxy flags', () => {
  it('docs/options.md lists every flag with its variable', () => {
    const page = readFileSync(join(projectRoot, 'docs/options.md'), 'utf8');
    const section = page.slice(page.indexOf('## The proxy'), page.indexOf('## `verify`'));
    for (const f of proxyFlags.filter((flag) => flag.name !== 'help')) {
      expect(section).toContain(`\`--${f.name}`);
      expect(section).toContain(`\`${f.env}\``);
    }
  });

  it.each([
    [['--upstream', 'ftp://x'], /--upstream must be an http\(s\) base URL/],
    [['--upstream', 'http://x?a=1'], /--upstream must be an http\(s\) base URL without query/],
    [['--upstream', 'http://x', '--guide', 'old'], /--guide must be current, legacy or both/],
    [['--upstream', 'http://x', '--port', '70000'], /--port must be a whole number from 0 to 65535/],
    [['--upstream', 'http://x', '--upstream-timeout', '0'], /--upstream-timeout must be a whole number from 1/],
    [['--upstream', 'http://x', '--max-body-bytes', 'lots'], /--max-body-bytes must be a whole number from 1/],
    [['--upstream', 'http://x', '--forward-webhooks', 'nope'], /--forward-webhooks must be an http\(s\) URL/],
    [['--upstream', 'http://x', '--webhook-path', 'hooks'], /--webhook-path must be a path starting with "\/"/],
    [['--upstream', 'http://x', '--log', 'xml'], /--log must be text or json/],
    [['--upstream', 'http://x', '--config', '/nonexistent.json'], /--config: cannot read/],
  ])('%j is a usage error naming the flag', (args, message) => {
    expect(() => parseProxyArgs(args, {})).toThrow(message);
  });

  it('has a PCK_ variable for every flag but --help, and the help lists each', () => {
    const help = proxyHelp();
    for (const f of proxyFlags) {
      expect(help).toContain(`--${f.name}`);
      if (f.name !== 'help') expect(f.env).toMatch(/^PCK_[A-Z_]+$/);
    }
  });

  it('maps flags over environment variables over defaults', () => {
    const parsed = parseProxyArgs(
      ['--upstream', 'http://a:1', '--forward-webhooks', 'http://r/1', '--forward-webhooks', 'http://r/2'],
      {
        PCK_UPSTREAM: 'http://b:2',
        PCK_GUIDE: 'legacy',
        PCK_FAIL_ON_DRIFT: '1',
      },
    );
    if (parsed.help) throw new Error('help');
    expect(parsed.proxy).toMatchObject({
      upstream: 'http://a:1',
      guide: 'legacy',
      forwardWebhooks: ['http://r/1', 'http://r/2'],
    });
    expect(parsed.failOnDrift).toBe(true);
  });
});
