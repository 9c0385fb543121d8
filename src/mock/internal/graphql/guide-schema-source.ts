/**
 * What each guide's wire schema is built from: its generated SDL, parsed once per process (wire-schema.ts). The
 * CLI's mock script is built with guide-schema-document.ts in place of this module (tsup.config.ts): the same SDL
 * already parsed, as JSON, for its cold start. The library and browser builds keep the SDL, much smaller than the
 * JSON, in each of their copies.
 *
 * @module
 */
import type { DocumentNode } from 'graphql/index.js';
import { currentSchemaSdl, legacySchemaSdl } from '../../../../generated/schema-sdl.ts';
import type { Guide } from '../domain/payments.ts';

/**
 * The SDL of `guide`, or (in the CLI's mock script) its parsed document.
 *
 * @example
 * buildWireSchema(guideSchemaSource('legacy'));
 */
export function guideSchemaSource(guide: Guide): string | DocumentNode {
  return guide === 'current' ? currentSchemaSdl : legacySchemaSdl;
}
