// `webhook listen` through its `run(argv, io)` function, in process: flags, variables and the config file mapped to
// the listener's options, --help with examples, usage mistakes as one line (exit 2), and a run on port 0 that
// prints where it listens and one line per delivery until stopped.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseWebhookListenArgs, run, webhookListenFlags } from '../../../src/cli/commands/webhook-listen.ts';
import { buildTestWebhookRequest } from '../../../src/webhook/index.ts';

const scratch = mkdtempSync(join(tmpdir(), 'pck-webhook-listen-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** An io that collects what a command writes, and resolves `line(pattern)` once a matching line is written. */
function capture() {
  const out = { stdout: '', stderr: '' };
  const waits: { pattern: RegExp; resolve: (m: RegExpExecArray) => void }[] = [];
  const check = () => {
    for (const w of [...waits]) {
      const m = w.pattern.exec(out.stdout);
      if (m) {
        waits.splice(waits.indexOf(w), 1);
        w.resolve(m);
      }
    }
  };
  const io = {
    stdout: {
      write: (t: string) => {
        out.stdout += t;
        check();
      },
    },
    stderr: { write: (t: string) => (out.stderr += t) },
  };
  const line = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve) => {
      waits.push({ pattern, resolve });
      check();
    });
  return { out, io, line };
}

describe('webhook listen flags', () => {
  it("takes the mock's test keys and port 4011 by default", () => {
    expect(parseWebhookListenArgs([], {})).toEqual({
      help: false,
      options: { port: 4011, host: '127.0.0.1', signingKey: 'test-signing-key', clientId: 'test-client' },
    });
  });

  it("reads the mock's key variables, its own port variable, and the flags over both", () => {
    const env = { PCK_WEBHOOK_SIGNING_KEY: 'env-key', PCK_CLIENT_ID: 'acme', PCK_PORT: '4010', PCK_LISTEN_PORT: '0' };
    expect(parseWebhookListenArgs([], env)).toMatchObject({
      options: { port: 0, signingKey: 'env-key', clientId: 'acme' },
    });
    const flags = ['--signing-key', 'flag-key', '--forward-to', 'http://127.0.0.1:3000/webhooks'];
    expect(parseWebhookListenArgs(flags, env)).toMatchObject({
      options: { signingKey: 'flag-key', forwardTo: 'http://127.0.0.1:3000/webhooks' },
    });
  });

  it("takes the keys of the mock's --config file: the client's own signing key, else the file's", () => {
    const path = join(scratch, 'mock.config.json');
    writeFileSync(
      path,
      JSON.stringify({
        webhookSigningKey: 'file-key',
        standardWebhooksSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        clients: [{ clientId: 'acme', apiKey: 's3cret', signingKey: 'acme-key' }],
      }),
    );
    expect(parseWebhookListenArgs(['--config', path], {})).toMatchObject({
      options: { signingKey: 'file-key', standardWebhooksSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    });
    expect(parseWebhookListenArgs(['--config', path, '--client-id', 'acme'], {})).toMatchObject({
      options: { signingKey: 'acme-key', clientId: 'acme' },
    });
  });

  it('names every flag in --help, with examples', async () => {
    const { out, io } = capture();
    expect(await run(['--help'], io)).toBe(0);
    for (const flag of webhookListenFlags) expect(out.stdout).toContain(`--${flag.name}`);
    expect(out.stdout).toContain('Examples:\n  payment-contract-kit webhook listen\n');
    expect(out.stdout).toContain('--forward-to http://127.0.0.1:3000/webhooks/payment-status');
  });

  it.each<[string[], NodeJS.ProcessEnv, RegExp]>([
    [['--port', 'x'], {}, /--port must be a whole number from 0 to 65535, got "x"/],
    [[], { PCK_LISTEN_PORT: '70000' }, /PCK_LISTEN_PORT must be a whole number/],
    [['--forward-to', 'ftp://x'], {}, /--forward-to must be an http\(s\) URL/],
    [['--signing-key', ''], {}, /--signing-key must not be empty/],
    [['--nope'], {}, /Unknown option '--nope'/],
    [['--config', join(scratch, 'missing.json')], {}, /--config: cannot read/],
  ])('refuses %j %j in one line, exit 2', async (argv, env, message) => {
    const { out, io } = capture();
    expect(await run(argv, io, { env })).toBe(2);
    expect(out.stderr).toMatch(/^\[payment-contract-kit\] webhook listen: /);
    expect(out.stderr).toMatch(message);
    expect(out.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});

describe('webhook listen running', () => {
  it('prints where it listens, one line per delivery, and stops with exit 0', async () => {
    const { io, line } = capture();
    const stop = new AbortController();
    const done = run(['--port', '0'], io, { env: {}, stop: stop.signal });
    const [, url] = await line(/^payment-contract-kit webhook listen on (http:\/\/127\.0\.0\.1:\d+)\n/m);
    const ok = buildTestWebhookRequest({ signingKey: 'test-signing-key', clientId: 'test-client' });
    expect((await fetch(`${url}/webhooks`, { method: 'POST', headers: ok.headers, body: ok.body })).status).toBe(204);
    await line(new RegExp(`^204 POST /webhooks payment ${ok.payload.uuid} success delivery \\S+ signature ok$`, 'm'));
    const bad = buildTestWebhookRequest({ signingKey: 'wrong', clientId: 'test-client' });
    expect((await fetch(`${url}/webhooks`, { method: 'POST', headers: bad.headers, body: bad.body })).status).toBe(401);
    await line(/^401 POST \/webhooks payment \S+ success delivery \S+ refused WRONG_SIGNING_KEY: /m);
    stop.abort();
    expect(await done).toBe(0);
  });

  it('says when the port is taken, exit 1', async () => {
    const first = capture();
    const stop = new AbortController();
    const done = run(['--port', '0'], first.io, { env: {}, stop: stop.signal });
    const [, port] = await first.line(/listen on http:\/\/127\.0\.0\.1:(\d+)/);
    const second = capture();
    expect(await run(['--port', port!], second.io, { env: {} })).toBe(1);
    expect(second.out.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
    stop.abort();
    expect(await done).toBe(0);
  });
});
