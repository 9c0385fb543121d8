/**
 * Injected failures (`failNextRequest`): the next request(s) to a service path answer an error status with the
 * spec's body instead of running, so a consumer can see how it handles a 500 or a 429 from the service.
 *
 * @module
 */
import type { Assumptions } from '../../assumptions.ts';
import { kitMessage } from '../../internal/messages.ts';
import { graphqlFailure } from './error-mapping.ts';
import { restErrorBody } from './errors.ts';
import type { Outcome } from './http/outcome.ts';
import type { RouteKind } from './http/router.ts';

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
}

/** Creates an empty set of injected failures. */
export function createFailureInjection(assumptions: Assumptions): FailureInjection {
  const reasons = assumptions.reasonCodes;
  const failures = new Map<string, { status: number; message: string | undefined; remaining: number }>();
  return {
    pending: () => failures.size > 0,
    arm(path, status, message, times) {
      failures.set(path, { status, message, remaining: times });
    },
    take(path, kind) {
      const f = failures.get(path);
      if (!f) return undefined;
      if (--f.remaining <= 0) failures.delete(path);
      const message = f.message ?? kitMessage(`Injected failure (failNextRequest) with status ${f.status}.`);
      return kind === 'graphql'
        ? graphqlFailure(f.status, message, f.status >= 500 ? reasons.internal : reasons.badRequest)
        : { status: f.status, body: restErrorBody(message) };
    },
    reset: () => failures.clear(),
  };
}
