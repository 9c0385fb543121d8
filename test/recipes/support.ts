/**
 * Loads a recipe from `recipes/` as a consumer would run it: its `payment-contract-kit` imports resolve to the built
 * package (`dist/`, through the package's own `exports`), not to the sources. The import is dynamic so the
 * repository's type check, which runs before the build, does not follow it; `recipes.test.ts` type-checks the
 * recipes against the built declarations with their own strict tsconfig.
 *
 * @module
 */
import { join } from 'node:path';
import { defaultCredentials } from '../../src/spec-names.ts';
import { ensureBuilt, root } from '../package/support/packed-kit.ts';

/** The mock's default client, as the recipes take it. */
export const credentials = { clientId: defaultCredentials.clientId, apiKey: defaultCredentials.apiKey };

/** Imports `recipes/<name>.ts` after making sure `dist/` exists. */
export async function loadRecipe<T>(name: string): Promise<T> {
  await ensureBuilt();
  return (await import(join(root, 'recipes', `${name}.ts`))) as T;
}
