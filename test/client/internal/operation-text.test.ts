// The client ships the query text of the kit's documents; each text must parse to exactly the document it stands
// for, or the client would send another operation than the types describe.
import { type DocumentNode, parse, print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { type operationRootFields, operationTexts } from '../../../generated/operation-texts.ts';
import { guideDocuments, operationText, rootFieldOf } from '../../../src/client/internal/operation-text.ts';
import * as current from '../../../src/index.ts';
import * as legacy from '../../../src/legacy.ts';

const documents = [current, legacy].flatMap((entry) =>
  Object.entries(entry).filter(([name]) => name.endsWith('Document')),
) as [string, DocumentNode][];

/** The operation names of operations/<guide>/, from the generated table. */
const operationNames = (guide: 'current' | 'legacy') => Object.keys(operationTexts[guide]).sort();

describe('operation text of the client', () => {
  it('covers every typed document of both guides', () => {
    expect(documents).toHaveLength(operationNames('current').length + operationNames('legacy').length);
    for (const [name, document] of documents) expect(operationText.has(document), name).toBe(true);
    expect(operationText.size).toBe(documents.length);
  });

  it.each(['current', 'legacy'] as const)(
    '%s: each entry exports one document per operation of operations/',
    (guide) => {
      const entry: Record<string, unknown> = guide === 'current' ? current : legacy;
      const exported = Object.keys(entry)
        .filter((name) => name.endsWith('Document'))
        .map((name) => name.slice(0, -'Document'.length))
        .sort();
      expect(exported).toEqual(operationNames(guide));
      expect(Object.keys(guideDocuments[guide]).sort()).toEqual(operationNames(guide));
    },
  );

  it.each(documents)('%s: the text prints like the document', (_name, document) => {
    expect(print(parse(operationText.get(document) ?? ''))).toBe(print(document));
  });

  it('names each guide its own documents', () => {
    expect(guideDocuments.current.ProcessPaymentRequest).toBe(current.ProcessPaymentRequestDocument);
    expect(guideDocuments.legacy.ProcessPaymentRequest).toBe(legacy.ProcessPaymentRequestDocument);
    expect(guideDocuments.legacy.PaymentGatewayFeesCalc).toBe(legacy.PaymentGatewayFeesCalcDocument);
    expect(guideDocuments.current.PaymentGatewayFeesCalc).not.toBe(guideDocuments.legacy.PaymentGatewayFeesCalc);
  });

  it.each(['current', 'legacy'] as const)(
    '%s: the root field of each operation is the one its document selects',
    (guide) => {
      for (const [name, document] of Object.entries(guideDocuments[guide]) as [string, DocumentNode][]) {
        const definition = document.definitions.find((d) => d.kind === 'OperationDefinition');
        const selections = definition?.kind === 'OperationDefinition' ? definition.selectionSet.selections : [];
        expect(selections, name).toHaveLength(1);
        const selected = selections[0]?.kind === 'Field' ? selections[0].name.value : undefined;
        expect(rootFieldOf(guide, name as keyof typeof operationRootFields.current), name).toBe(selected);
      }
    },
  );
});
