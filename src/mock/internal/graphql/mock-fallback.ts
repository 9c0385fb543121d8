/**
 * The MockStore fallback, applied to what a resolver returns instead of through a resolver on every field.
 *
 * `addMocksToSchema` backs each field with a mock resolver, so a field the kit's resolvers leave undefined still gets
 * a value from the MockStore. Under graphql-jit, a resolver on a field means building resolve info for it on every
 * request, for every field of the answer, though the kit's resolvers fill nearly all of them. Here the root
 * resolvers' results are walked along their output type once, and only fields left undefined are filled from the
 * same MockStore (`store.get`, keyed per type, so a filled field is stable); every other field is read by
 * graphql-jit straight off the object.
 *
 * @module
 */
import type { IMockStore, Ref } from '@graphql-tools/mock';
import {
  type GraphQLObjectType,
  type GraphQLOutputType,
  getNullableType,
  isListType,
  isObjectType,
} from 'graphql/index.js';

/** Fills the undefined fields of one resolved value (in place) and returns it. */
export type Completer = (value: unknown) => unknown;

/** Key under which fallback values are kept in the MockStore: one mocked object per type. */
const FALLBACK_KEY = 'payment-contract-kit-fallback';

const identity: Completer = (value) => value;

/**
 * Builds the completer for values of `type`: objects get their undefined fields from `store`, nested objects and
 * lists are walked, scalars pass through.
 *
 * @example
 * const complete = createCompleter(schema.getMutationType()!.getFields().processPaymentRequest!.type, store);
 * complete({ amount: 1, status: { name: 'processing' } }) // paid_at, uuid, … filled from the store
 */
export function createCompleter(type: GraphQLOutputType, store: IMockStore): Completer {
  const built = new Map<GraphQLObjectType, Completer>();

  function forType(t: GraphQLOutputType): Completer {
    const nullable = getNullableType(t);
    if (isListType(nullable)) {
      const item = forType(nullable.ofType);
      if (item === identity) return identity;
      return (value) => {
        if (Array.isArray(value)) for (const v of value) item(v);
        return value;
      };
    }
    return isObjectType(nullable) ? forObject(nullable) : identity;
  }

  function forObject(objectType: GraphQLObjectType): Completer {
    const known = built.get(objectType);
    if (known) return known;
    const fields: { name: string; complete: Completer; fallback: () => unknown }[] = [];
    const completer: Completer = (value) => {
      if (typeof value !== 'object' || value === null) return value;
      const record = value as Record<string, unknown>;
      for (const f of fields) {
        const v = record[f.name];
        if (v === undefined) record[f.name] = f.fallback();
        else if (f.complete !== identity) f.complete(v);
      }
      return value;
    };
    built.set(objectType, completer);
    for (const field of Object.values(objectType.getFields())) {
      const complete = forType(field.type);
      fields.push({
        name: field.name,
        complete,
        fallback: () => materialize(store.get(objectType.name, FALLBACK_KEY, field.name), field.type),
      });
    }
    return completer;
  }

  // The store answers object fields with references; turn them into plain objects of the store's values.
  function materialize(value: unknown, t: GraphQLOutputType): unknown {
    const nullable = getNullableType(t);
    if (value === null || value === undefined) return value;
    if (isListType(nullable)) return Array.isArray(value) ? value.map((v) => materialize(v, nullable.ofType)) : value;
    if (!isObjectType(nullable) || typeof value !== 'object' || !('$ref' in value)) return value;
    const ref = value as Ref;
    const out: Record<string, unknown> = {};
    for (const field of Object.values(nullable.getFields()))
      out[field.name] = materialize(store.get(ref, field.name), field.type);
    return out;
  }

  return forType(type);
}
