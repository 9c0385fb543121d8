/**
 * The shape every pact file is read into, whatever its specification version (V1 to V4) or the library that wrote
 * it: the static checks and the reports work on this one model, never on the raw JSON.
 *
 * @module
 */
import type { PathSegment } from './json-path.ts';

/** One matcher of a matching rule, as written (`{ match: 'type', min: 1 }`, `{ match: 'regex', regex }`, …). */
export interface Matcher {
  /** The matcher's name; V2 rules without `match` are read as `regex` or `type` (Pact's own defaulting). */
  readonly match: string;
  readonly [option: string]: unknown;
}

/** The matchers of one path, with how they combine. */
export interface RuleEntry {
  /** The path as the pact wrote it, in V3 form (`$.data.items[*].id`; a header or query name for those). */
  readonly path: string;
  /** The parsed path; undefined for header, query and metadata rules, which are keyed by a plain name. */
  readonly segments: readonly PathSegment[] | undefined;
  readonly matchers: readonly Matcher[];
  readonly combine: 'AND' | 'OR';
}

/** Categories of matching rules (V3 and V4 names; V2 rules are sorted into them). */
export type RuleCategory = 'body' | 'header' | 'query' | 'path' | 'status' | 'metadata';

/** Matching rules by category. */
export type MatchingRules = Readonly<Partial<Record<RuleCategory, readonly RuleEntry[]>>>;

/** A provider state with its parameters (V3 and V4; a V2 `providerState` has none). */
export interface ProviderState {
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** A request or response body, or message contents. */
export type PactBody =
  | { readonly present: false }
  | {
      readonly present: true;
      /** The content type the pact gives (V4 `contentType`, or the Content-Type header), when known. */
      readonly contentType: string | undefined;
      /** Parsed JSON when the body is JSON, otherwise the text. */
      readonly value: unknown;
    };

/** Header or query values by name, as written (names keep their case; each value list is what the pact holds). */
export type NameValues = Readonly<Record<string, readonly string[]>>;

/** What every kind of interaction carries. */
interface InteractionBase {
  /** The interaction's description: its name in every report. */
  readonly description: string;
  readonly providerStates: readonly ProviderState[];
  /** V4 `pending`: a failure is reported but does not fail the run. */
  readonly pending: boolean;
  /** V4 `comments.text`, kept for the reports. */
  readonly comments: readonly string[];
}

/** An HTTP request of a pact. */
export interface PactRequest {
  /** Upper-case method. */
  readonly method: string;
  readonly path: string;
  readonly query: NameValues;
  readonly headers: NameValues;
  readonly body: PactBody;
  readonly rules: MatchingRules;
}

/** An HTTP response of a pact. */
export interface PactResponse {
  readonly status: number;
  readonly headers: NameValues;
  readonly body: PactBody;
  readonly rules: MatchingRules;
}

/** A request/response interaction (V1 to V3 `interactions`, V4 `Synchronous/HTTP`). */
export interface HttpInteraction extends InteractionBase {
  readonly kind: 'http';
  readonly request: PactRequest;
  readonly response: PactResponse;
}

/** An asynchronous message (V3 `messages`, V4 `Asynchronous/Messages`). */
export interface MessageInteraction extends InteractionBase {
  readonly kind: 'message';
  readonly contents: PactBody;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly rules: MatchingRules;
}

/** An interaction of a kind the kit does not check (V4 `Synchronous/Messages`, plugin types). */
export interface OtherInteraction extends InteractionBase {
  readonly kind: 'other';
  /** The V4 `type` as written. */
  readonly type: string;
}

/** Any interaction of a pact. */
export type PactInteraction = HttpInteraction | MessageInteraction | OtherInteraction;

/** A pact file, read. */
export interface PactDocument {
  /** Where it was read from, as given. */
  readonly file: string;
  readonly consumer: string;
  readonly provider: string;
  /** `metadata.pactSpecification.version` (or V1/V2 `pact-specification`), "unknown" when missing. */
  readonly specification: string;
  readonly interactions: readonly PactInteraction[];
}
