/**
 * The platform seam: what the mock's isomorphic core asks of the runtime it runs in. The core (routing,
 * tokens, GraphQL, validation, state, clock, journal, settlement, webhook dispatch) imports no `node:*` module; the
 * entry point picks the platform: the CLI, `startMockServer`, `createMockApp` and the msw entry under Node pick
 * {@link MockPlatform} of node-platform.ts (node:crypto, node:http webhooks, the package's files, graphql-jit), the
 * browser and worker builds pick web-platform.ts (a sync audited hash library, `fetch`, no files). A file or Redis
 * store is another seam of the same kind, chosen by the entry point in the same place.
 *
 * @module
 */

import type { Assumptions } from '../assumptions.ts';
import type { JitLoader } from './internal/graphql/jit-loader.ts';
import type { ErrorMapper } from './internal/http/exchange.ts';
import type { PageRoutes } from './internal/http/pages.ts';
import type { CryptoPrimitives } from './internal/platform/crypto-primitives.ts';
import type { WebhookTransport } from './internal/webhooks/transport.ts';
import type { MockClientConfig, MockGuide } from './options.ts';

/** What the pages are made from (the platform adds how their assets are read). */
export interface PageDeps {
  readonly guide: MockGuide;
  readonly clients: readonly MockClientConfig[];
  readonly assumptions: Assumptions;
  readonly errors: ErrorMapper;
  /**
   * The control API needs a token (`controlToken`): the page shells are public then, so they carry no API key and
   * ask for the token instead.
   */
  readonly controlTokenRequired?: boolean;
}

/** The runtime's pieces, chosen by the entry point. */
export interface MockPlatform {
  /** `node` or `web`: shown in diagnostics and used by tests. */
  readonly name: 'node' | 'web';
  readonly crypto: CryptoPrimitives;
  /**
   * Makes the transport for webhook URLs that are not in-process receivers: node:http(s) under Node, `fetch` in a
   * browser or worker (where a URL the page may not reach becomes a failed attempt with its reason).
   */
  createNetworkTransport(): WebhookTransport;
  /**
   * Reads a file the package ships (`schema.graphql`, `openapi.yaml`, the legacy SDL); `undefined` when this runtime
   * has no package files to read (a browser bundle), and the published-source routes say so.
   */
  readonly readPackageFile: ((relative: string) => Promise<Uint8Array | string>) | undefined;
  /**
   * Registers the landing page and the browser pages (they read built assets from the package); `undefined` where
   * there are none to serve.
   */
  readonly registerPages: ((pages: PageRoutes, deps: PageDeps) => void) | undefined;
  /**
   * Nanoseconds from a fixed origin that never go back: how long each request took (its log line and journal
   * entry; the pipeline turns the difference into milliseconds). Node's is `process.hrtime.bigint` itself, not the
   * global `performance`: the first read of that global loads perf_hooks, a tenth of the CLI mock's cold start before
   * its first answer could go out (decision 0037); handed over as it is, a request's reads run none of the
   * platform's own code. The web platform's is built on `performance.now()`.
   */
  readonly monotonicNs: () => bigint;
  /** graphql-jit, loaded on first need; `undefined` runs every operation on graphql-js (same answers). */
  readonly jit: JitLoader | undefined;
  /**
   * Starts loading the GraphQL engine when the app is built instead of on the first `/graphql` request. A page fetches
   * the engine's chunk over the network (in a dev server, transformed on demand), so it loads while msw's worker
   * starts; under Node the engine would lengthen the CLI's cold start and token calls never need it, so it waits.
   */
  readonly loadGraphqlAtStart: boolean;
}
