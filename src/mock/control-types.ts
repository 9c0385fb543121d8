/**
 * The public types of the app and its control handle (STYLE habit 9): what tests drive the mock with. The handle's
 * own types live below the control plane (internal/handle/control-handle.ts), which implements them; this module
 * adds the app's and the server's and is where the entries export them from.
 *
 * @module
 */
import type { MockControl } from './internal/handle/control-handle.ts';
import type { ResolvedMockOptions } from './options.ts';

export type {
  FailNextOptions,
  MockCardInput,
  MockControl,
  MockCoverageReport,
  MockDelivery,
  MockHistory,
  MockPage,
  MockPagedPayment,
  MockPageQuery,
  MockPayment,
  MockRequestMatcher,
  MockRequestRecord,
  MockStoreStatus,
} from './internal/handle/control-handle.ts';

/**
 * What the listener reads of a `node:http` `IncomingMessage`, written out so these types need no `@types/node` (a
 * browser-only project has none); an `IncomingMessage` is one.
 */
export interface NodeRequestLike {
  readonly url?: string | undefined;
  readonly method?: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly socket: { readonly remoteAddress?: string | undefined };
  on(event: string, listener: (...args: never[]) => void): unknown;
  resume(): unknown;
}

/** What the listener uses of a `node:http` `ServerResponse`; a `ServerResponse` is one. */
export interface NodeResponseLike {
  readonly headersSent: boolean;
  readonly destroyed: boolean;
  writeHead(status: number, headers: string[]): unknown;
  end(body: string | Uint8Array): unknown;
  destroy(): unknown;
}

/** The mock as a Fetch API handler: what every runtime has (the browser build's `createMockApp` returns this). */
export interface MockFetchApp {
  /**
   * Answers a Fetch API `Request` in-process, with no socket: the same routes, state and outcomes as a listener
   * (tests that cannot open a port, Mock Service Worker handlers). Only the request's path and query are used.
   * There is no socket, so the requester's address is `options.remoteAddress` when given, else `'in-process'`
   * (what a payment without `ip_address` then stores); `x-forwarded-for` is not read for it.
   */
  readonly fetch: (request: Request, options?: { readonly remoteAddress?: string }) => Promise<Response>;
  /** The control handle. */
  readonly control: MockControl;
  /** The resolved options. */
  readonly options: ResolvedMockOptions;
  /**
   * Resolves once the state store (the `store` option) is open and the sandbox's state read from it; at
   * once with `memory:`. Rejects with a message saying why the store cannot be used. Requests wait for it anyway;
   * `startMockServer` awaits it before listening.
   */
  ready(): Promise<void>;
  /** Writes queued log lines now. */
  flushLog(): void;
  /** Writes a line to the request log (masked); the server logs start-up and client errors with it. */
  logLine(text: string): void;
  /**
   * Cancels timers, rejects pending waits and stops webhook deliveries: each one not delivered is kept as `failed`
   * (reason `closed`) and one log line lists how many and which. Then flushes the log.
   */
  close(): Promise<void>;
}

/** The mock as a request handler under Node: {@link MockFetchApp} and a `node:http` listener. */
export interface MockApp extends MockFetchApp {
  /** `node:http` request listener: `http.createServer(app.handle)`. */
  readonly handle: (req: NodeRequestLike, res: NodeResponseLike) => void;
}

/** A running mock. */
export interface MockServer {
  /** Base URL without a trailing slash, such as `http://127.0.0.1:40123`; REST paths and /graphql hang off it. */
  readonly url: string;
  /** Port actually bound. */
  readonly port: number;
  /** The control handle (the same operations as the HTTP control API under `/__pck/`). */
  readonly control: MockControl;
  /** The resolved options. */
  readonly options: ResolvedMockOptions;
  /**
   * Stops listening, closes idle and active connections, stops webhook deliveries (each one not delivered is kept as
   * `failed`, reason `closed`, and listed in one log line) and flushes the log.
   */
  close(): Promise<void>;
}
