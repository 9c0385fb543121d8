/**
 * Reading a provider state's parameters: verifiers send them as JSON, or as text when they use a query string, and a
 * wrong one is a 400 in the control API's shape naming the state and the parameter.
 *
 * @module
 */
import { isPlainObject } from '../../../internal/plain-object.ts';
import { badRequest } from '../http-error.ts';

/** A state's parameters, as the verifier sent them. */
export type Params = Readonly<Record<string, unknown>>;

/** A 400 naming the state and what is wrong with it. */
export function bad(state: string, problem: string): Error {
  return badRequest(`provider state "${state}": ${problem}`);
}

/** Reads a string parameter. */
export function text(state: string, params: Params, key: string): string {
  const v = params[key];
  if (typeof v !== 'string' || v === '') throw bad(state, `params.${key} must be a non-empty string.`);
  return v;
}

/** Reads a number parameter; verifiers that send parameters as a query string send it as text. */
export function number(state: string, params: Params, key: string): number {
  const v = params[key];
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0)
    throw bad(state, `params.${key} must be a positive number.`);
  return n;
}

/** Reads an object of strings; from a query string it arrives as JSON text. */
export function stringMap(state: string, params: Params, key: string): Record<string, string> {
  let v = params[key];
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      // Reported below as the wrong shape.
    }
  }
  if (!isPlainObject(v) || !Object.values(v).every((x) => typeof x === 'string'))
    throw bad(state, `params.${key} must be an object of strings, e.g. { "order_id": "order-1001" }.`);
  return v as Record<string, string>;
}
