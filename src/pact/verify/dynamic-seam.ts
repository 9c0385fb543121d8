/**
 * The seam between `verify` and its dynamic half: replaying each interaction against an in-process mock through the
 * Pact Verifier, with the provider states set over HTTP. The runner is built apart from the static checks; the CLI
 * receives it as a function of this shape, so the command's logic is tested with a fake and the real runner plugs
 * in at one place, {@link loadDynamicVerifier}.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kitMessage } from '../../internal/messages.ts';
import { isSingleExecutable } from '../../internal/single-executable.ts';
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
 * The dynamic runner: `verifyDynamic` (./dynamic.ts) in a child process, the script at `childScript` (the CLI's
 * `verify-dynamic-child.js`). A child, because the native Pact verifier writes its own report to standard output;
 * it goes to this process's standard error instead, and the results come back through a file. Resolves with
 * undefined when the child script is not part of this build.
 *
 * @example
 * const dynamic = await loadDynamicVerifier(new URL('./verify-dynamic-child.js', import.meta.url));
 * if (!dynamic) console.error('dynamic verification not available');
 */
export async function loadDynamicVerifier(childScript: URL): Promise<DynamicVerifier | undefined> {
  const script = fileURLToPath(childScript);
  if (!existsSync(script)) return undefined;
  return async ({ pactFiles, guide }) => {
    const dir = await mkdtemp(join(tmpdir(), 'pck-verify-'));
    try {
      const input = join(dir, 'input.json');
      const output = join(dir, 'results.json');
      await writeFile(input, JSON.stringify({ pactFiles, guide }));
      const code = await new Promise<number | null>((resolve, reject) => {
        const child = spawn(process.execPath, [script, input, output], { stdio: ['ignore', 2, 'pipe'] });
        let stderr = '';
        // stdio[2] is 'pipe', so the stream exists.
        const errors = child.stderr as NodeJS.ReadableStream;
        errors.setEncoding('utf8');
        errors.on('data', (chunk: string) => {
          process.stderr.write(chunk);
          if (stderr.length < 4096) stderr += chunk;
        });
        child.on('error', reject);
        child.on('close', (exit) => (exit === 0 ? resolve(exit) : reject(new Error(lastLine(stderr, exit)))));
      });
      if (code !== 0) throw new Error(`the dynamic runner exited with ${code}`);
      return JSON.parse(await readFile(output, 'utf8')) as DynamicInteractionResult[];
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}

/** The child's last line of standard error, for a one-line failure. */
function lastLine(stderr: string, exit: number | null): string {
  const line = stderr.trim().split('\n').at(-1);
  return line ? line : `the dynamic runner exited with ${exit}`;
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

/**
 * Why dynamic verification cannot run in this process, or undefined when it may (then the package checks follow).
 * The single executable carries no Pact verifier: Pact's native core is loaded from the npm package
 * `@pact-foundation/pact` by Node's `require`, which the executable does not have. The answer says how to replay the
 * pacts all the same.
 *
 * @example
 * const reason = dynamicUnavailableReason(); // undefined from the npm package
 */
export function dynamicUnavailableReason(): string | undefined {
  if (!isSingleExecutable()) return undefined;
  return kitMessage(
    'verify: dynamic verification is not part of the payment-contract-kit executable (it needs the Pact Verifier of the npm package @pact-foundation/pact); the static checks ran. To replay the pacts, run "npx payment-contract-kit verify <pacts>" where Node 20+ is installed, or start this executable\'s mock ("payment-contract-kit mock --port 4010") and point your own Pact verifier at it with the provider states URL http://127.0.0.1:4010/__pck/provider-states; pass --static-only to leave this step out.',
  );
}
