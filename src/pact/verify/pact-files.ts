/**
 * The pact files `verify` was pointed at: files as given, folders searched for `*.json` (recursively, in name
 * order), each read with the pact reader. A file that is not a pact becomes a failed result with the reason, so one
 * bad file neither hides the others nor crashes the run.
 *
 * @module
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { kitPrefix } from '../../internal/messages.ts';
import type { PactDocument } from './pact-model.ts';
import { readPact } from './read-pact.ts';
import type { InteractionResult } from './verify-result.ts';

/** The files found, and the paths that do not exist. */
export interface FoundFiles {
  readonly files: readonly string[];
  readonly missing: readonly string[];
}

function jsonFilesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : jsonFilesUnder(path);
      return entry.isFile() && entry.name.endsWith('.json') ? [path] : [];
    });
}

/**
 * Expands files and folders into pact file paths.
 *
 * @example
 * findPactFiles(['contracts']).files; // ['contracts/payment-contract-kit-client-card-payment-service.json', …]
 */
export function findPactFiles(paths: readonly string[]): FoundFiles {
  const files: string[] = [];
  const missing: string[] = [];
  for (const path of paths) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch {
      missing.push(path);
      continue;
    }
    files.push(...(isDirectory ? jsonFilesUnder(path) : [path]));
  }
  return { files: [...new Set(files)], missing };
}

/**
 * Reads pact files; a file that cannot be read or is not a pact gives a failed result instead of a document.
 *
 * @example
 * const { pacts, failures } = readPactFiles(findPactFiles(['contracts']).files);
 */
export function readPactFiles(files: readonly string[]): { pacts: PactDocument[]; failures: InteractionResult[] } {
  const pacts: PactDocument[] = [];
  const failures: InteractionResult[] = [];
  for (const file of files) {
    try {
      pacts.push(readPact(JSON.parse(readFileSync(file, 'utf8')), file));
    } catch (error) {
      // The report line names the kit already; the reader's own prefix would repeat it.
      const reason =
        error instanceof SyntaxError
          ? `not JSON: ${error.message}`
          : (error as Error).message.replace(`${kitPrefix} ${file}: `, '');
      failures.push({
        file,
        consumer: '',
        provider: '',
        interaction: '(the file)',
        mode: 'static',
        kind: 'file',
        guide: undefined,
        ok: false,
        pending: false,
        reasons: [reason],
      });
    }
  }
  return { pacts, failures };
}
