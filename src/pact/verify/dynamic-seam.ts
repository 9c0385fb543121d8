/**
 * The seam between `verify` and its dynamic half: replaying each interaction against an in-process mock through the
 * Pact Verifier, with the provider states set over HTTP. The runner is built apart from the static checks; the CLI
 * receives it as a function of this shape, so the command's logic is tested with a fake and the real runner plugs
 * in at one place, {@link loadDynamicVerifier}.
 *
 * @module
 */
import { createRequire } from 'node:module';
import type { GuideOption } from './guide-choice.ts';

/** What the dynamic runner answers for one interaction. */
export interface DynamicInteractionResult {
  /** The pact file, exactly as it was passed in `pactFiles`. */
  readonly file: string;
  readonly consumer: string;
  readonly provider: string;
  /** The interaction's description. */
  readonly interaction: string;
  readonly ok: boolean;
  readonly reasons: readonly string[];
}

/** Verifies pact files against an in-process mock, one result per interaction. */
export type DynamicVerifier = (options: {
  readonly pactFiles: readonly string[];
  readonly guide: GuideOption;
}) => Promise<readonly DynamicInteractionResult[]>;

/**
 * The dynamic runner of this build, or undefined when the build has none; `verify` then says so in one line and
 * the run cannot pass both ways. The runner module, once part of the kit, is imported here (lazily: it loads the
 * Pact Verifier, an optional peer).
 *
 * @example
 * const dynamic = await loadDynamicVerifier();
 * if (!dynamic) console.error('dynamic verification not available');
 */
export async function loadDynamicVerifier(): Promise<DynamicVerifier | undefined> {
  return undefined;
}

/**
 * Whether `@pact-foundation/pact`, the optional peer the dynamic runner needs, can be loaded from here.
 *
 * @example
 * if (!pactPackageInstalled()) console.error('npm install --save-dev @pact-foundation/pact');
 */
export function pactPackageInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('@pact-foundation/pact');
    return true;
  } catch {
    return false;
  }
}
