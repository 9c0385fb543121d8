// The single executable (npm run build:binary) as a team without Node meets it: built once for this run (from the
// sources and the pages `npm run build` wrote to dist/ui/), then run with a PATH holding one temporary folder with
// nothing in it but the executable and, for the outside verification, Pact's own standalone CLI (a Rust binary): no
// node, no npm, no shell tools, and no environment inherited from this process.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryFileName } from '../../scripts/release.ts';
import { providerStates } from '../../src/contract/provider-state-names.ts';
import { defaultCredentials, pactControlPaths, serviceHeaders, servicePaths } from '../../src/spec-names.ts';
import { payInput } from '../mock/helpers.ts';

const root = join(import.meta.dirname, '../..');
const contractsDir = join(root, 'contracts');
const executableName = process.platform === 'win32' ? 'payment-contract-kit.exe' : 'payment-contract-kit';
const built = join(root, 'dist/bin', executableName);
// Pact's standalone CLI for this platform (a devDependency's platform package), if the platform has one.
const pactStandalone = join(
  root,
  `node_modules/@pact-foundation/pact-cli-${process.platform}-${process.arch}/standalone/pact`,
);

// python3 for the page's Python example, found here: the example runs with the bare PATH, which holds no python.
const python3 = ['/usr/bin/python3', '/usr/local/bin/python3'].find((path) => existsSync(path));

let scratch: string;
let binDir: string;
let exe: string;
const children = new Set<ChildProcess>();

/** The only environment the executable gets: a PATH without node, and a home. */
function bareEnv(): NodeJS.ProcessEnv {
  return { PATH: binDir, HOME: scratch, PACT_DO_NOT_TRACK: 'true' };
}

/** Runs a program from the bare PATH to its end. */
function runBare(program: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(program, [...args], { env: bareEnv(), cwd: scratch }, (error, stdout, stderr) => {
      const code = error === null ? 0 : (error as { code?: unknown }).code;
      if (typeof code !== 'number') reject(error);
      else resolve({ code, stdout, stderr });
    });
  });
}

/** Starts the executable's mock; resolves with its base URL from the line it prints. */
async function startMock(args: readonly string[]): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  const child = spawn(exe, ['mock', '--port', '0', ...args], { env: bareEnv(), cwd: scratch });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const m = /listening on (http:\/\/\S+)/.exec(stdout);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`the executable's mock exited with ${code}: ${stderr}`)));
  });
  return { url, child, stderr: () => stderr };
}

/** Stops a started mock with SIGTERM; resolves with its exit code. */
function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.on('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

/** A webhook receiver on port 0: every POST body it took, and a wait for one that matches. */
async function startReceiver() {
  const bodies: { headers: IncomingMessage['headers']; body: string }[] = [];
  const waiters: { match: (body: string) => boolean; resolve: (body: string) => void }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => {
      body += d;
    });
    req.on('end', () => {
      bodies.push({ headers: req.headers, body });
      for (const w of waiters.filter((x) => x.match(body))) w.resolve(body);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    bodies,
    received: (match: (body: string) => boolean) =>
      new Promise<string>((resolve) => {
        const seen = bodies.find((b) => match(b.body));
        if (seen) resolve(seen.body);
        else waiters.push({ match, resolve });
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'pck-binary-test-'));
  binDir = join(scratch, 'bin');
  exe = join(binDir, executableName);
  const started = performance.now();
  // Where `npm run build:binary` writes it, so the packing test sees it beside the npm package's files.
  const buildErrors = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', join(root, 'scripts/build-binary.ts')],
      { cwd: root },
      (error, _stdout, stderr) => (error ? reject(new Error(`build-binary failed: ${stderr}`)) : resolve(stderr)),
    ),
  );
  // postject's LIEF warns about Node's unnamed note sections, and Node announces the blob it wrote; the build drops
  // those lines (scripts/quiet-inject.ts) and prints nothing else on success.
  expect(buildErrors).not.toMatch(/Can't find string offset/);
  expect(buildErrors).not.toMatch(/preparation blob/);
  console.log(
    `[payment-contract-kit] single executable built in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  mkdirSync(binDir);
  copyFileSync(built, exe);
  if (existsSync(pactStandalone)) copyFileSync(pactStandalone, join(binDir, 'pact'));
  // The PATH the executable runs with holds no node: only what this test put there.
  expect(readdirSync(binDir).filter((f) => /^node(\.exe)?$/.test(f))).toEqual([]);
}, 300_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('the single executable, with no node on PATH', () => {
  it('stays out of the npm package, which is unchanged', async () => {
    const packed = await new Promise<string>((resolve, reject) =>
      execFile('npm', ['pack', '--dry-run', '--json'], { cwd: root }, (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      ),
    );
    const paths = (JSON.parse(packed) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    expect(existsSync(built)).toBe(true);
    expect(paths).toContain('dist/cli/index.js');
    expect(paths.filter((p) => p.startsWith('dist/bin'))).toEqual([]);
  }, 60_000);

  it('npm run release: writes the npm tarball, this executable and their SHA256SUMS into one folder', async () => {
    // The release script with the executable built above (--binary), so the test builds it once; `npm run release`
    // builds it the same way (scripts/build-binary.ts --out).
    const out = join(scratch, 'release');
    await new Promise<void>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', join(root, 'scripts/release.ts'), '--out', out, '--binary', built],
        { cwd: root },
        (error, _stdout, stderr) => (error ? reject(new Error(`release failed: ${stderr}`)) : resolve()),
      ),
    );
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    const tarball = `payment-contract-kit-${version}.tgz`;
    expect(readdirSync(out).sort()).toEqual(['SHA256SUMS', binaryFileName(), tarball].sort());
    const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
    expect(sha256(join(out, binaryFileName()))).toBe(sha256(built));
    // sha256sum's own format, so `sha256sum -c SHA256SUMS` checks the folder.
    expect(readFileSync(join(out, 'SHA256SUMS'), 'utf8')).toBe(
      [tarball, binaryFileName()]
        .sort()
        .map((name) => `${sha256(join(out, name))}  ${name}\n`)
        .join(''),
    );
  }, 120_000);

  it('prints its version and its commands, and every command it lists answers --help', async () => {
    const version = await runBare(exe, ['--version']);
    expect(version).toMatchObject({ code: 0, stderr: '' });
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);

    const help = await runBare(exe, ['--help']);
    expect(help.code).toBe(0);
    // The command list, as the CLI prints it ("  <name>  <summary>" under "Commands:"): commands added to the CLI
    // are in the executable and in this loop with no change here.
    const list = help.stdout.split('Commands:\n')[1]!.split('\n\n')[0]!;
    const commands = list.split('\n').map((line) => line.trim().split(/\s{2,}/)[0]!);
    expect(commands).toEqual(expect.arrayContaining(['mock', 'webhook send', 'verify']));
    for (const command of commands) {
      const answer = await runBare(exe, [...command.split(' '), '--help']);
      expect(answer.code, `${command} --help: ${answer.stderr}`).toBe(0);
      expect(answer.stdout).toContain(`Usage: payment-contract-kit ${command}`);
    }
  }, 60_000);

  it('mock: prints its base URL, takes a token, fees and a payment, delivers the webhook, sets up a provider state, serves its files and pages', async () => {
    const receiver = await startReceiver();
    const mock = await startMock(['--webhook-url', receiver.url, '--settle-delay', '0']);
    try {
      const { url } = mock;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const tokenAnswer = await fetch(`${url}${servicePaths.generateToken}`, {
        method: 'POST',
        headers: {
          [serviceHeaders.clientId]: defaultCredentials.clientId,
          [serviceHeaders.apiKey]: defaultCredentials.apiKey,
        },
      });
      expect(tokenAnswer.status).toBe(200);
      const token = ((await tokenAnswer.json()) as { data: { token: string } }).data.token;
      const graphql = async (query: string, variables: Record<string, unknown>) => {
        const res = await fetch(`${url}${servicePaths.graphql}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [serviceHeaders.jwt]: token },
          body: JSON.stringify({ query, variables }),
        });
        expect(res.status).toBe(200);
        return (await res.json()) as { data?: Record<string, unknown>; errors?: unknown };
      };

      const fees = await graphql(
        readFileSync(join(root, 'operations/current/payment-gateway-fees-calc.graphql'), 'utf8'),
        {
          amount: 100,
        },
      );
      expect(fees.errors).toBeUndefined();
      expect(fees.data?.paymentGatewayFeesCalc).toContainEqual(
        expect.objectContaining({ card_type: 'visa', amount: 100 }),
      );

      const paid = await graphql(
        readFileSync(join(root, 'operations/current/process-payment-request.graphql'), 'utf8'),
        {
          input: payInput(),
        },
      );
      expect(paid.errors).toBeUndefined();
      const uuid = (paid.data?.processPaymentRequest as { uuid: string } | undefined)?.uuid ?? '(no payment)';
      const webhook = JSON.parse(await receiver.received((body) => body.includes(uuid))) as Record<string, unknown>;
      expect(webhook).toMatchObject({ uuid, status: 'success', amount: 100 });

      const state = await fetch(`${url}${pactControlPaths.providerStates}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ state: providerStates.accessToken, params: {}, action: 'setup' }),
      });
      expect(state.status).toBe(200);
      expect(await state.json()).toMatchObject({ token: expect.any(String) });

      // The shipped files and the pages travel inside the executable.
      for (const [path, text] of [
        ['/__pck/schema.graphql', 'paymentGatewayFeesCalc'],
        ['/__pck/openapi.yaml', 'openapi:'],
      ] as const) {
        const res = await fetch(`${url}${path}`);
        expect(res.status, path).toBe(200);
        expect(await res.text()).toContain(text);
      }
      const page = await fetch(`${url}${servicePaths.graphql}`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      const script = /src="([^"]*graphiql\.js[^"]*)"/.exec(await page.text())?.[1];
      expect(script).toBeDefined();
      const asset = await fetch(new URL(script!, url));
      expect(asset.status).toBe(200);
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(100_000);

      expect(await stop(mock.child)).toBe(0);
      expect(mock.stderr()).toContain(`POST ${servicePaths.generateToken} - 200`);
    } finally {
      await stop(mock.child);
      await receiver.close();
    }
  }, 60_000);

  it('webhook send: delivers a signed payment status webhook to a receiver', async () => {
    const receiver = await startReceiver();
    try {
      const sent = await runBare(exe, [
        'webhook',
        'send',
        '--url',
        receiver.url,
        '--status',
        'failure',
        '--uuid',
        'binary-1',
      ]);
      expect(sent.code, sent.stderr).toBe(0);
      expect(receiver.bodies).toHaveLength(1);
      expect(JSON.parse(receiver.bodies[0]!.body)).toMatchObject({ uuid: 'binary-1', status: 'failure' });
      expect(receiver.bodies[0]!.headers['x-webhook-signing-key']).toBe(defaultCredentials.webhookSigningKey);
    } finally {
      await receiver.close();
    }
  }, 30_000);

  it('verify: checks the shipped contracts statically, and says how to replay them when asked for the dynamic half', async () => {
    const staticOnly = await runBare(exe, ['verify', contractsDir, '--static-only']);
    expect(staticOnly.code, staticOnly.stderr).toBe(0);
    const lines = staticOnly.stdout.trim().split('\n');
    const passed = lines.filter((l) => l.startsWith('PASS static'));
    expect(passed.length).toBeGreaterThan(20);
    expect(lines.filter((l) => l.startsWith('FAIL'))).toEqual([]);

    const both = await runBare(exe, ['verify', contractsDir]);
    expect(both.code).toBe(1);
    expect(both.stdout.split('\n').filter((l) => l.startsWith('PASS static'))).toHaveLength(passed.length);
    expect(both.stderr).toContain('dynamic verification is not part of the payment-contract-kit executable');
    expect(both.stderr).toContain(pactControlPaths.providerStates);
  }, 60_000);

  it.runIf(python3 !== undefined)(
    "docs/single-executable.md's Python example runs as written beside the executable: its line read, a token, a clean stop",
    async () => {
      const page = readFileSync(join(root, 'docs/single-executable.md'), 'utf8');
      const code = /```python\n([\s\S]*?)```/.exec(page)?.[1];
      expect(code).toContain('subprocess.DEVNULL');
      const expected = [...code!.matchAll(/^# prints (.*)$/gm)].map((m) => m[1]);
      const dir = join(scratch, 'python');
      mkdirSync(dir);
      copyFileSync(exe, join(dir, executableName));
      chmodSync(join(dir, executableName), 0o755);
      const ran = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = execFile(
          python3!,
          ['-'],
          { env: bareEnv(), cwd: dir, timeout: 60_000 },
          (error, stdout, stderr) =>
            resolve({ code: error === null ? 0 : ((error as { code?: number }).code ?? -1), stdout, stderr }),
        );
        children.add(child);
        child.stdin?.end(code);
      });
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout.trimEnd().split('\n')).toEqual(expected);
    },
    90_000,
  );

  it.runIf(existsSync(pactStandalone))(
    "docs/single-executable.md's CI snippet runs as written, with Pact's verifier as the team's tests (sh, grep, sed and sleep on PATH, no node)",
    async () => {
      // The page's shell blocks: [0] the build, [1] start/wait/test/stop, [2] the team's own Pact verifier.
      const section = readFileSync(join(root, 'docs/single-executable.md'), 'utf8');
      const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
      const testLine = /^\.\/gradlew test.*$/m;
      expect(blocks[1]).toMatch(testLine);
      expect(blocks[2]).toContain('pact verifier');
      const script = blocks[1]!.replace(testLine, blocks[2]!.trim());
      const ciDir = join(scratch, 'ci');
      mkdirSync(ciDir);
      copyFileSync(exe, join(ciDir, executableName));
      chmodSync(join(ciDir, executableName), 0o755);
      symlinkSync(contractsDir, join(ciDir, 'pacts'));
      for (const tool of ['sh', 'grep', 'sed', 'sleep']) {
        const found = ['/usr/bin', '/bin'].map((dir) => join(dir, tool)).find((path) => existsSync(path));
        if (found && !existsSync(join(binDir, tool))) symlinkSync(found, join(binDir, tool));
      }
      const ran = await new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(join(binDir, 'sh'), ['-c', script], { env: bareEnv(), cwd: ciDir });
        children.add(child);
        let output = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          output += d;
        });
        child.stderr.setEncoding('utf8').on('data', (d: string) => {
          output += d;
        });
        child.on('exit', (code) => resolve({ code, output }));
      });
      expect(ran.code, ran.output.slice(-2000)).toBe(0);
      expect(ran.output).toContain('Verifying a pact between');
      expect(ran.output).not.toMatch(/FAILED|There were \d+ pact failures/);
      expect(readFileSync(join(ciDir, 'mock.out'), 'utf8')).toMatch(
        /^payment-contract-kit mock listening on http:\/\/127\.0\.0\.1:\d+$/m,
      );
    },
    120_000,
  );

  it.runIf(existsSync(pactStandalone))(
    "Pact's own verifier (no Node either) verifies the shipped contracts against the executable's mock",
    async () => {
      const mock = await startMock(['--guide', 'both', '--quiet']);
      try {
        const { port } = new URL(mock.url);
        const report = join(scratch, 'pact-verifier.json');
        const verified = await runBare(join(binDir, 'pact'), [
          'verifier',
          ...['--dir', contractsDir, '--provider-name', 'card-payment-service'],
          ...['--hostname', '127.0.0.1', '--port', port],
          ...['--transports', `http:${port}`, '--transports', `message:${port}${pactControlPaths.messages}`],
          ...['--state-change-url', `${mock.url}${pactControlPaths.providerStates}`, '--state-change-teardown'],
          ...['--json', report, '--no-colour'],
        ]);
        expect(verified.code, verified.stderr).toBe(0);
        const results = (JSON.parse(await readFile(report, 'utf8')) as { interactionResults: { result: string }[] })
          .interactionResults;
        expect(results.length).toBeGreaterThan(20);
        expect(results.filter((r) => r.result !== 'OK')).toEqual([]);
      } finally {
        await stop(mock.child);
      }
    },
    120_000,
  );
});
