/**
 * Which guide a request speaks. The two guides differ in a few names (see `legacyGuideNames`); each difference is a
 * signal, found either in the document (input type name, selected fee fields, names inside inline literals) or in
 * the variables (card number field name, where description and reference_no sit).
 *
 * In `both` mode the request's own signals pick the guide (none: current); signals of both guides are a conflict.
 * In a single-guide mode a signal of the other guide is a mismatch. The mock answers both with an error naming the
 * fix; the checker uses the same decision to pick the guide it checks an exchange against. Document signals are
 * computed once per cached document; variable signals are a handful of property reads per request.
 *
 * @module
 */
import { type DocumentNode, Kind, type OperationDefinitionNode, type ValueNode, visit } from 'graphql/index.js';
import { isPlainObject } from '../internal/plain-object.ts';
import { legacyGuideNames as n } from './guides.ts';

/** A guide of the service: the current interface or the older guide's names. */
type Guide = 'current' | 'legacy';

/** How guides are served or checked: one of them, or both with per-request detection. */
export type GuideMode = Guide | 'both';

/** The kinds of difference between the guides. */
export type SignalKind = 'cardNumber' | 'reference' | 'inputType' | 'feeTotal' | 'feeLocation';

/** One place where a request uses a name of one guide. */
export interface GuideSignal {
  /** The guide the name belongs to. */
  readonly guide: Guide;
  /** Which difference it is. */
  readonly kind: SignalKind;
  /** The name as the request wrote it (`number`, `ProcessPaymentInput`, `total`, …). */
  readonly name: string;
  /** Dotted input path for variable signals (`input.credit_card.number`); undefined in the document. */
  readonly path: string | undefined;
  /** Root field the signal belongs to, for 7.3 errors (variable signals only). */
  readonly rootField: string | undefined;
}

/**
 * Collects the document signals: variable and fragment type names, fields selected on the fee list, and field
 * names inside inline input literals.
 */
export function documentSignals(document: DocumentNode): GuideSignal[] {
  const signals: GuideSignal[] = [];
  const add = (guide: Guide, kind: SignalKind, name: string) => {
    if (!signals.some((s) => s.name === name && s.kind === kind))
      signals.push({ guide, kind, name, path: undefined, rootField: undefined });
  };
  // Selection context: the name of the enclosing field, or the fee type for fragments on it.
  const fields: string[] = [];
  const objectFields: string[] = [];
  const inFeeList = () => {
    const top = fields[fields.length - 1];
    return top === 'paymentGatewayFeesCalc' || top === n.feeEntryType;
  };
  visit(document, {
    NamedType(node) {
      const name = node.name.value;
      if (name === n.currentPaymentInputType || name === n.paymentReferenceType) add('current', 'inputType', name);
      else if (name === n.legacyPaymentInputType) add('legacy', 'inputType', name);
    },
    FragmentDefinition: {
      enter(node) {
        fields.push(node.typeCondition.name.value);
      },
      leave() {
        fields.pop();
      },
    },
    Field: {
      enter(node) {
        const name = node.name.value;
        if (inFeeList()) {
          if (name === n.currentTotalField) add('current', 'feeTotal', name);
          else if (name === n.legacyTotalField) add('legacy', 'feeTotal', name);
          else if (name === n.legacyLocationField) add('legacy', 'feeLocation', name);
        }
        fields.push(name);
      },
      leave() {
        fields.pop();
      },
    },
    Argument: {
      enter(node) {
        objectFields.push(node.name.value);
      },
      leave() {
        objectFields.pop();
      },
    },
    ObjectField: {
      enter(node) {
        const name = node.name.value;
        const parent = objectFields[objectFields.length - 1];
        if (parent === 'credit_card' && name === n.legacyCardNumberField) add('legacy', 'cardNumber', name);
        else if (parent === 'credit_card' && name === n.currentCardNumberField) add('current', 'cardNumber', name);
        else if (parent === 'contact' && (name === 'description' || name === 'reference_no'))
          add('legacy', 'reference', `contact.${name}`);
        else if (name === n.paymentReferenceField) add('current', 'reference', name);
        objectFields.push(name);
      },
      leave() {
        objectFields.pop();
      },
    },
  });
  return signals;
}

/** A variable bound to a root field argument (or to a field inside an inline literal), with its dotted path. */
export interface VariableBinding {
  readonly variable: string;
  /** Dotted input path of the variable's value, e.g. `input` or `credit_card`. */
  readonly path: string;
  /** The root field the argument belongs to. */
  readonly rootField: string;
}

/** Finds where the operation's variables land in root field arguments, for variable signals and 7.3 paths. */
export function variableBindings(operation: OperationDefinitionNode): VariableBinding[] {
  const out: VariableBinding[] = [];
  const walk = (value: ValueNode, path: string, rootField: string) => {
    if (value.kind === Kind.VARIABLE) out.push({ variable: value.name.value, path, rootField });
    else if (value.kind === Kind.OBJECT)
      for (const f of value.fields) walk(f.value, `${path}.${f.name.value}`, rootField);
  };
  for (const sel of operation.selectionSet.selections) {
    if (sel.kind !== Kind.FIELD) continue;
    for (const arg of sel.arguments ?? []) walk(arg.value, arg.name.value, sel.name.value);
  }
  return out;
}

function lastSegment(path: string): string {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? path : path.slice(dot + 1);
}

/**
 * Adds a signal at `at` (or at its `key`) to `out`, allocating the list on the first one, unless `only` names the
 * other guide. The path is built only for a signal kept: a request in the served guide allocates nothing here.
 */
function pushSignal(
  out: GuideSignal[] | undefined,
  only: Guide | undefined,
  guide: Guide,
  kind: SignalKind,
  name: string,
  at: string,
  key: string | undefined,
  rootField: string,
): GuideSignal[] | undefined {
  if (only !== undefined && guide !== only) return out;
  const list = out ?? [];
  list.push({ guide, kind, name, path: key === undefined ? at : `${at}.${key}`, rootField });
  return list;
}

/** A key whose presence in a variable's object is a signal: [key, guide, kind, name as reported]. */
type SignalKey = readonly [key: string, guide: Guide, kind: SignalKind, name: string];

const cardKeys: readonly SignalKey[] = [
  [n.legacyCardNumberField, 'legacy', 'cardNumber', n.legacyCardNumberField],
  [n.currentCardNumberField, 'current', 'cardNumber', n.currentCardNumberField],
];
const contactKeys: readonly SignalKey[] = [
  ['description', 'legacy', 'reference', 'contact.description'],
  ['reference_no', 'legacy', 'reference', 'contact.reference_no'],
];

/** Signals of the `keys` present in `v` (a card or contact object at `path`). */
function keySignals(
  v: Record<string, unknown>,
  keys: readonly SignalKey[],
  path: string,
  root: string,
  out: GuideSignal[] | undefined,
  only: Guide | undefined,
): GuideSignal[] | undefined {
  let o = out;
  for (const [key, guide, kind, name] of keys)
    if (v[key] !== undefined) o = pushSignal(o, only, guide, kind, name, path, key, root);
  return o;
}

/**
 * Collects the variable signals of one request: inside each bound variable, the card number field name and where
 * description and reference_no sit. Reads only the few keys that differ; allocates only when a signal is found.
 * With `only`, collects that guide's signals alone: a mock serving one guide needs only the other guide's, so a
 * request in the served guide, the common case, allocates nothing.
 */
export function variableSignals(
  bindings: readonly VariableBinding[],
  variables: Readonly<Record<string, unknown>> | undefined,
  only?: Guide,
): GuideSignal[] | undefined {
  if (!variables) return undefined;
  let out: GuideSignal[] | undefined;
  for (const b of bindings) {
    const v = variables[b.variable];
    if (!isPlainObject(v)) continue;
    const last = lastSegment(b.path);
    if (last === 'credit_card') out = keySignals(v, cardKeys, b.path, b.rootField, out, only);
    else if (last === 'contact') out = keySignals(v, contactKeys, b.path, b.rootField, out, only);
    else if (last === n.paymentReferenceField)
      out = pushSignal(out, only, 'current', 'reference', n.paymentReferenceField, b.path, undefined, b.rootField);
    else {
      if (isPlainObject(v.credit_card))
        out = keySignals(v.credit_card, cardKeys, `${b.path}.credit_card`, b.rootField, out, only);
      if (isPlainObject(v.contact))
        out = keySignals(v.contact, contactKeys, `${b.path}.contact`, b.rootField, out, only);
      if (v[n.paymentReferenceField] !== undefined)
        out = pushSignal(
          out,
          only,
          'current',
          'reference',
          n.paymentReferenceField,
          b.path,
          n.paymentReferenceField,
          b.rootField,
        );
    }
  }
  return out;
}

/** The guide decided for a request, or the signals that make it impossible. */
export type GuideDecision =
  | { readonly ok: true; readonly guide: Guide }
  | { readonly ok: false; readonly kind: 'mismatch'; readonly signal: GuideSignal; readonly mode: Guide }
  | { readonly ok: false; readonly kind: 'conflict'; readonly a: GuideSignal; readonly b: GuideSignal };

/**
 * Decides the guide of a request from its signals. Variable signals are looked at before document ones when
 * reporting, so the 7.3 path points into the variables the client can fix.
 */
export function decideGuide(
  mode: GuideMode,
  docSignals: readonly GuideSignal[],
  varSignals: readonly GuideSignal[] | undefined,
): GuideDecision {
  if (mode !== 'both') {
    const wrong = varSignals?.find((s) => s.guide !== mode) ?? docSignals.find((s) => s.guide !== mode);
    return wrong ? { ok: false, kind: 'mismatch', signal: wrong, mode } : { ok: true, guide: mode };
  }
  let first: GuideSignal | undefined;
  for (const list of [varSignals ?? [], docSignals])
    for (const s of list) {
      if (!first) first = s;
      else if (s.guide !== first.guide) {
        // Report the variable signal first when one is involved.
        return { ok: false, kind: 'conflict', a: s.path ? s : first, b: s.path ? first : s };
      }
    }
  return { ok: true, guide: first?.guide ?? 'current' };
}
