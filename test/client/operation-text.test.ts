// The client ships the query text of the kit's documents; each text must parse to exactly the document it stands
// for, or the client would send another operation than the types describe.
import { type DocumentNode, parse, print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { guideDocuments, operationText } from '../../src/client/internal/operation-text.ts';
import * as current from '../../src/index.ts';
import * as legacy from '../../src/legacy.ts';

const documents = [current, legacy].flatMap((entry) =>
  Object.entries(entry).filter(([name]) => name.endsWith('Document')),
) as [string, DocumentNode][];

describe('operation text of the client', () => {
  it('covers every typed document of both guides', () => {
    expect(documents).toHaveLength(6);
    for (const [name, document] of documents) expect(operationText.has(document), name).toBe(true);
    expect(operationText.size).toBe(6);
  });

  it.each(documents)('%s: the text prints like the document', (_name, document) => {
    expect(print(parse(operationText.get(document) ?? ''))).toBe(print(document));
  });

  it('names each guide its own documents', () => {
    expect(guideDocuments.current.payment).toBe(current.ProcessPaymentRequestDocument);
    expect(guideDocuments.legacy.payment).toBe(legacy.ProcessPaymentRequestDocument);
    expect(guideDocuments.legacy.fees).toBe(legacy.PaymentGatewayFeesCalcDocument);
  });
});
