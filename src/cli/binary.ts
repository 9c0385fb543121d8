/**
 * Entry of the single executable (`npm run build:binary`, Node's single executable applications): the kit's files
 * (schemas, openapi.yaml, package.json, the built pages) travel inside the executable as assets, so this entry
 * points the one reader of shipped files at them, then runs the same CLI as `dist/cli/index.js`.
 *
 * @module
 */
import { getAsset } from 'node:sea';
import { installPackagedFiles } from '../internal/package-files.ts';
import { markSingleExecutable } from '../internal/single-executable.ts';

markSingleExecutable();
installPackagedFiles({
  read(relative) {
    try {
      return new Uint8Array(getAsset(relative));
    } catch {
      // getAsset throws for a key the build did not embed: the caller reports the file as missing.
      return undefined;
    }
  },
  description: 'the payment-contract-kit executable',
});
// After the reader is in place: main.ts runs the command as soon as it is loaded.
void import('./main.ts');
