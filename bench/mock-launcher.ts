/**
 * Starts the mock through its library API (`startMockServer`, port 0, log off) and prints its base URL, for runs
 * where the CLI (package.json `bin`) is not built. The benchmark prefers the CLI, which is what users start.
 *
 * @module
 */
import { startMockServer } from '../src/mock/index.ts';
import { stopWithParent } from './references/listen.ts';

const mock = await startMockServer({ port: 0, log: false });
process.stdout.write(`mock listening on ${mock.url}\n`);
stopWithParent();
// Exit cleanly on SIGTERM so `--cpu-prof` can write its profile.
process.once('SIGTERM', () => void mock.close().finally(() => process.exit(0)));
