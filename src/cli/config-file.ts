/**
 * The `--config` file of the CLI: `{ "clients": [...], "assumptions": {...} }`, as `mock` reads it and as the proxy's
 * `suggestedConfig` writes it. One reader for every command, so `mock`, `proxy` and `check` judge and run with the same
 * ledger from the same file (card type patterns as regular expression sources).
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import type { AssumptionOverrides, CardTypePattern } from '../assumptions.ts';
import { defaultAssumptions } from '../assumptions.ts';
import type { MockClientConfig } from '../mock/options.ts';
import { UsageError } from './flag-values.ts';

/** What a `--config` file holds, read and checked. */
export interface ConfigFile {
  clients?: MockClientConfig[];
  assumptions?: AssumptionOverrides;
}

/**
 * `assumptions.cardTypes` of a JSON file: each pattern is the source of a regular expression (`"^4"`), as the
 * validating proxy's `suggestedConfig` writes it.
 */
function cardTypesFromJson(value: unknown): CardTypePattern[] {
  const shape = '[{ "card_type": "visa", "pattern": "^4" }, ...] (each pattern a regular expression source)';
  if (!Array.isArray(value)) throw new UsageError(`--config: "cardTypes" must be an array ${shape}.`);
  return value.map((row: unknown, i) => {
    const o = row as Record<string, unknown> | null;
    if (!o || typeof o.card_type !== 'string' || typeof o.pattern !== 'string')
      throw new UsageError(`--config: cardTypes[${i}] needs string "card_type" and "pattern": ${shape}.`);
    try {
      return { card_type: o.card_type, pattern: new RegExp(o.pattern) };
    } catch (error) {
      throw new UsageError(
        `--config: cardTypes[${i}].pattern is not a regular expression (${(error as Error).message}).`,
      );
    }
  });
}

/**
 * Reads a `--config` file, with the same rules for every command that takes one (`mock`, `proxy`, `check`); throws
 * {@link UsageError} naming the key and the fix on a file that cannot be read or holds something else.
 *
 * @example
 * const { assumptions } = readConfigFile('mock.config.json');
 */
export function readConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(
      `--config: cannot read "${path}" (${(error as NodeJS.ErrnoException).code ?? 'error'}); give the path of a JSON file.`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--config: "${path}" is not valid JSON (${(error as Error).message}).`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError(`--config: "${path}" must hold a JSON object { "clients": [...], "assumptions": {...} }.`);
  const config = value as Record<string, unknown>;
  for (const key of Object.keys(config))
    if (key !== 'clients' && key !== 'assumptions' && key !== '$schema')
      throw new UsageError(`--config: unknown key "${key}" in "${path}"; the file takes "clients" and "assumptions".`);
  const clients = config.clients;
  if (clients !== undefined) {
    if (!Array.isArray(clients))
      throw new UsageError(`--config: "clients" must be an array of { clientId, apiKey, webhookUrls?, signingKey? }.`);
    clients.forEach((c: unknown, i) => {
      const o = c as Record<string, unknown> | null;
      if (!o || typeof o.clientId !== 'string' || typeof o.apiKey !== 'string')
        throw new UsageError(`--config: clients[${i}] needs string "clientId" and "apiKey".`);
      if (
        o.webhookUrls !== undefined &&
        (!Array.isArray(o.webhookUrls) || !o.webhookUrls.every((u) => typeof u === 'string'))
      )
        throw new UsageError(`--config: clients[${i}].webhookUrls must be an array of URLs.`);
      if (o.signingKey !== undefined && typeof o.signingKey !== 'string')
        throw new UsageError(`--config: clients[${i}].signingKey must be a string.`);
    });
  }
  const assumptions = config.assumptions;
  if (assumptions !== undefined) {
    if (typeof assumptions !== 'object' || assumptions === null || Array.isArray(assumptions))
      throw new UsageError('--config: "assumptions" must be an object of overrides (see ASSUMPTIONS.md).');
    for (const key of Object.keys(assumptions))
      if (!(key in defaultAssumptions))
        throw new UsageError(`--config: unknown assumption "${key}"; see ASSUMPTIONS.md for the names.`);
    if ('cardTypes' in assumptions)
      (assumptions as Record<string, unknown>).cardTypes = cardTypesFromJson(
        (assumptions as Record<string, unknown>).cardTypes,
      );
  }
  return config as ConfigFile;
}
