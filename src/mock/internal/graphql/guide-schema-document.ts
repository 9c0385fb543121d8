/**
 * guide-schema-source.ts for the CLI's mock script (tsup.config.ts puts this module in its place): each guide's SDL
 * already parsed without locations, read with `JSON.parse`. On the CLI mock's way to its first answer graphql's
 * parser is still cold, and `JSON.parse` reads the same document in a fraction of its time (decision 0037). Both come from the same SDL
 * (scripts/generate.ts), and wire-schema.test.ts holds them to the same wire schema.
 *
 * @module
 */
import type { DocumentNode } from 'graphql/index.js';
import { currentSchemaDocumentJson, legacySchemaDocumentJson } from '../../../../generated/schema-documents.ts';
import type { Guide } from '../domain/payments.ts';

/**
 * The parsed document of `guide`, a new object on each call (the caller builds a schema from it once per process).
 *
 * @example
 * buildWireSchema(guideSchemaSource('current'));
 */
export function guideSchemaSource(guide: Guide): DocumentNode {
  return JSON.parse(guide === 'current' ? currentSchemaDocumentJson : legacySchemaDocumentJson) as DocumentNode;
}
