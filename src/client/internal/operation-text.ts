/**
 * The kit's typed documents, their query text and their root field, by guide and operation name. Everything here
 * is read off the public entries and the generated tables (`generated/operation-texts.ts`, written from
 * `operations/` by `npm run generate`), so an operation added to `operations/` needs no line in this file; if an
 * entry does not export its `<Operation>Document`, this file fails to compile, naming it.
 * test/client/internal/operation-text.test.ts proves each text parses to the document it stands for.
 *
 * @module
 */
import { operationRootFields } from '../../../generated/operation-texts.ts';
import type { GuideName } from '../../contract/guides.ts';
import { type OperationName, operationText as textOf } from '../../contract/operations.ts';
import * as currentEntry from '../../index.ts';
import * as legacyEntry from '../../legacy.ts';

/** The export name of an operation's typed document in each entry. */
type DocumentExport = `${OperationName}Document`;

/**
 * The typed document of each operation, read off one guide's public entry. The constraint is the check: an
 * operation whose document the entry does not export is a compile error here ("Property 'XDocument' is missing").
 */
function documentsOf<Entry extends { readonly [K in DocumentExport]: object }>(
  entry: Entry,
): { readonly [N in OperationName]: Entry[`${N}Document`] } {
  const names = Object.keys(operationRootFields.current) as OperationName[];
  return Object.fromEntries(names.map((name) => [name, entry[`${name}Document`]])) as {
    readonly [N in OperationName]: Entry[`${N}Document`];
  };
}

/** The documents of each guide, by operation name, for the client's named operations. */
export const guideDocuments = {
  current: documentsOf(currentEntry),
  legacy: documentsOf(legacyEntry),
} as const;

/** Query text by document object, for both guides. */
export const operationText: ReadonlyMap<object, string> = new Map<object, string>(
  (['current', 'legacy'] as const).flatMap((guide) =>
    (Object.keys(guideDocuments[guide]) as OperationName[]).map(
      (name) => [guideDocuments[guide][name], textOf(guide, name)] as const,
    ),
  ),
);

/**
 * The root field an operation selects in a guide: the part of the answer's data a named client method returns.
 *
 * @example
 * rootFieldOf('current', 'ProcessPaymentRequest'); // 'processPaymentRequest'
 */
export function rootFieldOf(guide: GuideName, name: OperationName): string {
  return operationRootFields[guide][name];
}
