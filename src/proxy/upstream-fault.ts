/**
 * What the consumer gets when the service fails the proxy: 502 (refused, reset, an answer that is not the service's:
 * not JSON, HTML, too large) or 504 (no whole answer in time), in the spec's own shape for the path (7.1 on the token
 * paths and every other REST path, a 7.2 error with the ledger's proxy reason code on /graphql), and the `upstream`
 * drift the report records for it.
 *
 * @module
 */
import type { Assumptions } from '../assumptions.ts';
import type { Drift } from '../contract/check/exchange.ts';
import { graphqlError, graphqlErrorBody, restErrorBody } from '../contract/error-shapes.ts';
import { servicePaths } from '../contract/service-names.ts';
import { kitMessage } from '../internal/messages.ts';
import type { UpstreamFaultKind } from './upstream-call.ts';

/** A fault of the service as the proxy saw it: the call's own faults, or an answer that is not JSON. */
export type ServiceFault = UpstreamFaultKind | 'not-json';

/** The answer the proxy sends in place of the service's. */
export interface FaultAnswer {
  readonly status: 502 | 504;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly drift: Drift;
}

const what: Readonly<Record<ServiceFault, string>> = {
  unreachable: 'could not be reached',
  timeout: 'did not answer in time',
  reset: 'broke the connection',
  'too-large': 'answered a body larger than the proxy takes',
  'not-json': 'answered something that is not JSON',
};

const fix: Readonly<Record<ServiceFault, string>> = {
  unreachable: 'check --upstream and that the service is up',
  timeout: 'raise --upstream-timeout if the service is known to be slow, or look at why it is',
  reset: 'look at the service (or a load balancer in front of it) closing connections',
  'too-large': 'raise --max-body-bytes if such an answer is expected',
  'not-json': 'look at what answered: an error page of a gateway or load balancer, or a wrong --upstream',
};

function reasonOf(fault: ServiceFault, assumptions: Assumptions): string {
  const codes = assumptions.proxy.reasonCodes;
  if (fault === 'timeout') return codes.upstreamTimeout;
  return fault === 'unreachable' || fault === 'reset' ? codes.upstreamUnreachable : codes.upstreamInvalidAnswer;
}

/**
 * The spec-shaped answer and the drift for a service fault on `path`.
 *
 * @example
 * faultAnswer('/graphql', 'timeout', 'no complete answer within 30000 ms', assumptions).status // 504
 */
export function faultAnswer(path: string, fault: ServiceFault, detail: string, assumptions: Assumptions): FaultAnswer {
  const status = fault === 'timeout' ? 504 : 502;
  const message = kitMessage(`proxy: the service ${what[fault]} (${detail}); ${fix[fault]}.`);
  const reason = reasonOf(fault, assumptions);
  const body =
    path === servicePaths.graphql
      ? JSON.stringify(graphqlErrorBody([graphqlError(message, reason)]))
      : JSON.stringify(restErrorBody(message));
  return {
    status,
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
    body,
    drift: {
      kind: 'upstream',
      side: 'response',
      path: '(http)',
      expected: 'a complete JSON answer of the service',
      actual: `${fault}: ${detail}`,
      message,
    },
  };
}
