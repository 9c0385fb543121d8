#!/usr/bin/env node
/**
 * The `payment-contract-kit` executable (package.json `bin`), a CommonJS script: `mock` starts through the V8 code
 * cache (code-cache.ts) without loading Node's ES module loader, a part of the mock's cold start that a CommonJS entry
 * does not pay (decision 0035); every other command, and `mock` without the cache, runs the ES module CLI (main.ts).
 *
 * @module
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stopQuietlyOnClosedPipe } from './closed-pipe.ts';
import { loadMockCommand } from './code-cache.ts';

// Before any output: `payment-contract-kit mock --help | head -1` must not end in an EPIPE stack trace.
stopQuietlyOnClosedPipe();
const [first, ...rest] = process.argv.slice(2);
const mock = first === 'mock' ? loadMockCommand(__dirname) : undefined;
if (mock === undefined) {
  // The ES module CLI runs its command as soon as it is loaded (main.ts).
  void import(pathToFileURL(join(__dirname, 'index.js')).href);
} else {
  mock.run(rest).then(
    (code) => {
      if (code !== undefined) process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
