/**
 * The dynamic half of `verify`, run as a child process of the CLI: the native Pact verifier prints its own report to
 * standard output, which would corrupt `--format json` and `--format junit`. The parent sends this process's standard
 * output to its own standard error and reads the results from a file.
 *
 * Arguments: a JSON file holding `{ pactFiles, guide }`, and the path to write the results to (JSON).
 *
 * @module
 */
import { readFile, writeFile } from 'node:fs/promises';
import { verifyDynamic } from '../pact/verify/dynamic.ts';

const [input, output] = process.argv.slice(2);
if (input === undefined || output === undefined) {
  process.stderr.write('usage: verify-dynamic-child <input.json> <output.json>\n');
  process.exit(2);
}
const options = JSON.parse(await readFile(input, 'utf8'));
const outcomes = await verifyDynamic({ pactFiles: options.pactFiles, guide: options.guide });
await writeFile(output, JSON.stringify(outcomes));
