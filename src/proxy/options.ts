/**
 * Options of the validating proxy (`startProxy`, `payment-contract-kit proxy`), their defaults and their checks.
 * A bad option throws a TypeError naming the option and the fix, before anything listens.
 *
 * @module
 */
import { type AssumptionOverrides, type Assumptions, resolveAssumptions } from '../assumptions.ts';
import type { CheckGuide } from '../contract/check/exchange.ts';
import { controlPrefix, servicePaths } from '../contract/service-names.ts';
import { parseHttpUrl } from '../internal/http-url.ts';
import { kitMessage } from '../internal/messages.ts';

/** Format of the request lines on standard error. */
export type ProxyLogFormat = 'text' | 'json';

/** Where the proxy writes its request lines and drift summary; `false` writes nothing. */
export type ProxyLogSink = ((line: string) => void) | false;

/** Options of {@link startProxy}. */
export interface ProxyOptions {
  /** Base URL of the service (its sandbox or staging), such as `https://sandbox.example.com`; required. */
  readonly upstream: string;
  /** Port to listen on; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Host to listen on. Default 127.0.0.1. */
  readonly host?: string;
  /** Guide the exchanges are checked against; `both` (default) detects it per exchange. */
  readonly guide?: CheckGuide;
  /** Where the service's webhooks are forwarded (each gets a copy); none: the proxy acknowledges them itself. */
  readonly forwardWebhooks?: readonly string[];
  /** Path the service posts its webhooks to on the proxy. Default `/webhooks`. */
  readonly webhookPath?: string;
  /** Largest body buffered either way, in bytes. Default `assumptions.proxy.maxBodyBytes` (10 MiB). */
  readonly maxBodyBytes?: number;
  /** Time the service has for a whole answer, in ms. Default `assumptions.proxy.upstreamTimeoutMs` (30 s). */
  readonly upstreamTimeoutMs?: number;
  /** The ledger the answers are compared with (a mock `--config`'s `assumptions`); the kit's defaults otherwise. */
  readonly assumptions?: AssumptionOverrides;
  /** Request lines and drift summary; default standard error. `false` for none. */
  readonly log?: ProxyLogSink;
  /** Format of the request lines. Default `text`. */
  readonly logFormat?: ProxyLogFormat;
}

/** {@link ProxyOptions} with every default applied. */
export interface ResolvedProxyOptions {
  readonly upstream: URL;
  readonly port: number;
  readonly host: string;
  readonly guide: CheckGuide;
  readonly forwardWebhooks: readonly URL[];
  readonly webhookPath: string;
  readonly maxBodyBytes: number;
  readonly upstreamTimeoutMs: number;
  readonly assumptions: Assumptions;
  readonly log: ProxyLogSink;
  readonly logFormat: ProxyLogFormat;
}

/** Defaults of the options that have one. */
export const defaultProxyOptions = {
  port: 0,
  host: '127.0.0.1',
  guide: 'both',
  webhookPath: '/webhooks',
} as const;

function fail(option: string, problem: string): never {
  throw new TypeError(kitMessage(`proxy option "${option}" ${problem}`));
}

function positiveInteger(option: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) fail(option, `must be a whole number of at least 1; got ${value}.`);
  return value;
}

const stderrSink = (line: string) => {
  process.stderr.write(`${line}\n`);
};

/**
 * Applies the defaults and checks every option.
 *
 * @example
 * resolveProxyOptions({ upstream: 'http://127.0.0.1:4010' }).webhookPath // '/webhooks'
 */
export function resolveProxyOptions(options: ProxyOptions): ResolvedProxyOptions {
  if (typeof options?.upstream !== 'string')
    fail('upstream', 'is required: the base URL of the service, such as https://sandbox.example.com.');
  const upstream = parseHttpUrl(options.upstream);
  if (upstream?.search !== '' || upstream.hash !== '')
    fail('upstream', `must be an http(s) base URL without query or fragment; got "${options.upstream}".`);
  const port = options.port ?? defaultProxyOptions.port;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) fail('port', `must be 0 to 65535; got ${port}.`);
  const guide = options.guide ?? defaultProxyOptions.guide;
  if (guide !== 'current' && guide !== 'legacy' && guide !== 'both')
    fail('guide', `must be current, legacy or both; got "${String(guide)}".`);
  const forwardWebhooks = (options.forwardWebhooks ?? []).map((raw) => {
    const url = parseHttpUrl(raw);
    if (!url) fail('forwardWebhooks', `takes http(s) URLs such as http://127.0.0.1:3000/webhooks; got "${raw}".`);
    return url;
  });
  const webhookPath = options.webhookPath ?? defaultProxyOptions.webhookPath;
  if (!/^\/[^?#\s]*$/.test(webhookPath))
    fail('webhookPath', `must be a path starting with "/", without query; got "${webhookPath}".`);
  if ((Object.values(servicePaths) as string[]).includes(webhookPath) || webhookPath.startsWith(controlPrefix))
    fail(
      'webhookPath',
      `must not be a path of the service or of the proxy's own ${controlPrefix}; got "${webhookPath}".`,
    );
  const assumptions = resolveAssumptions(options.assumptions);
  const logFormat = options.logFormat ?? 'text';
  if (logFormat !== 'text' && logFormat !== 'json') fail('logFormat', `must be "text" or "json"; got "${logFormat}".`);
  return {
    upstream,
    port,
    host: options.host ?? defaultProxyOptions.host,
    guide,
    forwardWebhooks,
    webhookPath,
    maxBodyBytes: positiveInteger('maxBodyBytes', options.maxBodyBytes ?? assumptions.proxy.maxBodyBytes),
    upstreamTimeoutMs: positiveInteger(
      'upstreamTimeoutMs',
      options.upstreamTimeoutMs ?? assumptions.proxy.upstreamTimeoutMs,
    ),
    assumptions,
    log: options.log === undefined ? stderrSink : options.log,
    logFormat,
  };
}
