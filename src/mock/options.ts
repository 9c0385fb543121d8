/**
 * Options of the mock (`createMockApp`, `startMockServer`): the one place that checks them against their table
 * ({@link mockOptionTable}), applies the defaults and folds the convenience options (`tokenTtlSeconds`,
 * `strictGenerate`, `settleDelayMs`, `maxBodyBytes`) into the assumptions. The fields are in mock-options.ts.
 *
 * @module
 */

import { type AssumptionOverrides, type Assumptions, type RequestLimits, resolveAssumptions } from '../assumptions.ts';
import { kitMessage } from '../internal/messages.ts';
import { checkOptions, type Problem, problemLine, tableDefaults } from '../internal/option-table.ts';
import {
  type CorsOrigins,
  parseAllowedHosts,
  parseCorsOrigins,
  resolveBrowserOptions,
} from './internal/http/browser-options.ts';
import type { MockClientConfig, MockGuide, MockLatency, MockLogFormat, MockLogSink } from './internal/option-types.ts';
import type { SandboxStore } from './internal/store/sandbox-store.ts';
import type { MockOptions } from './mock-options.ts';
import { mockOptionTable } from './option-table.ts';

export type { MockClientConfig, MockGuide, MockLatency, MockLogFormat, MockLogSink } from './internal/option-types.ts';
export type { MockOptions } from './mock-options.ts';
export { mockAssumptionFlags, mockOptionTable } from './option-table.ts';
export { parseAllowedHosts, parseCorsOrigins };

/** The defaults of {@link MockOptions}, as the CLI documents them (the rows of {@link mockOptionTable} with one). */
export const defaultMockOptions = tableDefaults(mockOptionTable) as DefaultsOf<typeof mockOptionTable>;

/** The `default` of each row that has one, typed as written. */
type DefaultsOf<T> = {
  readonly [K in keyof T as T[K] extends { readonly default: unknown } ? K : never]: T[K] extends {
    readonly default: infer D;
  }
    ? D
    : never;
};

/** Options with every default applied and the assumptions resolved. */
export interface ResolvedMockOptions {
  readonly port: number;
  readonly host: string;
  readonly clients: readonly MockClientConfig[];
  readonly guide: MockGuide;
  readonly assumptions: Assumptions;
  readonly webhookUrls: readonly string[];
  readonly webhookSigningKey: string;
  readonly standardWebhooksSecret: string | undefined;
  readonly latency: MockLatency | undefined;
  readonly seed: string;
  readonly log: MockLogSink | false;
  readonly requestLog: boolean;
  readonly logFormat: MockLogFormat;
  readonly maxBodyBytes: number;
  readonly journalSize: number;
  readonly realNow: () => number;
  readonly cors: CorsOrigins;
  readonly controlCors: CorsOrigins;
  readonly allowedHosts: readonly string[] | true;
  readonly ui: boolean;
  readonly controlToken: string | undefined;
  /** The store: a checked URL (`memory:` by default) or the store object given. */
  readonly store: string | SandboxStore;
  /** Where `startMockServer` writes the coverage report when it stops; undefined: nowhere. */
  readonly coverageFile: string | undefined;
}

function fail(option: string, problem: Problem | string): never {
  const line = typeof problem === 'string' ? `${option}" ${problem}` : problemLine(`${option}"`, problem);
  throw new TypeError(kitMessage(`mock option "${line}`));
}

function positiveInteger(option: string, value: unknown): void {
  if (value !== undefined && (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1))
    fail(option, `must be a whole number of at least 1; got ${String(value)}.`);
}

/** Where the default sink writes: standard error under Node, Bun and Deno; `undefined` in a browser or worker. */
const stderr = (globalThis as { process?: { stderr?: { write(chunk: string): unknown } } }).process?.stderr;

/**
 * Default sink: standard error, so standard output carries only the base URL line of the CLI; the console where
 * there is no standard error (a browser page: one console line per log line).
 */
const stderrSink: MockLogSink = stderr
  ? (chunk) => {
      stderr.write(chunk);
    }
  : (chunk) => {
      for (const line of chunk.split('\n')) if (line !== '') console.info(line);
    };

/**
 * Applies the defaults and checks every option (each with its row of {@link mockOptionTable}), throwing a
 * `TypeError` that names the option and the fix.
 *
 * @example
 * resolveMockOptions({ guide: 'both', tokenTtlSeconds: 60 }).assumptions.tokenTtlSeconds // 60
 */
export function resolveMockOptions(options: MockOptions = {}): ResolvedMockOptions {
  const given = checkOptions(mockOptionTable, options, fail);
  const { tokenTtlSeconds, strictGenerate, settleDelayMs, maxBodyBytes, ...plain } = given;
  const assumptions = resolvedAssumptions(given);
  return {
    ...defaultMockOptions,
    ...plain,
    assumptions,
    standardWebhooksSecret: given.standardWebhooksSecret,
    latency: given.latency,
    controlToken: given.controlToken,
    coverageFile: given.coverageFile,
    log: given.log === undefined ? stderrSink : given.log,
    maxBodyBytes: assumptions.limits.maxBodyBytes,
    realNow: given.realNow ?? Date.now,
    ...resolveBrowserOptions(given),
  };
}

/**
 * The assumptions with the convenience options folded in: they are documented as setting these assumptions, so they
 * win over `assumptions`. Every limit, cap and bound is checked after the merge, wherever it was set.
 */
function resolvedAssumptions(given: MockOptions): Assumptions {
  const overrides: Record<string, unknown> = { ...given.assumptions };
  if (given.tokenTtlSeconds !== undefined) overrides.tokenTtlSeconds = given.tokenTtlSeconds;
  if (given.strictGenerate) overrides.repeatGenerateToken = 'reject';
  if (given.settleDelayMs !== undefined) overrides.settleDelayMs = given.settleDelayMs;
  if (given.maxBodyBytes !== undefined)
    overrides.limits = { ...(overrides.limits as object | undefined), maxBodyBytes: given.maxBodyBytes };
  const assumptions = resolveAssumptions(overrides as AssumptionOverrides);
  for (const key of Object.keys(assumptions.limits) as (keyof RequestLimits)[])
    positiveInteger(`assumptions.limits.${key}`, assumptions.limits[key]);
  for (const key of Object.keys(assumptions.history) as (keyof Assumptions['history'])[])
    positiveInteger(`assumptions.history.${key}`, assumptions.history[key]);
  positiveInteger('assumptions.bounds.maxMetadataBytes', assumptions.bounds.maxMetadataBytes);
  positiveInteger('assumptions.bounds.maxMetadataDepth', assumptions.bounds.maxMetadataDepth);
  positiveInteger('assumptions.bounds.maxTextLength', assumptions.bounds.maxTextLength);
  return assumptions;
}
