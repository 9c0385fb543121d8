#!/usr/bin/env node
/**
 * The `payment-contract-kit` command (dist/cli/index.js, and the single executable's bundle through binary.ts): runs
 * the dispatch (dispatch.ts) on the process's arguments as soon as it is loaded, and sets the exit code it answers.
 *
 * @module
 */
import { stopQuietlyOnClosedPipe } from './closed-pipe.ts';
import { main } from './dispatch.ts';

// Before any output: `payment-contract-kit … | head -1` must not end in an EPIPE stack trace.
stopQuietlyOnClosedPipe();
main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
