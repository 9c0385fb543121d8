/**
 * What collecting coverage costs one request, alone: the events an answered request tells (a fee list's
 * `request.answered`; a payment's `payment.accepted`, with its copy of the stored payment, then its
 * `request.answered`), built as the mock builds them (`payment.accepted` only when the bus has a listener; the
 * `request.answered` always, the journal reads it), told on a bus nobody listens to and on one the coverage
 * collector listens to. The difference is the collector's share of a request; put
 * it beside a whole in-process request (`npm run bench`, docs/coverage.md "What it costs").
 *
 * Run: `tsx bench/coverage-collector.ts` (alternating slices of each side, median ns per request). For instruction
 * counts, one side at a time under callgrind, its counters zeroed after the warm-up:
 * `valgrind --tool=callgrind --callgrind-out-file=/dev/null node --single-threaded --import tsx bench/coverage-collector.ts --side with --workload fees`
 * (and `--side without`); the difference of the two "Collected" totals over `--events` (default 200,000) is the
 * collector's instructions per request.
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import { defaultAssumptions } from '../src/assumptions.ts';
// The mock's internals are reached through the support modules only (rule bench-and-scripts-stay-off-mock-internals).
import { createEventBus, type EventBus, okVerdict } from '../test/support/mock-internals/domain.ts';
import { createCoverageCollector } from '../test/support/mock-internals/http.ts';

/** A request kind the bench tells the events of. */
export type CollectorWorkload = 'fees' | 'payment';

const storedPayment = {
  uuid: '00000000-0000-4000-8000-000000000000',
  clientId: 'test-client',
  guide: 'current',
  amount: 100,
  payment_gateway_fee: 3.2,
  paid_at: '2026-01-15T09:30:00.000Z',
  status: 'processing',
  outcome: 'success',
  settledOutcome: undefined,
  settledAt: undefined,
  metadata: undefined,
  card_account_uid: 'card-account',
  card_type: 'visa',
  masked_card_number: '411111******1111',
  ip_address: '127.0.0.1',
  vendor_device_id: undefined,
  payment_reference: { description: 'Order 1', reference_no: 'R-1' },
} as const;

/**
 * Tells the events of one answered request of `workload` on `bus`, as the mock does: the payment's only when someone
 * listens to it. The root fields are one array per operation, as the mock's operation cache keeps them.
 */
export function requestTeller(bus: EventBus, workload: CollectorWorkload): (i: number) => void {
  const rootFields = [workload === 'fees' ? 'paymentGatewayFeesCalc' : 'processPaymentRequest'];
  return (i) => {
    if (workload === 'payment' && bus.wants('payment.accepted')) {
      const { clientId, uuid, guide } = storedPayment;
      // By card details and by card account in turn.
      const byCardAccount = (i & 1) === 1;
      bus.emit({ kind: 'payment.accepted', clientId, uuid, guide, byCardAccount, payment: { ...storedPayment } });
    }
    // Always told: the journal reads it, whoever else listens.
    bus.emit({
      kind: 'request.answered',
      route: 'graphql',
      method: 'POST',
      path: '/graphql',
      operationName: undefined,
      status: 200,
      at: i,
      durationMs: 0.1,
      clientId: 'test-client',
      guide: 'current',
      rootFields,
      summary: undefined,
      verdict: okVerdict,
      outcome: okVerdict.outcome,
    });
  };
}

/** A bus with the collector listening (`with`) or nobody (`without`), and the teller of `workload` on it. */
export function collectorSide(side: 'with' | 'without', workload: CollectorWorkload) {
  const bus = createEventBus();
  const collector = side === 'with' ? createCoverageCollector(bus, defaultAssumptions) : undefined;
  return { tell: requestTeller(bus, workload), collector };
}

/** ns per request of each side, median of alternating slices, and the collector's share (`with - without`). */
export interface CollectorCost {
  readonly withoutNs: number;
  readonly withNs: number;
  readonly collectorNs: number;
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/**
 * Both sides of `workload` in alternating slices of `perSlice` requests (CPU time), after one warm-up slice each.
 *
 * @example
 * collectorCost('fees', { slices: 41, perSlice: 100_000 }).collectorNs;
 */
export function collectorCost(
  workload: CollectorWorkload,
  { slices, perSlice }: { slices: number; perSlice: number },
): CollectorCost {
  const sides = { without: collectorSide('without', workload), with: collectorSide('with', workload) };
  const slice = (tell: (i: number) => void) => {
    const started = process.cpuUsage();
    for (let i = 0; i < perSlice; i++) tell(i);
    const spent = process.cpuUsage(started);
    return ((spent.user + spent.system) * 1000) / perSlice;
  };
  slice(sides.without.tell);
  slice(sides.with.tell);
  const times = { without: [] as number[], with: [] as number[] };
  for (let s = 0; s < slices; s++) {
    const order = s % 2 === 0 ? (['without', 'with'] as const) : (['with', 'without'] as const);
    for (const side of order) times[side].push(slice(sides[side].tell));
  }
  const withoutNs = median(times.without);
  const withNs = median(times.with);
  return { withoutNs, withNs, collectorNs: withNs - withoutNs };
}

function flag(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args[at + 1];
}

function main(args: readonly string[]): void {
  const workload = (flag(args, '--workload') ?? 'fees') as CollectorWorkload;
  if (workload !== 'fees' && workload !== 'payment')
    throw new Error(`[payment-contract-kit] bench: --workload takes fees or payment, not ${workload}.`);
  const side = flag(args, '--side');
  if (side === undefined) {
    const cost = collectorCost(workload, { slices: 41, perSlice: 100_000 });
    const ns = (n: number) => `${n.toFixed(1)} ns`;
    console.log(
      `${workload}: ${ns(cost.withoutNs)} per request without the collector, ${ns(cost.withNs)} with it: the collector ${ns(cost.collectorNs)}`,
    );
    return;
  }
  if (side !== 'with' && side !== 'without')
    throw new Error(`[payment-contract-kit] bench: --side takes with or without, not ${side}.`);
  const events = Number(flag(args, '--events') ?? 200_000);
  const { tell } = collectorSide(side, workload);
  for (let i = 0; i < 200_000; i++) tell(i);
  // Under callgrind: zero its counters, so its total is the measured loop's (and the exit's, the same both sides).
  spawnSync('callgrind_control', ['-z', String(process.pid)], { stdio: 'ignore' });
  for (let i = 0; i < events; i++) tell(i);
  process.exit(0);
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
