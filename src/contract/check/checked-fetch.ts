/**
 * A `fetch` that checks every exchange it makes: teams wrap their client's fetch in integration tests (against a
 * sandbox or the mock) and read, or fail on, the drifts. Bodies are read from clones, so the caller's response is
 * untouched. Only what browsers and Node share is used.
 *
 * @module
 */
import { kitMessage } from '../../internal/messages.ts';
import { checkExchange } from './check-exchange.ts';
import type { CheckOptions, Drift, Exchange, ExchangeCheck } from './exchange.ts';

/** One checked exchange, as {@link CheckedFetch.results} lists it. */
export interface CheckedExchange extends ExchangeCheck {
  /** HTTP method and path of the request (`POST /graphql`). */
  readonly request: string;
  /** HTTP status of the answer. */
  readonly status: number;
}

/** Options of {@link createCheckedFetch}. */
export interface CheckedFetchOptions extends CheckOptions {
  /**
   * Throw a {@link ContractDriftError} from the call when the service breaks the contract (`contract` drifts), so
   * a test fails where the drift happened. Default false: drifts are only collected.
   */
  readonly throwOnContractDrift?: boolean;
  /** Called with each checked exchange (a logger, a test reporter). */
  readonly onCheck?: (result: CheckedExchange) => void;
}

/** A checking `fetch` with what it found. */
export interface CheckedFetch {
  /** Call it as you call `fetch`. */
  readonly fetch: typeof fetch;
  /** Every checked exchange so far, skipped ones included. */
  readonly results: () => readonly CheckedExchange[];
  /** Every drift so far, in order. */
  readonly drifts: () => readonly Drift[];
  /** Forgets what was collected (between tests). */
  readonly reset: () => void;
}

/** Thrown by a checked fetch with `throwOnContractDrift` when an answer breaks the contract. */
export class ContractDriftError extends Error {
  /** The contract drifts of the exchange. */
  readonly drifts: readonly Drift[];
  constructor(request: string, drifts: readonly Drift[]) {
    super(
      kitMessage(
        `${request} broke the contract: ${drifts.map((d) => `${d.path}: ${d.actual} (expected ${d.expected})`).join('; ')}. Read each drift's message for the fix.`,
      ),
    );
    this.name = 'ContractDriftError';
    this.drifts = drifts;
  }
}

function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name.toLowerCase()] = value;
  });
  return out;
}

async function bodyText(message: Request | Response): Promise<string | undefined> {
  if (message.body === null) return undefined;
  const text = await message.clone().text();
  return text === '' ? undefined : text;
}

/**
 * Wraps `fetch` so every exchange is checked with {@link checkExchange}.
 *
 * @example
 * const checked = createCheckedFetch(fetch, { throwOnContractDrift: true });
 * const client = createPaymentClient({ baseUrl, fetch: checked.fetch, ... });
 * // … run the flows …
 * expect(checked.drifts()).toEqual([]);
 */
export function createCheckedFetch(inner: typeof fetch, options: CheckedFetchOptions = {}): CheckedFetch {
  let results: CheckedExchange[] = [];
  const checked = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const requestBody = await bodyText(request);
    const response = await inner(request);
    const exchange: Exchange = {
      request: {
        method: request.method.toUpperCase(),
        url: request.url,
        headers: headersOf(request.headers),
        body: requestBody,
      },
      response: { status: response.status, headers: headersOf(response.headers), body: await bodyText(response) },
    };
    const check = checkExchange(exchange, options);
    const label = `${exchange.request.method} ${new URL(request.url).pathname}`;
    const result: CheckedExchange = { ...check, request: label, status: response.status };
    results.push(result);
    options.onCheck?.(result);
    const contract = check.drifts.filter((d) => d.kind === 'contract');
    if (options.throwOnContractDrift && contract.length > 0) throw new ContractDriftError(label, contract);
    return response;
  };
  return {
    fetch: checked as typeof fetch,
    results: () => results,
    drifts: () => results.flatMap((r) => r.drifts),
    reset: () => {
      results = [];
    },
  };
}
