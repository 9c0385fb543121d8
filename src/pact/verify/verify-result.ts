/**
 * The outcome of verifying one interaction one way, shared by the static checks, the dynamic runner and the
 * reports.
 *
 * @module
 */
import type { GuideName } from '../../contract/check/graphql-schemas.ts';

/** How an interaction was verified. */
export type VerifyMode = 'static' | 'dynamic';

/** One interaction, verified one way. */
export interface InteractionResult {
  /** The pact file, as given on the command line. */
  readonly file: string;
  readonly consumer: string;
  readonly provider: string;
  /** The interaction's description. */
  readonly interaction: string;
  readonly mode: VerifyMode;
  /** What kind of interaction it is: checked against schema.graphql, openapi.yaml's paths or its webhook. */
  readonly kind: 'graphql' | 'rest' | 'message' | 'other' | 'file';
  /** The guide a GraphQL interaction was checked against. */
  readonly guide: GuideName | undefined;
  readonly ok: boolean;
  /** V4 `pending`: reported, but does not fail the run. */
  readonly pending: boolean;
  /** One line per failure; empty when ok. */
  readonly reasons: readonly string[];
}

/**
 * Whether the results let the run pass: every interaction ok, pending ones aside.
 *
 * @example
 * process.exitCode = allPassed(results) ? 0 : 1;
 */
export function allPassed(results: readonly InteractionResult[]): boolean {
  return results.every((r) => r.ok || r.pending);
}
