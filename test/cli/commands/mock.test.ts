// `mock` in process: the command's `run` with its output captured, its own variables and stop signals (a real
// process's signals, exit and built entry are test/cli/process/mock.test.ts's).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { mockFlags, parseMockArgs, run, startFailure } from '../../../src/cli/commands/mock.ts';
import { main } from '../../../src/cli/dispatch.ts';
import { captureIo, inProcessServers, testProcess } from '../../support/cli-in-process.ts';

const projectRoot = resolve(import.meta.dirname, '../../..');
const servers = inProcessServers();
/** `payment-contract-kit mock <args>` in process, with `env` as its environment. */
const startMock = (args: readonly string[], env: NodeJS.ProcessEnv = {}) =>
  servers.start((io, process) => run(args, { io, process }), env);
/** A command line that ends by itself (help, usage errors, --version): the mock's `run`, or the dispatch's. */
async function cli(args: readonly string[]) {
  const c = captureIo();
  const code =
    args[0] === 'mock' ? await run(args.slice(1), { io: c.io, process: testProcess() }) : await main(args, c.io);
  return { code, out: c.out(), err: c.err() };
}
const scratch = mkdtempSync(join(tmpdir(), 'pck-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
function badJson(): string {
  const file = join(scratch, 'bad.json');
  writeFileSync(file, '{ "clients": [');
  return file;
}
function badShape(): string {
  const file = join(scratch, 'shape.json');
  writeFileSync(file, JSON.stringify({ client: [] }));
  return file;
}
afterEach(() => servers.stopAll());

describe('payment-contract-kit mock (in process)', () => {
  it('prints one line with the base URL, serves, and exits 0 on SIGTERM', async () => {
    const mock = startMock(['--port', '0']);
    const url = await mock.url;
    const res = await fetch(`${url}/api/v2/accounting/token/generate-token`, {
      method: 'POST',
      headers: { 'x-client-id': 'test-client', 'x-api-key': 'test-api-key' },
    });
    expect(res.status).toBe(200);
    mock.process.signal('SIGTERM');
    expect(await mock.exited).toBe(0);
    expect(mock.out().trim().split('\n')).toEqual([`payment-contract-kit mock listening on ${url}`]);
    // The request log went to standard error and was flushed before the command ended.
    expect(mock.err()).toContain('POST /api/v2/accounting/token/generate-token - 200');
  });

  it('--log json (or PCK_LOG=json) writes one JSON object per request on standard error, card numbers masked', async () => {
    for (const [args, env] of [
      [['--log', 'json'], {}],
      [[], { PCK_LOG: 'json' }],
    ] as const) {
      const mock = startMock(['--port', '0', ...args], env);
      const url = await mock.url;
      await fetch(`${url}/api/v2/accounting/token/generate-token`, {
        method: 'POST',
        headers: { 'x-client-id': 'test-client', 'x-api-key': 'test-api-key' },
      });
      await fetch(`${url}/cards/4111111111111111`);
      mock.process.signal('SIGTERM');
      expect(await mock.exited).toBe(0);
      const lines = mock
        .err()
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines).toEqual([
        expect.objectContaining({ level: 'info', status: 200, client_id: 'test-client', reason: null }),
        expect.objectContaining({ level: 'warn', method: 'GET', path: '/cards/411111******1111', status: 404 }),
      ]);
      expect(mock.err()).not.toContain('4111111111111111');
    }
  });

  it('exits 0 on SIGINT and honours PCK_* variables and flags', async () => {
    const mock = startMock(['--quiet', '--client-id', 'acme'], { PCK_PORT: '0', PCK_API_KEY: 'k' });
    const url = await mock.url;
    const res = await fetch(`${url}/api/v2/accounting/token/generate-token`, {
      method: 'POST',
      headers: { 'x-client-id': 'acme', 'x-api-key': 'k' },
    });
    expect(res.status).toBe(200);
    mock.process.signal('SIGINT');
    expect(await mock.exited).toBe(0);
    expect(mock.err()).toBe('');
  });

  it('starts on 0.0.0.0 with PCK_CONTROL_TOKEN and guards /__pck/ with it', async () => {
    const mock = startMock(['--quiet', '--port', '0', '--host', '0.0.0.0'], {
      PCK_CONTROL_TOKEN: 'cli-control-secret',
    });
    const url = (await mock.url).replace('0.0.0.0', '127.0.0.1');
    expect((await fetch(`${url}/__pck/health`)).status).toBe(401);
    const authorized = await fetch(`${url}/__pck/health`, { headers: { authorization: 'Bearer cli-control-secret' } });
    expect(authorized.status).toBe(200);
    mock.process.signal('SIGTERM');
    expect(await mock.exited).toBe(0);
  });

  it('--help lists every flag with its environment variable and examples', async () => {
    const help = await cli(['mock', '--help']);
    expect(help.code).toBe(0);
    for (const flag of mockFlags) {
      expect(help.out).toContain(`--${flag.name}`);
      if (flag.env) expect(help.out).toContain(flag.env);
    }
    expect(help.out).toContain('Examples:');
  });

  it.each([
    [['mock', '--bogus'], "Unknown option '--bogus'"],
    [['mock', '--port', 'abc'], '--port must be a whole number'],
    [['mock', '--guide', 'old'], '--guide must be current, legacy or both'],
    [['mock', '--log', 'xml'], '--log must be text or json'],
    [['mock', '--latency', '9-1'], '--latency must be'],
    [['mock', '--webhook-url', 'ftp://x'], '--webhook-url must be an http(s) URL'],
    [['mock', '--port', '0', '--host', '0.0.0.0'], 'refusing to listen on 0.0.0.0 without a control token'],
    [['mock', '--port', '0', '--host', '192.168.77.10'], 'Set one with PCK_CONTROL_TOKEN=<secret>'],
    [['nope'], 'Unknown command "nope"'],
    [['--bogus'], 'Unknown option "--bogus"'],
    [['mock', '--config', join(tmpdir(), 'pck-no-such-config.json')], '--config: cannot read'],
    [['mock', '--config', badJson()], 'is not valid JSON'],
    [['mock', '--config', badShape()], 'unknown key "client"'],
  ])('exits 2 with one clear line for %j', async (args, message) => {
    const { code, out, err } = await cli(args);
    expect(code).toBe(2);
    expect(err).toMatch(/^\[payment-contract-kit\] /);
    expect(err).toContain(message);
    expect(err.trimEnd().split('\n')).toHaveLength(1);
    expect(out).toBe('');
  });

  it('exits 1 with one line naming the port when the port is busy', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const { port } = busy.address() as { port: number };
    try {
      const mock = startMock(['--port', String(port)]);
      expect(await mock.exited).toBe(1);
      expect(mock.err().trimEnd().split('\n')).toEqual([
        expect.stringMatching(
          new RegExp(`^\\[payment-contract-kit\\] .*[Pp]ort ${port} on 127\\.0\\.0\\.1 is already in use`),
        ),
      ]);
    } finally {
      await new Promise((r) => busy.close(r));
    }
  });

  it.each([['--version'], ['-v']])('%s prints the version from package.json', async (flag) => {
    const { code, out } = await cli([flag]);
    expect(code).toBe(0);
    const { version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8'));
    expect(out).toBe(`${version}\n`);
  });
});

describe('startFailure', () => {
  it.each([
    ['EADDRINUSE', 'port 4010 on 127.0.0.1 is already in use'],
    ['EACCES', 'port 4010 on 127.0.0.1 needs privileges'],
    ['EADDRNOTAVAIL', 'is not an address of this machine'],
  ])('words the listen error %s from its code, on one line', (code, text) => {
    const error = Object.assign(new Error(`listen ${code}: 127.0.0.1:4010\n    at stack`), { code });
    const line = startFailure(error, {});
    expect(line).toMatch(/^\[payment-contract-kit\] mock: /);
    expect(line).toContain(text);
    expect(line).not.toContain('\n');
  });

  it('keeps the first line of any other error, prefixed once', () => {
    expect(startFailure(new TypeError('[payment-contract-kit] assumptions.feeTable: bad\nmore'), {})).toBe(
      '[payment-contract-kit] assumptions.feeTable: bad',
    );
    expect(startFailure(new Error('boom\nstack'), {})).toBe('[payment-contract-kit] mock: boom');
  });
});

describe('npm start', () => {
  it('says on stderr that it builds, then builds quietly (tsup --silent), so the URL line and the request log follow', () => {
    const { scripts } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8'));
    // The build takes a minute or more with no output of its own: one line says what the wait is.
    const [progress, ...rest] = scripts.start.split(' && ');
    // console.error: its newline needs no escape, which Windows' cmd would pass on as typed.
    expect(progress).toMatch(/^node -e "console\.error\('\[payment-contract-kit\] building the kit [^']*'\)"$/);
    expect(rest.join(' && ')).toBe('npm run build --silent -- --silent && node dist/cli/index.js mock');
    // The build script must end with tsup, so the forwarded --silent reaches it.
    expect(scripts.build).toMatch(/&& tsup$/);
  });
});

describe('parseMockArgs', () => {
  const env = {};
  it('maps every flag to the programmatic options', () => {
    const parsed = parseMockArgs(
      [
        '--port',
        '0',
        '--host',
        '0.0.0.0',
        '--client-id',
        'c',
        '--api-key',
        'k',
        '--guide',
        'both',
        '--token-ttl',
        '60',
        '--webhook-url',
        'http://a.test/h',
        '--webhook-url',
        'https://b.test/h',
        '--webhook-signing-key',
        'sk',
        '--strict-generate',
        '--settle-delay',
        '0',
        '--latency',
        '5-10',
        '--seed',
        's',
        '--quiet',
        '--log',
        'json',
      ],
      env,
    );
    expect(parsed).toEqual({
      help: false,
      options: {
        port: 0,
        host: '0.0.0.0',
        clients: [{ clientId: 'c', apiKey: 'k' }],
        guide: 'both',
        tokenTtlSeconds: 60,
        webhookUrls: ['http://a.test/h', 'https://b.test/h'],
        webhookSigningKey: 'sk',
        strictGenerate: true,
        settleDelayMs: 0,
        latency: { minMs: 5, maxMs: 10 },
        seed: 's',
        requestLog: false,
        logFormat: 'json',
      },
    });
  });

  it('reads PCK_* variables, flags winning', () => {
    const parsed = parseMockArgs(['--port', '5000'], {
      PCK_PORT: '1',
      PCK_GUIDE: 'legacy',
      PCK_WEBHOOK_URL: 'http://a.test/1, http://a.test/2',
      PCK_STRICT_GENERATE: 'true',
      PCK_LATENCY: '20',
    });
    expect(parsed).toMatchObject({
      options: {
        port: 5000,
        guide: 'legacy',
        webhookUrls: ['http://a.test/1', 'http://a.test/2'],
        strictGenerate: true,
        latency: { minMs: 20, maxMs: 20 },
      },
    });
  });

  it('adds the clients and assumptions of --config', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pck-cli-'));
    const file = join(dir, 'mock.json');
    writeFileSync(
      file,
      JSON.stringify({
        clients: [{ clientId: 'acme', apiKey: 'a', webhookUrls: ['http://a.test/h'], signingKey: 'x' }],
        assumptions: { graphqlErrorHttpStatus: 400 },
      }),
    );
    expect(parseMockArgs(['--config', file], env)).toMatchObject({
      options: {
        clients: [
          { clientId: 'test-client', apiKey: 'test-api-key' },
          { clientId: 'acme', apiKey: 'a', webhookUrls: ['http://a.test/h'], signingKey: 'x' },
        ],
        assumptions: { graphqlErrorHttpStatus: 400 },
      },
    });
    writeFileSync(file, '{"assumptions":{"nope":1}}');
    expect(() => parseMockArgs(['--config', file], env)).toThrow(/--config: unknown assumption "nope"/);
    expect(() => parseMockArgs(['--config', join(dir, 'missing.json')], env)).toThrow(/--config: cannot read/);
  });

  it.each<[string, string, 'limits' | 'bounds' | 'history', string]>([
    ['--max-body-bytes', 'PCK_MAX_BODY_BYTES', 'limits', 'maxBodyBytes'],
    ['--max-json-depth', 'PCK_MAX_JSON_DEPTH', 'limits', 'maxJsonDepth'],
    ['--max-tokens', 'PCK_MAX_TOKENS', 'limits', 'maxTokens'],
    ['--max-query-depth', 'PCK_MAX_QUERY_DEPTH', 'limits', 'maxDepth'],
    ['--max-aliases', 'PCK_MAX_ALIASES', 'limits', 'maxAliases'],
    ['--max-directives', 'PCK_MAX_DIRECTIVES', 'limits', 'maxDirectives'],
    ['--max-cost', 'PCK_MAX_COST', 'limits', 'maxCost'],
    ['--max-text-length', 'PCK_MAX_TEXT_LENGTH', 'bounds', 'maxTextLength'],
    ['--max-metadata-bytes', 'PCK_MAX_METADATA_BYTES', 'bounds', 'maxMetadataBytes'],
    ['--max-metadata-depth', 'PCK_MAX_METADATA_DEPTH', 'bounds', 'maxMetadataDepth'],
    ['--max-payments', 'PCK_MAX_PAYMENTS', 'history', 'maxPaymentsPerClient'],
    ['--max-deliveries', 'PCK_MAX_DELIVERIES', 'history', 'maxDeliveries'],
    ['--max-pending-deliveries', 'PCK_MAX_PENDING_DELIVERIES', 'history', 'maxPendingDeliveries'],
    ['--max-attempts-kept', 'PCK_MAX_ATTEMPTS_KEPT', 'history', 'maxAttemptsPerDelivery'],
  ])('%s (and %s) sets assumptions.%s.%s', (flag, variable, group, key) => {
    expect(parseMockArgs([flag, '7'], env)).toMatchObject({ options: { assumptions: { [group]: { [key]: 7 } } } });
    expect(parseMockArgs([], { ...env, [variable]: '8' })).toMatchObject({
      options: { assumptions: { [group]: { [key]: 8 } } },
    });
    expect(() => parseMockArgs([flag, '0'], env)).toThrow(`${flag} must be a whole number from 1`);
    expect(() => parseMockArgs([flag, '1.5'], env)).toThrow(`${flag} must be a whole number from 1`);
  });

  it('--journal-size (and PCK_JOURNAL_SIZE) sets the journalSize option', () => {
    expect(parseMockArgs(['--journal-size', '50'], env)).toMatchObject({ options: { journalSize: 50 } });
    expect(parseMockArgs([], { ...env, PCK_JOURNAL_SIZE: '60' })).toMatchObject({ options: { journalSize: 60 } });
    expect(() => parseMockArgs(['--journal-size', '0'], env)).toThrow('--journal-size must be a whole number from 1');
  });

  it('history caps from the --config file merge with the flags, value by value', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pck-cli-'));
    const file = join(dir, 'mock.json');
    writeFileSync(file, JSON.stringify({ assumptions: { history: { maxDeliveries: 500, maxPendingDeliveries: 9 } } }));
    expect(parseMockArgs(['--config', file, '--max-pending-deliveries', '100'], env)).toMatchObject({
      options: { assumptions: { history: { maxDeliveries: 500, maxPendingDeliveries: 100 } } },
    });
  });

  it('limit flags win over the --config file, value by value', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pck-cli-'));
    const file = join(dir, 'mock.json');
    writeFileSync(
      file,
      JSON.stringify({ assumptions: { limits: { maxAliases: 5, maxCost: 9 }, tokenTtlSeconds: 30 } }),
    );
    expect(parseMockArgs(['--config', file, '--max-aliases', '6'], env)).toMatchObject({
      options: { assumptions: { limits: { maxAliases: 6, maxCost: 9 }, tokenTtlSeconds: 30 } },
    });
  });
});
