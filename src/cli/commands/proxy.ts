/**
 * `payment-contract-kit proxy`: maps flags (and their `PCK_*` environment equivalents) to the options of
 * `startProxy`, starts it, prints one line with the base URL, and on SIGINT / SIGTERM writes the report and the
 * recording, prints the summary and exits (1 with `--fail-on-drift` when a contract drift was seen).
 * Behaviour belongs to `src/proxy`, so the CLI and the programmatic API cannot drift.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { defaultAssumptions } from '../../assumptions.ts';
import { parseHttpUrl } from '../../internal/http-url.ts';
import { kitMessage } from '../../internal/messages.ts';
import { defaultProxyOptions } from '../../proxy/options.ts';
import type { StartProxyOptions } from '../../proxy/server.ts';
import { parseCommandLine } from '../command-line.ts';
import { readConfigFile } from '../config-file.ts';
import { booleanEnv, integer, UsageError } from '../flag-values.ts';

/** A flag of the proxy command, its environment variable and its help text. */
interface FlagSpec {
  readonly name: string;
  readonly type: 'string' | 'boolean';
  readonly env: string;
  readonly value?: string;
  readonly multiple?: boolean;
  readonly help: string;
}

/** Every flag, in help order. The help text and the parser are both generated from this table. */
export const proxyFlags: readonly FlagSpec[] = [
  {
    name: 'upstream',
    type: 'string',
    env: 'PCK_UPSTREAM',
    value: 'url',
    help: 'Base URL of the service (its sandbox or staging). Required.',
  },
  {
    name: 'port',
    type: 'string',
    env: 'PCK_PORT',
    value: 'n',
    help: 'Port to listen on; 0 picks a free one. Default 0.',
  },
  {
    name: 'host',
    type: 'string',
    env: 'PCK_HOST',
    value: 'host',
    help: `Host to listen on. Default ${defaultProxyOptions.host}.`,
  },
  {
    name: 'guide',
    type: 'string',
    env: 'PCK_GUIDE',
    value: 'current|legacy|both',
    help: 'Guide the traffic is checked against; "both" detects it per exchange. Default both.',
  },
  {
    name: 'config',
    type: 'string',
    env: 'PCK_CONFIG',
    value: 'file.json',
    help: 'A mock --config file whose "assumptions" are the ledger to compare with (a suggestedConfig, say).',
  },
  {
    name: 'report',
    type: 'string',
    env: 'PCK_REPORT',
    value: 'file.json',
    help: 'Write the drift report here when the proxy stops. Live at GET /__pck/drift either way.',
  },
  {
    name: 'record',
    type: 'string',
    env: 'PCK_RECORD',
    value: 'file.har',
    help: 'Write a HAR 1.2 file of every exchange (webhooks included, secrets redacted) when the proxy stops.',
  },
  {
    name: 'forward-webhooks',
    type: 'string',
    env: 'PCK_FORWARD_WEBHOOKS',
    value: 'url',
    multiple: true,
    help: "Forward the service's webhooks here; repeat for several (env: comma-separated). The first answers.",
  },
  {
    name: 'webhook-path',
    type: 'string',
    env: 'PCK_WEBHOOK_PATH',
    value: 'path',
    help: `Path the service posts its webhooks to on the proxy. Default ${defaultProxyOptions.webhookPath}.`,
  },
  {
    name: 'upstream-timeout',
    type: 'string',
    env: 'PCK_UPSTREAM_TIMEOUT',
    value: 'ms',
    help: `Time the service has for a whole answer before the consumer gets 504. Default ${defaultAssumptions.proxy.upstreamTimeoutMs}.`,
  },
  {
    name: 'max-body-bytes',
    type: 'string',
    env: 'PCK_MAX_BODY_BYTES',
    value: 'n',
    help: `Largest body buffered either way (413 or 502 above). Default ${defaultAssumptions.proxy.maxBodyBytes}.`,
  },
  {
    name: 'fail-on-drift',
    type: 'boolean',
    env: 'PCK_FAIL_ON_DRIFT',
    help: 'Exit 1 at stop when a contract drift was seen (for CI).',
  },
  {
    name: 'log',
    type: 'string',
    env: 'PCK_LOG',
    value: 'text|json',
    help: 'Exchange and drift lines on standard error: text, or one JSON object per line. Default text.',
  },
  { name: 'quiet', type: 'boolean', env: 'PCK_QUIET', help: 'Nothing on standard error: no lines, no summary.' },
  { name: 'help', type: 'boolean', env: '', help: 'Show this help.' },
];

/** The `--help` text of the proxy command. */
export function proxyHelp(): string {
  const rows = proxyFlags.map((f) => {
    const left = `  --${f.name}${f.value ? ` <${f.value}>` : ''}`;
    const env = f.env ? ` [env ${f.env}]` : '';
    return `${left.padEnd(40)}${f.help}${env}`;
  });
  return `Usage: payment-contract-kit proxy --upstream <url> [options]

A validating reverse proxy in front of the real service: forwards every request and answer unchanged and checks
each exchange (and each webhook the service posts to <proxy><webhook-path>) against the contract and the
assumptions ledger. Prints one line with its base URL; Ctrl-C or SIGTERM stops it and writes --report / --record.

Options:
${rows.join('\n')}

Flags win over environment variables, which win over the defaults.

Examples:
  payment-contract-kit proxy --upstream https://sandbox.example.com --port 4020 --report drift.json
  payment-contract-kit proxy --upstream http://127.0.0.1:4010 --record traffic.har --fail-on-drift
  payment-contract-kit proxy --upstream https://sandbox.example.com --forward-webhooks http://127.0.0.1:3000/webhooks
  curl -s http://127.0.0.1:4020/__pck/drift
`;
}

/** What the command runs with: the proxy's options and the command's own switches. */
export interface ProxyCommandOptions {
  readonly proxy: StartProxyOptions;
  readonly failOnDrift: boolean;
}

/** The result of parsing: help was asked for, or the options. */
export type ParsedProxyArgs = { readonly help: true } | ({ readonly help: false } & ProxyCommandOptions);

/**
 * Maps the command line and environment to proxy options. Throws {@link UsageError} naming the flag on bad input.
 *
 * @example
 * parseProxyArgs(['--upstream', 'http://127.0.0.1:4010'], {}).proxy.upstream // 'http://127.0.0.1:4010'
 */
export function parseProxyArgs(argv: readonly string[], env: NodeJS.ProcessEnv): ParsedProxyArgs {
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: Object.fromEntries(
        proxyFlags.map((f) => [f.name, { type: f.type, ...(f.multiple ? { multiple: true } : {}) }]),
      ),
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    throw new UsageError(`${message}. Run "payment-contract-kit proxy --help" for the options.`);
  }
  if (values.help) return { help: true };
  const spec = (name: string) => proxyFlags.find((f) => f.name === name)!;
  const pick = (name: string): string | undefined => {
    const flag = values[name];
    if (typeof flag === 'string') return flag;
    const fromEnv = env[spec(name).env];
    return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
  };
  const pickBoolean = (name: string): boolean => {
    if (values[name] === true) return true;
    const fromEnv = env[spec(name).env];
    return fromEnv === undefined ? false : booleanEnv(spec(name).env, fromEnv);
  };
  const upstream = pick('upstream');
  if (upstream === undefined)
    throw new UsageError(
      '--upstream is required: the base URL of the service, e.g. --upstream https://sandbox.example.com.',
    );
  const upstreamUrl = parseHttpUrl(upstream);
  if (upstreamUrl?.search !== '' || upstreamUrl.hash !== '')
    throw new UsageError(
      `--upstream must be an http(s) base URL without query, such as https://sandbox.example.com; got "${upstream}".`,
    );
  const options: { -readonly [K in keyof StartProxyOptions]: StartProxyOptions[K] } = { upstream };
  const port = pick('port');
  if (port !== undefined) options.port = integer('port', port, 0, 65_535);
  const host = pick('host');
  if (host !== undefined) options.host = host;
  const guide = pick('guide');
  if (guide !== undefined) {
    if (guide !== 'current' && guide !== 'legacy' && guide !== 'both')
      throw new UsageError(`--guide must be current, legacy or both; got "${guide}".`);
    options.guide = guide;
  }
  const config = pick('config');
  if (config !== undefined) options.assumptions = readConfigFile(config).assumptions ?? {};
  const report = pick('report');
  if (report !== undefined) options.reportFile = report;
  const record = pick('record');
  if (record !== undefined) options.recordFile = record;
  const hooks =
    (values['forward-webhooks'] as string[] | undefined) ??
    env.PCK_FORWARD_WEBHOOKS?.split(',')
      .map((u) => u.trim())
      .filter(Boolean);
  if (hooks !== undefined)
    options.forwardWebhooks = hooks.map((raw) => {
      if (!parseHttpUrl(raw))
        throw new UsageError(
          `--forward-webhooks must be an http(s) URL such as http://127.0.0.1:3000/webhooks; got "${raw}".`,
        );
      return raw;
    });
  const webhookPath = pick('webhook-path');
  if (webhookPath !== undefined) {
    if (!/^\/[^?#\s]*$/.test(webhookPath))
      throw new UsageError(`--webhook-path must be a path starting with "/", such as /webhooks; got "${webhookPath}".`);
    options.webhookPath = webhookPath;
  }
  const timeout = pick('upstream-timeout');
  if (timeout !== undefined) options.upstreamTimeoutMs = integer('upstream-timeout', timeout, 1);
  const maxBody = pick('max-body-bytes');
  if (maxBody !== undefined) options.maxBodyBytes = integer('max-body-bytes', maxBody, 1);
  const logFormat = pick('log');
  if (logFormat !== undefined) {
    if (logFormat !== 'text' && logFormat !== 'json')
      throw new UsageError(`--log must be text or json; got "${logFormat}".`);
    options.logFormat = logFormat;
  }
  if (pickBoolean('quiet')) options.log = false;
  return { help: false, proxy: options, failOnDrift: pickBoolean('fail-on-drift') };
}

/** The kit's version: package.json sits two levels up from both src/cli/commands and dist/cli. */
function kitVersion(): string {
  for (const rel of ['../../package.json', '../../../package.json'])
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'payment-contract-kit' && pkg.version) return pkg.version;
    } catch {}
  return 'unknown';
}

/**
 * Runs the proxy command. Resolves after a stop (SIGINT / SIGTERM) with 0, or 1 when `--fail-on-drift` saw a
 * contract drift; 2 on a usage mistake; 1 when the proxy cannot start.
 */
export async function run(argv: readonly string[]): Promise<number | undefined> {
  const parsed = parseCommandLine(() => parseProxyArgs(argv, process.env), proxyHelp, process);
  if (typeof parsed === 'number') return parsed;
  const { startProxy } = await import('../../proxy/server.ts');
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  try {
    proxy = await startProxy({ ...parsed.proxy, creatorVersion: kitVersion() });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const where = `port ${parsed.proxy.port ?? 0} on ${parsed.proxy.host ?? defaultProxyOptions.host}`;
    const text =
      code === 'EADDRINUSE'
        ? `proxy: ${where} is already in use: pick another port (--port, 0 picks a free one).`
        : `proxy: ${(error instanceof Error ? error.message : String(error)).replace(/^\[payment-contract-kit\] /, '')}`;
    process.stderr.write(`${kitMessage(text)}\n`);
    return error instanceof TypeError ? 2 : 1;
  }
  process.stdout.write(`payment-contract-kit proxy listening on ${proxy.url}\n`);
  return new Promise<number>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      proxy.close().then(
        () => {
          setTimeout(() => process.exit(process.exitCode ?? 0), 1000).unref();
          resolve(parsed.failOnDrift && proxy.hasContractDrift() ? 1 : 0);
        },
        (error: unknown) => {
          process.stderr.write(`${kitMessage(`proxy: could not write the report or recording: ${String(error)}`)}\n`);
          resolve(1);
        },
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
