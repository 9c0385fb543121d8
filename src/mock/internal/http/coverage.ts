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
import { type EventBus, journaled, type MockEvent, type RequestAnswered } from '../domain/events.ts';
import { KeyQueue } from '../domain/ordered-lists.ts';

/** What the collector answers. */
export interface CoverageCollector {
  /** The report of everything counted so far. */
  report(): CoverageReport;
  /** Stops listening. */
  close(): void;
}

/** Payments whose final status is remembered for their webhooks; past it the oldest is forgotten. */
const maxRemembered = 10_000;

/** Places in the catalogue: what an observation counts, read once and kept. */
type Slots = readonly number[];

/**
 * Starts counting the events of `bus` against the catalogue under `assumptions`.
 *
 * The listener runs on every answered request, so it counts by place in the catalogue: what each kind of
 * observation covers is worked out once and kept as a list of places, and counting it adds one to each, with no key
 * built and nothing allocated on the way.
 *
 * @example
 * const coverage = createCoverageCollector(events, assumptions);
 * coverage.report().covered;
 */
export function createCoverageCollector(bus: EventBus, assumptions: Assumptions): CoverageCollector {
  const catalogue: readonly Behaviour[] = behaviourCatalogue(assumptions);
  const place = new Map(catalogue.map((b, i) => [b.id, i]));
  const slots = (ids: readonly string[]): Slots => ids.flatMap((id) => place.get(id) ?? []);
  const counts: number[] = catalogue.map(() => 0);
  const count = (at: Slots) => {
    for (let i = 0; i < at.length; i++) counts[at[i]!]! += 1;
  };
  // uuid → final status, so a delivered webhook can say which one it carried. The oldest goes first through a queue
  // of its own: `outcomes.keys().next()` on a map at its cap skips every slot deleted since the last rehash, and at
  // the cap every settled payment evicts one (ordered-lists.ts).
  const outcomes = new Map<string, 'success' | 'failure'>();
  const order = new KeyQueue<string>();
  const answered = answeredReader(assumptions, slots);
  const accepted = {
    current: [
      slots(behavioursOfPayment({ guide: 'current', byCardAccount: false })),
      slots(behavioursOfPayment({ guide: 'current', byCardAccount: true })),
    ],
    legacy: [
      slots(behavioursOfPayment({ guide: 'legacy', byCardAccount: false })),
      slots(behavioursOfPayment({ guide: 'legacy', byCardAccount: true })),
    ],
  } as const;
  const delivered = new Map<string, Slots>();
  const settled = {
    success: slots(behavioursOfSettlement('success')),
    failure: slots(behavioursOfSettlement('failure')),
  };
  const listener = (event: MockEvent) => {
    switch (event.kind) {
      case 'request.answered':
        // Only the requests the journal keeps on the service's own routes are its behaviours: not an unknown path.
        return event.route === undefined || !journaled(event) ? undefined : count(answered(event));
      case 'payment.accepted':
        return count(accepted[event.guide][event.byCardAccount ? 1 : 0]);
      case 'payment.settled':
        if (outcomes.size >= maxRemembered) outcomes.delete(order.shift()!);
        // A uuid settled again (a seeded sandbox repeats its uuids after a reset) keeps its place, as in the map.
        if (!outcomes.has(event.uuid)) order.push(event.uuid);
        outcomes.set(event.uuid, event.outcome);
        return count(settled[event.outcome]);
      case 'delivery.finished': {
        const { delivered: ok, attempts } = event;
        const outcome = outcomes.get(event.uuid);
        // Kept per what the behaviours read: attempts are few (the retry schedule's length), so the keys are too.
        const key = `${ok}:${attempts}:${outcome}`;
        return count(
          remembered(delivered, key, () => slots(behavioursOfDelivery({ delivered: ok, attempts, outcome }))),
        );
      }
      default:
        return undefined;
    }
  };
  const stop = bus.on(listener, ['request.answered', 'payment.accepted', 'payment.settled', 'delivery.finished']);
  return {
    report: () => coverageReport(catalogue, new Map(catalogue.map((b, i) => [b.id, counts[i]!]))),
    close: stop,
  };
}

/**
 * The places of an answered request's behaviours, kept for the answers every request gets (a success): by guide,
 * status and the operation's root fields (each cached operation keeps them as one array), or by token route,
 * status and whether the credentials passed. The hot paths (a fee list, a token) then cost three lookups.
 */
function answeredReader(
  assumptions: Assumptions,
  slots: (ids: readonly string[]) => Slots,
): (e: RequestAnswered) => Slots {
  const byFields = new Map<string | undefined, Map<number, WeakMap<readonly string[], Slots>>>();
  const byRoute = new Map<string, Map<number, Map<boolean, Slots>>>();
  const read = (e: RequestAnswered) =>
    slots(
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
      ),
    );
  return (e) => {
    if (e.verdict.reason !== undefined || e.verdict.validation !== undefined) return read(e);
    const fields = e.rootFields;
    if (fields === undefined) {
      const statuses = remembered(byRoute, e.path, () => new Map<number, Map<boolean, Slots>>());
      const byAuth = remembered(statuses, e.status, () => new Map<boolean, Slots>());
      return remembered(byAuth, e.clientId !== undefined, () => read(e));
    }
    const statuses = remembered(byFields, e.guide, () => new Map<number, WeakMap<readonly string[], Slots>>());
    const kept = remembered(statuses, e.status, () => new WeakMap<readonly string[], Slots>());
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
