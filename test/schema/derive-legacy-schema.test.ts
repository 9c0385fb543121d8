import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Change, diff } from '@graphql-inspector/core';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { deriveLegacySchemaDocument, legacyGuideNames as n } from '../../src/schema/derive-legacy-schema.ts';

// graphql-inspector runs outside Vite and loads graphql's CommonJS build, while a plain import here would get its
// ESM build; schemas from one realm fail graphql's instanceof checks in the other, so build them with the same copy.
const { buildASTSchema, isInputObjectType, Kind, parse, print, visit } = createRequire(import.meta.url)(
  'graphql',
) as typeof import('graphql');

const currentSdl = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
const committedLegacySdl = readFileSync(new URL('../../generated/legacy/schema.graphql', import.meta.url), 'utf8');
const currentDoc = parse(currentSdl);
const current = buildASTSchema(currentDoc);
const legacy = buildASTSchema(parse(committedLegacySdl));

/** The four differences documented in spec section 9. */
type Difference =
  | 'fee list total + card_location'
  | 'card number field'
  | 'payment input type name'
  | 'reference in contact';

/**
 * Changes each difference must produce (`type path`), so a derivation that silently skipped a step fails; every
 * other change must still fall under one of the rules below.
 */
const witnesses: Record<Difference, string[]> = {
  'fee list total + card_location': [
    `FIELD_REMOVED ${n.feeEntryType}.${n.currentTotalField}`,
    `FIELD_ADDED ${n.feeEntryType}.${n.legacyTotalField}`,
    `FIELD_ADDED ${n.feeEntryType}.${n.legacyLocationField}`,
  ],
  'card number field': [
    `INPUT_FIELD_REMOVED ${n.cardInputType}.${n.currentCardNumberField}`,
    `INPUT_FIELD_ADDED ${n.cardInputType}.${n.legacyCardNumberField}`,
  ],
  'payment input type name': [
    `TYPE_REMOVED ${n.currentPaymentInputType}`,
    `TYPE_ADDED ${n.legacyPaymentInputType}`,
    'FIELD_ARGUMENT_TYPE_CHANGED Mutation.processPaymentRequest.input',
  ],
  'reference in contact': [
    `TYPE_REMOVED ${n.paymentReferenceType}`,
    `INPUT_FIELD_ADDED ${n.contactInputType}.description`,
    `INPUT_FIELD_ADDED ${n.contactInputType}.reference_no`,
  ],
};

/** Path prefixes whose changes (descriptions, directive usages, added fields) belong to one difference. */
const rules: [Difference, (c: Change) => boolean][] = [
  [
    'fee list total + card_location',
    (c) =>
      [n.currentTotalField, n.legacyTotalField, n.legacyLocationField].some((f) => isAt(c, `${n.feeEntryType}.${f}`)),
  ],
  [
    'card number field',
    (c) => [n.currentCardNumberField, n.legacyCardNumberField].some((f) => isAt(c, `${n.cardInputType}.${f}`)),
  ],
  [
    'payment input type name',
    (c) =>
      isAt(c, n.currentPaymentInputType) ||
      isAt(c, n.legacyPaymentInputType) ||
      (c.type === 'FIELD_ARGUMENT_TYPE_CHANGED' &&
        c.path === 'Mutation.processPaymentRequest.input' &&
        c.meta.oldArgumentType === `${n.currentPaymentInputType}!` &&
        c.meta.newArgumentType === `${n.legacyPaymentInputType}!`),
  ],
  [
    'reference in contact',
    (c) =>
      isAt(c, n.paymentReferenceType) ||
      ['description', 'reference_no'].some((f) => isAt(c, `${n.contactInputType}.${f}`)),
  ],
];

/** True when the change sits at `path` or below it (`A.b` covers `A.b.@directive`, not `A.bc`). */
function isAt(change: Change, path: string): boolean {
  return change.path === path || (change.path?.startsWith(`${path}.`) ?? false);
}

const key = (c: Change) => `${c.type} ${c.path}`;

/** Sorts every change into the difference it belongs to; what fits none is returned as unclassified. */
async function classify(from: GraphQLSchema, to: GraphQLSchema) {
  const changes = await diff(from, to);
  const byDifference = new Map<Difference, string[]>();
  const unclassified: string[] = [];
  for (const change of changes) {
    const matches = rules.filter(([, matchesRule]) => matchesRule(change)).map(([d]) => d);
    // A change claimed by two rules would mean the rules overlap and could hide a gap.
    if (matches.length !== 1) {
      unclassified.push(`${key(change)} (matched ${matches.length} rules)`);
      continue;
    }
    const [d] = matches as [Difference];
    byDifference.set(d, [...(byDifference.get(d) ?? []), key(change)]);
  }
  return { changes, byDifference, unclassified };
}

describe('legacy schema derivation', () => {
  it('differs from schema.graphql only by the four documented differences', async () => {
    const { changes, unclassified } = await classify(current, legacy);
    expect(changes.length).toBeGreaterThan(0);
    expect(unclassified).toEqual([]);
  });

  it.each(Object.entries(witnesses))('witnesses the difference "%s"', async (difference, want) => {
    const { byDifference } = await classify(current, legacy);
    expect(byDifference.get(difference as Difference)).toEqual(expect.arrayContaining(want));
  });

  it('changes the mutation argument from ProcessPaymentRequestInput! to ProcessPaymentInput!', () => {
    const arg = current
      .getMutationType()
      ?.getFields()
      .processPaymentRequest?.args.find((a) => a.name === 'input');
    const legacyArg = legacy
      .getMutationType()
      ?.getFields()
      .processPaymentRequest?.args.find((a) => a.name === 'input');
    expect(String(arg?.type)).toBe('ProcessPaymentRequestInput!');
    expect(String(legacyArg?.type)).toBe('ProcessPaymentInput!');
  });

  it('keeps ProcessPaymentInput equal to ProcessPaymentRequestInput apart from the moved payment_reference', async () => {
    // The rename makes graphql-inspector report the legacy type as brand new, which would hide any other change
    // inside it; renaming it back shows what really changed within the type.
    const renamedBack = buildASTSchema(
      visit(parse(committedLegacySdl), {
        Name(node) {
          return node.value === n.legacyPaymentInputType ? { ...node, value: n.currentPaymentInputType } : undefined;
        },
      }),
    );
    const within = (await diff(current, renamedBack)).filter((c) => isAt(c, n.currentPaymentInputType)).map(key);
    expect(within.sort()).toEqual(
      [
        `INPUT_FIELD_REMOVED ${n.currentPaymentInputType}.${n.paymentReferenceField}`,
        // Only the description, which says the type was renamed.
        `TYPE_DESCRIPTION_CHANGED ${n.currentPaymentInputType}`,
      ].sort(),
    );
  });

  it('flags a change that is not one of the four (the classifier can fail)', async () => {
    // Drop an optional contact field from the legacy schema: an undocumented difference that must go unclassified.
    const tampered = buildASTSchema(
      visit(parse(committedLegacySdl), {
        InputValueDefinition(node) {
          return node.name.value === 'phone' ? null : undefined;
        },
      }),
    );
    const { unclassified } = await classify(current, tampered);
    expect(unclassified).toEqual([`INPUT_FIELD_REMOVED ${n.contactInputType}.phone (matched 0 rules)`]);
  });

  it('commits generated/legacy/schema.graphql exactly as a fresh derivation prints it', () => {
    const [header, ...body] = committedLegacySdl.split('\n');
    expect(header).toMatch(/^# Generated by .*Do not edit by hand\.$/);
    expect(body.join('\n')).toBe(`${print(deriveLegacySchemaDocument(currentDoc))}\n`);
  });

  it('leaves its input document untouched', () => {
    const before = print(currentDoc);
    deriveLegacySchemaDocument(currentDoc);
    expect(print(currentDoc)).toBe(before);
  });
});

describe('@serverRequired on the legacy schema', () => {
  /** `Type.field` (or `Type.field(arg)`) → printed @serverRequired usage, for every position that carries it. */
  function serverRequired(doc: DocumentNode): Map<string, string> {
    const out = new Map<string, string>();
    for (const def of doc.definitions) {
      if (def.kind !== Kind.INPUT_OBJECT_TYPE_DEFINITION && def.kind !== Kind.OBJECT_TYPE_DEFINITION) continue;
      for (const field of def.fields ?? []) {
        const positions = [
          [`${def.name.value}.${field.name.value}`, field.directives] as const,
          ...('arguments' in field ? (field.arguments ?? []) : []).map(
            (a) => [`${def.name.value}.${field.name.value}(${a.name.value})`, a.directives] as const,
          ),
        ];
        for (const [position, directives] of positions) {
          const usage = directives?.find((d) => d.name.value === 'serverRequired');
          if (usage) out.set(position, print(usage));
        }
      }
    }
    return out;
  }

  // Where each current-guide position lives in the legacy guide; positions not listed keep their name.
  const legacyPosition: Record<string, string | null> = {
    [`${n.cardInputType}.${n.currentCardNumberField}`]: `${n.cardInputType}.${n.legacyCardNumberField}`,
    [`${n.currentPaymentInputType}.${n.paymentReferenceField}`]: null,
    [`${n.paymentReferenceType}.description`]: `${n.contactInputType}.description`,
    [`${n.paymentReferenceType}.reference_no`]: `${n.contactInputType}.reference_no`,
  };
  const mapPosition = (p: string): string | null =>
    p in legacyPosition
      ? (legacyPosition[p] ?? null)
      : p.replace(`${n.currentPaymentInputType}.`, `${n.legacyPaymentInputType}.`);

  const currentUsages = serverRequired(currentDoc);
  const legacyUsages = serverRequired(parse(committedLegacySdl));

  it.each(
    [...currentUsages].flatMap(([position, usage]) => {
      const target = mapPosition(position);
      return target === null ? [] : [[position, target, usage] as const];
    }),
  )('%s survives as %s with %s', (_from, target, usage) => {
    expect(legacyUsages.get(target)).toBe(usage);
  });

  it('marks exactly the mapped positions, no more', () => {
    const want = [...currentUsages.keys()].map(mapPosition).filter((p): p is string => p !== null);
    expect([...legacyUsages.keys()].sort()).toEqual(want.sort());
  });

  it('keeps the directive on the legacy fields in the built schema', () => {
    const card = legacy.getType(n.cardInputType);
    const contact = legacy.getType(n.contactInputType);
    if (!isInputObjectType(card) || !isInputObjectType(contact)) throw new Error('legacy input types missing');
    const directiveOf = (node: { astNode?: { directives?: readonly { name: { value: string } }[] } | null }) =>
      node.astNode?.directives?.map((d) => d.name.value);
    expect(directiveOf(card.getFields()[n.legacyCardNumberField]!)).toEqual(['serverRequired']);
    expect(directiveOf(contact.getFields().description!)).toEqual(['serverRequired']);
    expect(directiveOf(contact.getFields().reference_no!)).toEqual(['serverRequired']);
    expect(legacy.getDirective('serverRequired')).toBeDefined();
  });
});
