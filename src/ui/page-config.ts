/**
 * What the mock tells its pages: written by the server into each page as a JSON data block (`#pck-config`), read by
 * the browser code. Types only, so both the Node side and the browser side import it.
 *
 * @module
 */

/** The guide mode the mock serves (mirrors `MockGuide`; duplicated so browser code imports nothing from the mock). */
export type PageGuideMode = 'current' | 'legacy' | 'both';

/** The configuration each page receives. */
export interface PageConfig {
  /** Guide mode of the mock; `both` shows a switch in GraphiQL. */
  readonly guide: PageGuideMode;
  /** Test client the pages use to get a token (the first configured client). */
  readonly clientId: string;
  /** Its API key, sent to generate-token only; empty behind a control token (the pages are public shells then). */
  readonly apiKey: string;
  /** The control API needs `Authorization: Bearer <token>`: the pages ask for it once (sessionStorage) and send it. */
  readonly controlTokenRequired: boolean;
  /** Whether /graphql also needs x-client-id and x-api-key (`Assumptions.graphqlRequiresClientHeaders`). */
  readonly graphqlRequiresClientHeaders: boolean;
  /** Paths the pages call, all on the mock's own origin. */
  readonly paths: {
    readonly generateToken: string;
    readonly graphql: string;
    readonly openapi: string;
    /** The control API prefix, `/__pck/`. */
    readonly control: string;
  };
  /** Links between the pages. */
  readonly pages: { readonly graphiql: string; readonly reference: string; readonly dashboard: string };
}
