/**
 * Collects the drifts of one exchange. Every drift's message carries the kit's prefix and says what to do, and its
 * `actual` is built by `showValue`, so no secret reaches a report whichever check found the drift.
 *
 * @module
 */
import type { Assumptions } from '../../assumptions.ts';
import { kitMessage } from '../../internal/messages.ts';
import type { Drift, DriftKind } from './exchange.ts';
import { maskText } from './show-value.ts';

/** The fields of a drift the checks give; the list fills in the rest. */
export interface DriftInput {
  readonly side: Drift['side'];
  readonly path: string;
  readonly expected: string;
  readonly actual: string;
  readonly message: string;
}

/** A value with every string in it masked (an observed value may quote what the service sent). */
function maskDeep(value: unknown): unknown {
  if (typeof value === 'string') return maskText(value);
  if (Array.isArray(value)) return value.map(maskDeep);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskDeep(v)]));
  return value;
}

/** An ordered list of drifts with one method per kind. */
export interface DriftList {
  /** The drifts so far, request side first when the checks ran in that order. */
  readonly drifts: Drift[];
  /** The service broke what the document states. */
  contract(input: DriftInput): void;
  /** The request itself breaks the contract. */
  consumer(input: Omit<DriftInput, 'side'>): void;
  /** The service failed (5xx other than the documented ones, not an answer at all). */
  upstream(input: DriftInput): void;
  /** The service did, where the document is silent, something else than the ledger says. */
  assumption(input: DriftInput & { readonly ledgerKey: keyof Assumptions; readonly observed?: unknown }): void;
}

/**
 * Makes an empty drift list.
 *
 * @example
 * const list = createDriftList();
 * list.contract({ side: 'response', path: '(http)', expected: '200', actual: '302', message: 'Answer 200.' });
 */
export function createDriftList(): DriftList {
  const drifts: Drift[] = [];
  const push = (kind: DriftKind, input: DriftInput, extra: Partial<Drift> = {}) => {
    drifts.push({
      kind,
      side: input.side,
      path: input.path,
      expected: maskText(input.expected),
      actual: maskText(input.actual),
      ...extra,
      message: kitMessage(maskText(input.message)),
    });
  };
  return {
    drifts,
    contract: (input) => push('contract', input),
    consumer: (input) => push('consumer', { ...input, side: 'request' }),
    upstream: (input) => push('upstream', input),
    assumption: ({ ledgerKey, observed, ...input }) =>
      push('assumption', input, observed === undefined ? { ledgerKey } : { ledgerKey, observed: maskDeep(observed) }),
  };
}
