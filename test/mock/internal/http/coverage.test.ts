import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../../src/assumptions.ts';
import { servicePaths } from '../../../../src/spec-names.ts';
import { createEventBus, type MockEvent, okVerdict } from '../../../support/mock-internals/domain.ts';
import { createCoverageCollector } from '../../../support/mock-internals/http.ts';

const settled = (uuid: string, outcome: 'success' | 'failure'): MockEvent => ({
  kind: 'payment.settled',
  clientId: 'test-client',
  uuid,
  outcome,
  at: 0,
});

const delivered = (uuid: string): MockEvent => ({
  kind: 'delivery.finished',
  deliveryId: `d-${uuid}`,
  uuid,
  delivered: true,
  attempts: 1,
  url: 'http://127.0.0.1:4011/webhooks',
  state: 'delivered',
  reason: undefined,
});

/** A generate-token call answered 200, as the pipeline tells it. */
const tokenAnswered = {
  kind: 'request.answered',
  route: 'rest',
  method: 'POST',
  path: servicePaths.generateToken,
  operationName: undefined,
  status: 200,
  at: 0,
  durationMs: 0.1,
  clientId: 'test-client',
  guide: undefined,
  rootFields: undefined,
  summary: undefined,
  verdict: okVerdict,
  outcome: 'ok',
} as const satisfies MockEvent;

const countOf = (report: { behaviours: readonly { id: string; count: number }[] }, id: string) =>
  report.behaviours.find((b) => b.id === id)?.count;

describe('coverage collector', () => {
  it("counts the answered requests of the service's routes only: not control calls, unknown paths or preflights", () => {
    const bus = createEventBus();
    const coverage = createCoverageCollector(bus, defaultAssumptions);
    bus.emit(tokenAnswered);
    const counted = countOf(coverage.report(), 'token.generate');
    expect(counted).toBe(1);
    bus.emit({ ...tokenAnswered, route: 'control' });
    bus.emit({ ...tokenAnswered, route: undefined });
    bus.emit({ ...tokenAnswered, method: 'OPTIONS', status: 204 });
    expect(countOf(coverage.report(), 'token.generate')).toBe(counted);
    coverage.close();
  });

  it('counts each delivery by its own attempts and outcome, however many came before with others', () => {
    const bus = createEventBus();
    const coverage = createCoverageCollector(bus, defaultAssumptions);
    bus.emit(settled('p-1', 'success'));
    bus.emit(settled('p-2', 'failure'));
    bus.emit(settled('p-3', 'success'));
    for (const uuid of ['p-1', 'p-2', 'p-3', 'p-unknown']) bus.emit(delivered(uuid));
    const retried = delivered('p-2') as Extract<MockEvent, { kind: 'delivery.finished' }>;
    bus.emit({ ...retried, attempts: 4 });
    bus.emit({ ...retried, delivered: false, attempts: 12, state: 'failed', reason: 'retries-exhausted' });
    const report = coverage.report();
    expect(
      ['first-attempt', 'retried', 'success', 'failure', 'given-up'].map((b) => countOf(report, `webhook.${b}`)),
    ).toEqual([4, 1, 2, 2, 1]);
  });

  it('remembers the last 10,000 settled outcomes for their webhooks, forgetting the oldest first', () => {
    const bus = createEventBus();
    const coverage = createCoverageCollector(bus, defaultAssumptions);
    // A uuid settled twice (a seeded sandbox after a reset) keeps its first place in the order.
    bus.emit(settled('p-0', 'failure'));
    bus.emit(settled('p-0', 'failure'));
    for (let i = 1; i <= 10_000; i++) bus.emit(settled(`p-${i}`, 'success'));
    // p-0 is forgotten (no webhook.failure counted for it), p-1 and the newest are remembered.
    for (const uuid of ['p-0', 'p-1', 'p-10000']) bus.emit(delivered(uuid));
    const report = coverage.report();
    expect(countOf(report, 'webhook.first-attempt')).toBe(3);
    expect(countOf(report, 'webhook.failure')).toBe(0);
    expect(countOf(report, 'webhook.success')).toBe(2);
    coverage.close();
  });
});
