/**
 * Options of the validating proxy (`startProxy`, `payment-contract-kit proxy`): their types, the table that declares
 * each one's kind, default and flag, and their checks.
 * A bad option throws a TypeError naming the option and the fix, before anything listens.
 *
 * @module
 */
import { type AssumptionOverrides, type Assumptions, defaultAssumptions, resolveAssumptions } from '../assumptions.ts';
import type { CheckGuide } from '../contract/check/exchange.ts';
import { controlPrefix, servicePaths } from '../contract/service-names.ts';
import { assumptionsKind } from '../internal/assumption-overrides.ts';
import { parseHttpUrl } from '../internal/http-url.ts';
import { kitMessage } from '../internal/messages.ts';
import {
  type Checked,
  checkOptions,
  codeOnly,
  httpUrls,
  type OptionTable,
  oneOf,
  Problem,
  problemLine,
  text,
  type ValueKind,
  wholeNumber,
} from '../internal/option-table.ts';

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

/** `upstream`: an http(s) base URL without query or fragment (a path prefix is kept). */
const upstreamKind: ValueKind<string> = (() => {
  const check = (value: unknown): Checked<string> => {
    const url = typeof value === 'string' ? parseHttpUrl(value) : undefined;
    return url?.search === '' && url.hash === ''
      ? (value as string)
      : new Problem(
          `must be an http(s) base URL without query, such as https://sandbox.example.com, got "${String(value)}".`,
        );
  };
  return { placeholder: 'url', read: check, check };
})();

/** `webhookPath`: a path of its own, not one of the service's nor the proxy's control prefix. */
const webhookPathKind: ValueKind<string> = (() => {
  const check = (value: unknown): Checked<string> => {
    if (typeof value !== 'string' || !/^\/[^?#\s]*$/.test(value))
      return new Problem(`must be a path starting with "/", such as /webhooks, without query; got "${String(value)}".`);
    if ((Object.values(servicePaths) as string[]).includes(value) || value.startsWith(controlPrefix))
      return new Problem(`must not be a path of the service or of the proxy's own ${controlPrefix}; got "${value}".`);
    return value;
  };
  return { placeholder: 'path', read: check, check };
})();

/**
 * Every option of the proxy, once: kind, default and flag, as the mock's table (`src/mock/options.ts`) holds the
 * mock's. `resolveProxyOptions`, `defaultProxyOptions`, the proxy command's parser and `--help` and docs/options.md
 * are produced from it. To add an option: its field in {@link ProxyOptions} and {@link ResolvedProxyOptions}, a row
 * here, then `npm run generate`.
 */
export const proxyOptionTable = {
  upstream: {
    kind: upstreamKind,
    shownDefault: 'required',
    flag: { name: 'upstream', help: 'Base URL of the service (its sandbox or staging); a path prefix is kept.' },
  },
  port: {
    kind: wholeNumber(0, 65_535),
    default: 0,
    flag: { name: 'port', help: 'Port to listen on; 0 picks a free one.' },
  },
  host: {
    kind: text('host', { nonEmpty: true }),
    default: '127.0.0.1',
    flag: { name: 'host', help: 'Host to listen on.' },
  },
  guide: {
    kind: oneOf<CheckGuide>(['current', 'legacy', 'both']),
    default: 'both',
    flag: { name: 'guide', help: 'Guide the traffic is checked against; "both" detects it per exchange.' },
  },
  forwardWebhooks: {
    kind: httpUrls((raw) => parseHttpUrl(raw) !== undefined),
    shownDefault: 'none',
    flag: {
      name: 'forward-webhooks',
      help: "Forward the service's webhooks here; repeat for several (env: comma-separated). The first answers.",
    },
  },
  webhookPath: {
    kind: webhookPathKind,
    default: '/webhooks',
    flag: { name: 'webhook-path', help: 'Path the service posts its webhooks to on the proxy.' },
  },
  maxBodyBytes: {
    kind: wholeNumber(1),
    shownDefault: String(defaultAssumptions.proxy.maxBodyBytes),
    flag: { name: 'max-body-bytes', help: 'Largest body buffered either way (413 or 502 above).' },
  },
  upstreamTimeoutMs: {
    kind: wholeNumber(1),
    shownDefault: String(defaultAssumptions.proxy.upstreamTimeoutMs),
    flag: {
      name: 'upstream-timeout',
      placeholder: 'ms',
      help: 'Time the service has for a whole answer before the consumer gets 504.',
    },
  },
  // Its flag is the command's --config: a mock config file whose "assumptions" are the ledger.
  assumptions: { kind: assumptionsKind, shownDefault: 'the ledger (ASSUMPTIONS.md)' },
  logFormat: {
    kind: oneOf<ProxyLogFormat>(['text', 'json']),
    default: 'text',
    flag: { name: 'log', help: 'Exchange and drift lines on standard error: text, or one JSON object per line.' },
  },
  log: {
    kind: codeOnly<ProxyLogSink>((value) =>
      typeof value === 'function' || value === false
        ? (value as ProxyLogSink)
        : new Problem('must be a function receiving lines, or false for none.'),
    ),
    shownDefault: 'standard error',
    flag: { name: 'quiet', sets: false, help: 'Nothing on standard error: no lines, no summary.' },
  },
} as const satisfies OptionTable<ProxyOptions>;

/** Defaults of the options that have one (the rows of {@link proxyOptionTable} with a `default`). */
export const defaultProxyOptions = {
  port: proxyOptionTable.port.default,
  host: proxyOptionTable.host.default,
  guide: proxyOptionTable.guide.default,
  webhookPath: proxyOptionTable.webhookPath.default,
} as const;

function fail(option: string, problem: Problem): never {
  throw new TypeError(kitMessage(problemLine(`proxy option "${option}"`, problem)));
}

const stderrSink = (line: string) => {
  process.stderr.write(`${line}\n`);
};

/**
 * Applies the defaults and checks every option (each with its row of {@link proxyOptionTable}).
 *
 * @example
 * resolveProxyOptions({ upstream: 'http://127.0.0.1:4010' }).webhookPath // '/webhooks'
 */
export function resolveProxyOptions(options: ProxyOptions): ResolvedProxyOptions {
  if (typeof options?.upstream !== 'string')
    fail('upstream', new Problem('is required: the base URL of the service, such as https://sandbox.example.com.'));
  const given = checkOptions(proxyOptionTable, options, fail);
  const assumptions = resolveAssumptions(given.assumptions);
  return {
    ...defaultProxyOptions,
    ...given,
    upstream: new URL(given.upstream),
    forwardWebhooks: (given.forwardWebhooks ?? []).map((raw) => new URL(raw)),
    maxBodyBytes: given.maxBodyBytes ?? assumptions.proxy.maxBodyBytes,
    upstreamTimeoutMs: given.upstreamTimeoutMs ?? assumptions.proxy.upstreamTimeoutMs,
    assumptions,
    log: given.log === undefined ? stderrSink : given.log,
    logFormat: given.logFormat ?? 'text',
  };
}
