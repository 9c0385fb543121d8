/**
 * Derives the legacy guide's schema from the current one, so `schema.graphql` stays the only hand-written SDL.
 *
 * The legacy guide differs in exactly four documented ways, each applied here as one step on the SDL's AST
 * (working on the AST keeps descriptions and directives as written):
 * 1. the fee list entry has `total` and `card_location` instead of `total_settlement_amount`;
 * 2. the card number field is `number` instead of `card_number`;
 * 3. the payment input type is `ProcessPaymentInput` instead of `ProcessPaymentRequestInput`;
 * 4. `description` and `reference_no` sit in the contact instead of in `payment_reference`.
 *
 * @module
 */
import {
  type DefinitionNode,
  type DocumentNode,
  type FieldDefinitionNode,
  type InputValueDefinitionNode,
  Kind,
  type ObjectTypeDefinitionNode,
  parse,
  visit,
} from 'graphql';
import { legacyGuideNames } from '../contract/guides.ts';

/** Names the derivation touches (the contract layer's guide vocabulary), re-exported for the schema diff test. */
export { legacyGuideNames };

const n = legacyGuideNames;

// The fields the legacy guide has and the current one lacks, written as SDL so their descriptions and
// directives read like the hand-written schema.
const legacyFeeFields = fieldsOf(/* GraphQL */ `
  type X {
    "The payment amount plus the fee: the legacy guide's name for total_settlement_amount."
    total: Float!
    "Where the card was issued, as the service reports it (for example domestic or international); an open list."
    card_location: String!
  }
`);

const legacyContactFields = inputFieldsOf(/* GraphQL */ `
  input X {
    "What the payment is for. The current guide moves this into payment_reference."
    description: String! @serverRequired
    "The client's own reference number for the payment. The current guide moves this into payment_reference."
    reference_no: String! @serverRequired
  }
`);

/**
 * Returns the legacy guide's SDL document for the given current-guide SDL document.
 *
 * @example
 * const legacy = print(deriveLegacySchemaDocument(parse(currentSdl)));
 */
export function deriveLegacySchemaDocument(current: DocumentNode): DocumentNode {
  const renamed = visit(current, {
    NamedType(node) {
      return node.name.value === n.currentPaymentInputType
        ? { ...node, name: { ...node.name, value: n.legacyPaymentInputType } }
        : undefined;
    },
  });

  const definitions: DefinitionNode[] = [];
  for (const def of renamed.definitions) {
    if (def.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION && def.name.value === n.paymentReferenceType) continue;
    if (def.kind === Kind.OBJECT_TYPE_DEFINITION && def.name.value === n.feeEntryType) {
      definitions.push({ ...def, fields: replaceTotalField(def.fields ?? []) });
    } else if (def.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION && def.name.value === n.cardInputType) {
      definitions.push({ ...def, fields: (def.fields ?? []).map(renameCardNumber) });
    } else if (def.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION && def.name.value === n.contactInputType) {
      definitions.push({ ...def, fields: [...(def.fields ?? []), ...legacyContactFields] });
    } else if (def.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION && def.name.value === n.currentPaymentInputType) {
      definitions.push({
        ...def,
        name: { ...def.name, value: n.legacyPaymentInputType },
        description: def.description && {
          ...def.description,
          value:
            'Everything `processPaymentRequest` needs to start a payment (legacy guide; the current guide names it ProcessPaymentRequestInput).',
        },
        fields: (def.fields ?? []).filter((f) => f.name.value !== n.paymentReferenceField),
      });
    } else {
      definitions.push(def);
    }
  }
  return { ...renamed, definitions };
}

function replaceTotalField(fields: readonly FieldDefinitionNode[]): FieldDefinitionNode[] {
  return fields.flatMap((f) => (f.name.value === n.currentTotalField ? legacyFeeFields : [f]));
}

function renameCardNumber(field: InputValueDefinitionNode): InputValueDefinitionNode {
  if (field.name.value !== n.currentCardNumberField) return field;
  return {
    ...field,
    name: { ...field.name, value: n.legacyCardNumberField },
    description: field.description && {
      ...field.description,
      value: 'The card number (the primary account number). The current guide calls this field `card_number`.',
    },
  };
}

function fieldsOf(sdl: string): readonly FieldDefinitionNode[] {
  return (parse(sdl).definitions[0] as ObjectTypeDefinitionNode).fields ?? [];
}

function inputFieldsOf(sdl: string): readonly InputValueDefinitionNode[] {
  const def = parse(sdl).definitions[0];
  return def?.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION ? (def.fields ?? []) : [];
}
