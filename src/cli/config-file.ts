/**
 * The mock's `--config` file, read once for the commands that take it (`mock`, and `proxy` and `check`, which compare traffic
 * with its `assumptions`): a JSON object whose keys are the options of the mock's option table, each checked by its
 * row's kind. A mistake is a usage error naming the file, the key and the fix.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { type OptionRow, Problem, problemLine } from '../internal/option-table.ts';
import { isPlainObject } from '../internal/plain-object.ts';
import { type MockOptions, mockOptionTable } from '../mock/options.ts';
import { UsageError } from './flag-values.ts';

/** Whether the config file takes the option of `row` (JSON can hold it, and the row does not opt out). */
export function inConfigFile(_key: string, row: OptionRow): boolean {
  return row.configFile !== false && row.kind.json !== false;
}

/** The keys a config file may hold, in table order. */
export const configFileKeys: readonly string[] = (Object.entries(mockOptionTable) as [string, OptionRow][])
  .filter(([key, row]) => inConfigFile(key, row))
  .map(([key]) => key);

/**
 * Reads and checks the config file at `path`: the mock options it sets (`clients`, `assumptions`, `guide`, ...),
 * each value as its kind answered it (card type patterns become regular expressions).
 *
 * @example
 * readConfigFile('mock.config.json').assumptions
 */
export function readConfigFile(path: string): MockOptions {
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
  if (!isPlainObject(value))
    throw new UsageError(`--config: "${path}" must hold a JSON object { "clients": [...], "assumptions": {...} }.`);
  const out: Record<string, unknown> = {};
  const rows = mockOptionTable as Record<string, OptionRow>;
  for (const [key, given] of Object.entries(value)) {
    if (key === '$schema') continue;
    if (!configFileKeys.includes(key))
      throw new UsageError(
        `--config: unknown key "${key}" in "${path}"; the file takes ${configFileKeys.map((k) => `"${k}"`).join(', ')}.`,
      );
    const checked = rows[key]!.kind.check(given);
    if (checked instanceof Problem)
      throw new UsageError(problemLine(checked.standalone ? '--config' : `--config: "${key}" in "${path}"`, checked));
    out[key] = checked;
  }
  return out as MockOptions;
}
