/**
 * The drift report: every exchange the proxy forwarded (requests and webhooks, numbered from 1 in arrival order) and
 * every drift found in them, in the shape `GET /__pck/drift` answers and `--report` writes. Secrets are taken out
 * when the report is read, so a token seen after a drift was recorded is still redacted.
 *
 * @module
 */
import type { Assumptions } from '../assumptions.ts';
import type { Drift, DriftKind } from '../contract/check/exchange.ts';
import type { Redactor } from './redact.ts';
import { type FeeObservation, type SuggestedConfig, suggestConfig } from './suggested-config.ts';

/** Which exchange a drift was found in. */
export interface DriftExchange {
  /** Number of the exchange in arrival order, from 1; requests and webhooks share one count. */
  readonly seq: number;
  readonly method: string;
  /** Path of the request (for a webhook: the proxy's webhook path), without its query. */
  readonly path: string;
  /** GraphQL operation name, when the exchange was a GraphQL call. */
  readonly operationName: string | null;
  /** Status the consumer (or, for a webhook, the service) got. */
  readonly status: number;
}

/** One drift of the report. */
export interface ReportDrift {
  readonly exchange: DriftExchange;
  readonly kind: DriftKind;
  /** `request` or `response`: which half of the exchange the drift is in. */
  readonly side: Drift['side'];
  readonly path: string;
  readonly expected: string;
  readonly actual: string;
  readonly ledgerKey?: keyof Assumptions;
  /** For assumption drifts: what the service was seen to do, as a value for `ledgerKey`. */
  readonly observed?: unknown;
  readonly message: string;
}

/** The report as JSON (`GET /__pck/drift`, `--report`). */
export interface DriftReport {
  /** Exchanges forwarded (requests and webhooks). */
  readonly exchanges: number;
  /** Counts of drifts by kind. */
  readonly counts: Readonly<Record<DriftKind, number>>;
  readonly drifts: readonly ReportDrift[];
  /** A mock `--config` object whose `assumptions` make the mock answer as the service was seen to. */
  readonly suggestedConfig: SuggestedConfig;
}

/** Collects exchanges and drifts for one proxy. */
export interface DriftLog {
  /** Takes the next exchange number. */
  nextSeq(): number;
  /** Records the drifts of one exchange; answers them as report entries (not yet redacted). */
  add(exchange: DriftExchange, drifts: readonly Drift[]): readonly ReportDrift[];
  /** Records the fee an answer gave for an amount and card type (suggestedConfig pins the fee table from these). */
  observeFee(observation: FeeObservation): void;
  /** True when a `contract` drift was seen. */
  hasContractDrift(): boolean;
  /** The report, redacted. */
  report(): DriftReport;
}

/** Most drifts kept; past it only the counts grow, so a long run against a broken service stays bounded. */
export const maxReportDrifts = 10_000;
/** Most fee observations kept per card type: two distinct amounts pin a rule, a few more confirm it. */
const maxFeePointsPerType = 8;

/**
 * Creates the drift log of one proxy.
 *
 * @example
 * const log = createDriftLog(assumptions, redactor);
 * log.add({ seq: log.nextSeq(), method: 'POST', path: '/graphql', operationName: 'Fees', status: 200 }, drifts);
 */
export function createDriftLog(assumptions: Assumptions, redactor: Redactor): DriftLog {
  let seq = 0;
  const drifts: ReportDrift[] = [];
  const counts: Record<DriftKind, number> = { contract: 0, assumption: 0, upstream: 0, consumer: 0 };
  const fees = new Map<string, FeeObservation[]>();
  return {
    nextSeq: () => ++seq,
    add(exchange, found) {
      const entries = found.map(
        (d): ReportDrift => ({
          exchange,
          kind: d.kind,
          side: d.side,
          path: d.path,
          expected: d.expected,
          actual: d.actual,
          ...(d.ledgerKey !== undefined ? { ledgerKey: d.ledgerKey } : {}),
          ...(d.observed !== undefined ? { observed: d.observed } : {}),
          message: d.message,
        }),
      );
      for (const e of entries) {
        counts[e.kind]++;
        if (drifts.length < maxReportDrifts) drifts.push(e);
      }
      return entries;
    },
    observeFee(observation) {
      let points = fees.get(observation.card_type);
      if (!points) {
        if (fees.size >= 64) return;
        points = [];
        fees.set(observation.card_type, points);
      }
      if (points.length < maxFeePointsPerType && !points.some((p) => p.amount === observation.amount))
        points.push(observation);
    },
    hasContractDrift: () => counts.contract > 0,
    report() {
      return {
        exchanges: seq,
        counts: { ...counts },
        drifts: drifts.map((d) => redactor.value(d)),
        suggestedConfig: redactor.value(suggestConfig(assumptions, drifts, fees)),
      };
    },
  };
}
