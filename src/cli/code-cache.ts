/**
 * The mock command through a V8 code cache, so its start-up, what users wait on most, skips parsing and compiling
 * (decision 0035). The build writes the command as one CommonJS script (`dist/cli/mock.cjs`); this module compiles
 * it with `vm.Script` and a cache of V8's bytecode taken after a first answer, so the functions start-up needs are
 * neither parsed nor compiled again. Node 20 offers a code cache for scripts only, hence the script and `vm`.
 *
 * Which cache (`PCK_CODE_CACHE`):
 * - unset: the cache shipped beside the script for the Node version, platform and architecture that built it
 *   (`mock-<node version>-<platform>-<arch>.cache`), if this process runs that Node; nothing is written;
 * - a folder: `mock-<script hash>-<node version>-<platform>-<arch>.cache` in it, written when a mock that started
 *   without an accepted cache stops cleanly (SIGINT / SIGTERM);
 * - `off`: no script and no cache, the command's ES module as before.
 *
 * V8 checks a cache against its version, its flags and the script's length, and refuses one that does not match
 * (`cachedDataRejected`): the script then compiles as it would without one. A cache that cannot be read is the same
 * as none. Neither ever stops the mock from starting. `NODE_DEBUG=payment-contract-kit` prints which cache was offered
 * and whether V8 took it.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { debuglog } from 'node:util';
import { Script } from 'node:vm';
import { kitMessage } from '../internal/messages.ts';
import { isSingleExecutable } from '../internal/single-executable.ts';
import { limitHeapGrowth } from './heap-growth.ts';

/** A command as dispatch.ts runs it (its `CliCommand`, repeated here: dispatch.ts imports this module). */
export interface CliCommand {
  /** Runs the command with the arguments after its name; resolves with an exit code, or never for servers. */
  run(argv: readonly string[]): Promise<number | undefined>;
}

/** The mock script's exports: commands/mock.ts's `run`, with its hook for a clean stop. */
interface MockScript {
  run(argv: readonly string[], hooks?: { afterCleanStop?: () => void }): Promise<number | undefined>;
}

/** The environment variable that picks the cache: a folder, `off`, or unset for the shipped one. */
export const codeCacheVariable = 'PCK_CODE_CACHE';

/** Where the script's cache comes from and goes to; see the module comment. */
export type CodeCacheSetting =
  | { readonly kind: 'off' }
  | { readonly kind: 'shipped' }
  | { readonly kind: 'folder'; readonly dir: string };

/** Reads `PCK_CODE_CACHE`: empty or unset is the shipped cache, `off` (any case) none, anything else a folder. */
export function codeCacheSetting(env: NodeJS.ProcessEnv = process.env): CodeCacheSetting {
  const value = env[codeCacheVariable]?.trim();
  if (!value) return { kind: 'shipped' };
  if (value.toLowerCase() === 'off') return { kind: 'off' };
  return { kind: 'folder', dir: resolve(value) };
}

/** Names a cache for this Node, platform and architecture: V8 refuses another V8's cache, this avoids asking it. */
const runtimeTag = () => `${process.version}-${process.platform}-${process.arch}`;

/** The shipped cache's file name (written by scripts/build-code-cache.ts). */
export const shippedCacheName = (): string => `mock-${runtimeTag()}.cache`;

/**
 * The folder cache's file name. V8 checks only the script's length, so the name carries a hash of its text: a cache
 * of another build of the kit is never offered.
 */
export const folderCacheName = (source: string): string =>
  `mock-${createHash('sha256').update(source).digest('hex').slice(0, 16)}-${runtimeTag()}.cache`;

/** The mock script in the CLI's folder, or undefined (running from source, or inside the single executable). */
function mockScriptIn(dir: string | undefined): string | undefined {
  if (dir === undefined || isSingleExecutable()) return undefined;
  const path = join(dir, 'mock.cjs');
  return existsSync(path) ? path : undefined;
}

const debug = debuglog('payment-contract-kit');

function readOrUndefined(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The name V8 knows the mock script by, wherever it is installed. A code cache carries the name of the script it
 * was made from, and V8 (Node 20's, at least) keeps that name when it takes the cache, whatever name the script is
 * compiled under: a cache made on the build machine made every stack frame name the build machine's folder. So the
 * script is always compiled under this name, the same on every machine, and {@link nameFramesAfter} turns it into
 * the file actually loaded in stack traces.
 */
export const scriptName = 'payment-contract-kit/dist/cli/mock.cjs';

/** A frame's location under {@link scriptName}, as V8 prints it: `at fn (name:1:2)` or `at name:1:2`. */
const framesOfScript = new RegExp(`(\\(|at )${scriptName.replaceAll(/[./]/g, '\\$&')}:`, 'g');

/** The file the script was loaded from, once loaded: what frames under {@link scriptName} name instead. */
let loadedFrom: string | undefined;

/** Node's own stack format (its default `prepareStackTrace`): the error's string, then one `at` line per frame. */
function defaultStack(error: Error, trace: readonly NodeJS.CallSite[]): string {
  const head = Error.prototype.toString.call(error);
  return trace.length === 0 ? head : `${head}\n    at ${trace.join('\n    at ')}`;
}

/**
 * Makes stack frames of the mock script name `path`, the file loaded, instead of {@link scriptName}. Wraps
 * whatever `Error.prepareStackTrace` is set (Node's format when none), once per process; a later call only moves
 * the name to the newer path.
 */
export function nameFramesAfter(path: string): void {
  const installed = loadedFrom !== undefined;
  loadedFrom = path;
  if (installed) return;
  const previous = Error.prepareStackTrace;
  Error.prepareStackTrace = (error, trace) => {
    const stack: unknown = previous ? previous(error, trace) : defaultStack(error, trace);
    // A function replacement: a folder name holding `$` must not read as a replacement pattern.
    return typeof stack === 'string'
      ? stack.replace(framesOfScript, (_, before: string) => `${before}${loadedFrom}:`)
      : stack;
  };
}

/** What {@link compileWithCache} compiled: the command, and whether a cache was offered and taken. */
export interface CompiledScript {
  readonly command: MockScript;
  readonly script: Script;
  /** True when V8 took the cache offered; false when none was offered or it was refused. */
  readonly cacheAccepted: boolean;
}

/**
 * Compiles and runs a CommonJS script with an optional V8 code cache, returning its exports as a command. The
 * wrapper is Node's own CommonJS wrapper, so the script sees `require`, `module`, `__filename` and `__dirname`
 * relative to its file; V8 knows it as {@link scriptName}, and stack traces name `path`.
 */
export function compileWithCache(path: string, source: string, cachedData: Buffer | undefined): CompiledScript {
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new Script(wrapped, { filename: scriptName, ...(cachedData ? { cachedData } : {}) });
  nameFramesAfter(path);
  const module = { exports: {} as Record<string, unknown> };
  script.runInThisContext()(module.exports, createRequire(path), module, path, dirname(path));
  const command = module.exports as unknown as MockScript;
  if (typeof command.run !== 'function')
    throw new Error(kitMessage(`${path} exports no run(): rebuild the kit (npm run build).`));
  return { command, script, cacheAccepted: cachedData !== undefined && !script.cachedDataRejected };
}

/** Removes a half-written cache; a folder that could not take the file may not let it be removed either. */
function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // Nothing was written there, or nothing more can be done: the warning below says what to fix.
  }
}

/**
 * Writes a cache atomically (a file of its own, then a rename), so a reader never sees half of one. A folder that
 * cannot be written costs the cache, not the mock: one warning says how to fix it.
 */
export function writeCodeCache(file: string, data: Buffer, warn: (line: string) => void): void {
  const partial = `${file}.${process.pid}.partial`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(partial, data);
    renameSync(partial, file);
  } catch (error) {
    removeQuietly(partial);
    warn(
      kitMessage(
        `could not write the code cache ${file} (${error instanceof Error ? error.message : String(error)}): set ${codeCacheVariable} to a writable folder, or to "off".\n`,
      ),
    );
  }
}

/**
 * The mock command through the script and its cache, when the build made the script (`mock.cjs` in `cliDir`) and
 * `PCK_CODE_CACHE` is not `off`; undefined otherwise, and the caller runs the command's ES module.
 */
export function loadMockCommand(
  cliDir: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): CliCommand | undefined {
  const setting = codeCacheSetting(env);
  const path = setting.kind === 'off' ? undefined : mockScriptIn(cliDir);
  if (path === undefined) return undefined;
  // V8 keeps the flags in a cache and refuses one made under other flags: the mock's heap flag is set before the
  // script compiles, as it was when the cache was made (the command sets it again, to the same value).
  limitHeapGrowth();
  // esbuild writes ASCII only (non-ASCII escaped), so latin1 decodes it as is, without a UTF-8 pass.
  const source = readFileSync(path, 'latin1');
  const cacheFile =
    setting.kind === 'folder' ? join(setting.dir, folderCacheName(source)) : join(dirname(path), shippedCacheName());
  const cachedData = readOrUndefined(cacheFile);
  const compiled = compileWithCache(path, source, cachedData);
  debug(
    'code cache %s: %s',
    cacheFile,
    cachedData === undefined ? 'none' : compiled.cacheAccepted ? 'accepted' : 'rejected',
  );
  if (setting.kind !== 'folder' || compiled.cacheAccepted) return compiled.command;
  // After a clean stop of a mock that served (not after --help): the cache then holds what start-up and the first
  // answers compiled.
  const afterCleanStop = () =>
    writeCodeCache(cacheFile, compiled.script.createCachedData(), (line) => process.stderr.write(line));
  return { run: (argv) => compiled.command.run(argv, { afterCleanStop }) };
}
