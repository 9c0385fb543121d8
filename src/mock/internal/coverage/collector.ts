/**
 * The coverage collector: listens on the mock's event bus and counts, per behaviour of the catalogue
 * (src/contract/coverage), how often the sandbox exercised it. It reads events only (answered requests, accepted and
 * settled payments, finished webhook deliveries), so it sees what the journal and the log see, wherever the mock runs
 * (CLI, `startMockServer`, `createMockApp`, the msw handlers). Counts survive a sandbox reset: a suite resets
 * between tests, and its coverage is the whole run's.
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import { type Behaviour, behaviourCatalogue } from '../../../contract/coverage/catalogue.ts';
import {
  behavioursOfDelivery,
  behavioursOfPayment,
  behavioursOfRequest,
  behavioursOfSettlement,
} from '../../../contract/coverage/observe.ts';
import { type CoverageReport, coverageReport } from '../../../contract/coverage/report.ts';
import type { EventBus, MockEvent, RequestAnswered } from '../domain/events.ts';

/** What the collector answers. */
export interface CoverageCollector {
  /** The report of everything counted so far. */
  report(): CoverageReport;
  /** Stops listening. */
  close(): void;
}

/** Payments whose final status is remembered for their webhooks; past it the oldest is forgotten. */
const maxRemembered = 10_000;

/**
 * Starts counting the events of `bus` against the catalogue under `assumptions`.
 *
 * @example
 * const coverage = createCoverageCollector(events, assumptions);
 * coverage.report().covered;
 */
export function createCoverageCollector(bus: EventBus, assumptions: Assumptions): CoverageCollector {
  const catalogue: readonly Behaviour[] = behaviourCatalogue(assumptions);
  const counts = new Map<string, number>();
  // uuid → final status, so a delivered webhook can say which one it carried.
  const outcomes = new Map<string, 'success' | 'failure'>();
  const count = (ids: readonly string[]) => {
    for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  };
  const answered = answeredReader(assumptions);
  const listener = (event: MockEvent) => {
    switch (event.kind) {
      case 'request.answered':
        return count(answered(event));
      case 'payment.accepted':
        return count(behavioursOfPayment(event));
      case 'payment.settled':
        if (outcomes.size >= maxRemembered) outcomes.delete(outcomes.keys().next().value as string);
        outcomes.set(event.uuid, event.outcome);
        return count(behavioursOfSettlement(event.outcome));
      case 'delivery.finished':
        return count(behavioursOfDelivery({ ...event, outcome: outcomes.get(event.uuid) }));
      default:
        return undefined;
    }
  };
  const stop = bus.on(listener);
  return { report: () => coverageReport(catalogue, counts), close: stop };
}

/**
 * The behaviours of an answered request, remembered for the answers every request gets (a success, by its root
 * fields, which each cached operation keeps as one array): the hot paths (a fee list, a token) then cost a lookup.
 */
function answeredReader(assumptions: Assumptions): (e: RequestAnswered) => readonly string[] {
  const byFields = new Map<string, WeakMap<readonly string[], readonly string[]>>();
  const byRoute = new Map<string, readonly string[]>();
  const read = (e: RequestAnswered) =>
    behavioursOfRequest(
      {
        path: e.path,
        status: e.status,
        guide: e.guide,
        rootFields: e.rootFields,
        reason: e.verdict.reason,
        validation: e.verdict.validation,
        authenticated: e.clientId !== undefined,
      },
      assumptions,
    );
  return (e) => {
    if (e.verdict.reason !== undefined || e.verdict.validation !== undefined) return read(e);
    const fields = e.rootFields;
    if (fields === undefined)
      return remembered(byRoute, `${e.path}\0${e.status}\0${e.clientId !== undefined}`, () => read(e));
    const kept = remembered(
      byFields,
      `${e.guide}\0${e.status}`,
      () => new WeakMap<readonly string[], readonly string[]>(),
    );
    return remembered(kept, fields, () => read(e));
  };
}

/** The value `map` keeps under `key`, made by `make` the first time. */
function remembered<K, V>(
  map: { get(key: K): V | undefined; set(key: K, value: V): unknown },
  key: K,
  make: () => V,
): V {
  const known = map.get(key);
  if (known !== undefined) return known;
  const value = make();
  map.set(key, value);
  return value;
}
