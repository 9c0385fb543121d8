/**
 * Injected failures (`failNextRequest`): the next request(s) to a service path answer an error status with the
 * spec's body instead of running, so a consumer can see how it handles a 500 or a 429 from the service.
 *
 * @module
 */
import type { Assumptions } from '../../../assumptions.ts';
import { restErrorBody } from '../../../contract/error-shapes.ts';
import { kitMessage } from '../../../internal/messages.ts';
import { graphqlFailure } from '../http/error-mapping.ts';
import type { Outcome } from '../http/outcome.ts';
import type { RouteKind } from '../http/router.ts';
import { numberField, type RecordApplier, type Recorder, textField } from '../store/records.ts';

/** Pending failures by path. */
export interface FailureInjection {
  /** Whether any failure is pending: one size check on the hot path. */
  readonly pending: () => boolean;
  /** Arms `times` failures of `path` with `status` (already validated). */
  arm(path: string, status: number, message: string | undefined, times: number): void;
  /** Takes the next failure armed for `path`, as the answer in the route's shape, if any. */
  take(path: string, kind: RouteKind): Outcome | undefined;
  /** Forgets every pending failure. */
  reset(): void;
  /** Takes back a `fail` or `take` record of a state store (issue 23). */
  readonly apply: RecordApplier['apply'];
}

/** Creates an empty set of injected failures. */
export function createFailureInjection(assumptions: Assumptions, record?: Recorder): FailureInjection {
  const reasons = assumptions.reasonCodes;
  const failures = new Map<string, { status: number; message: string | undefined; remaining: number }>();
  const consume = (path: string) => {
    const f = failures.get(path);
    if (f && --f.remaining <= 0) failures.delete(path);
    return f;
  };
  return {
    pending: () => failures.size > 0,
    arm(path, status, message, times) {
      failures.set(path, { status, message, remaining: times });
      if (record) record({ t: 'fail', p: path, s: status, m: message ?? null, n: times });
    },
    take(path, kind) {
      const f = consume(path);
      if (!f) return undefined;
      if (record) record({ t: 'take', p: path });
      const message = f.message ?? kitMessage(`Injected failure (failNextRequest) with status ${f.status}.`);
      return kind === 'graphql'
        ? graphqlFailure(f.status, message, f.status >= 500 ? reasons.internal : reasons.badRequest)
        : { status: f.status, body: restErrorBody(message) };
    },
    reset: () => failures.clear(),
    apply(r) {
      if (r.t === 'fail') {
        const message = typeof r.m === 'string' ? r.m : undefined;
        failures.set(textField(r, 'p'), { status: numberField(r, 's'), message, remaining: numberField(r, 'n') });
      } else if (r.t === 'take') consume(textField(r, 'p'));
    },
  };
}
