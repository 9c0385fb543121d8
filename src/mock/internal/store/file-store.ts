/**
 * The file store (`--store file:<path>`, decision 0015; Node only): one process's sandbox state as an
 * append-only log of JSON lines, so a restart or a crash keeps every acknowledged change.
 *
 * - Each line is `<json>\t<checksum>`: the JSON of one record and the FNV-1a hash of it (8 hex digits). A SIGKILL
 *   in the middle of a write leaves at most a torn last line, which fails its checksum or has no newline: it is
 *   dropped (and cut off the file) at open, so the log always reads. A bad line that is not the last is damage
 *   from elsewhere, and opening refuses with the line number rather than guess.
 * - An append resolves after the write and `fdatasync`: acknowledged = on disk. A failed write (disk full,
 *   read-only file) is cut back to the last whole line before the next one, so a partial line never sits in the
 *   middle of the log.
 * - Lines starting `{"$":` are the store's own: the counters (`increment`) and the head of a compacted file (the
 *   position its first record continues from, so positions only grow). Positions are record numbers.
 * - Compaction writes the snapshot, the counters and the records after `upTo` to a new file, syncs it and renames
 *   it over the log (atomic on POSIX), so a crash during compaction leaves the old log or the new one.
 * - One process at a time: a `<path>.lock` file names the owner's pid; a live owner makes `open` refuse, a dead one
 *   (SIGKILL) is taken over.
 *
 * @module
 */
// fs/promises through node:fs's lazy `promises` getter: the CLI bundle requires node:fs, so fs/promises is loaded when
// a file store opens, not at every start of the mock (a start that never opens one pays nothing).
import { constants as fsConstants, promises as fsp } from 'node:fs';
import { errorLine } from '../../../internal/messages.ts';
import type { PositionedRecord, RecordLogStore, StoreRecord } from './sandbox-store.ts';
import { StoreUnavailableError } from './store-errors.ts';

/** The parts of `node:fs/promises` the store uses for writing; a test passes a failing one (disk full, read-only). */
export interface FileStoreIo {
  readonly open: typeof fsp.open;
}

/** Options of {@link createFileStore}. */
export interface FileStoreOptions {
  /** `fdatasync` after every append (default true). Off, a crash of the process loses nothing, a power cut may. */
  readonly sync?: boolean;
  /** Writing I/O (default `node:fs/promises`). */
  readonly io?: FileStoreIo;
}

/** 32-bit FNV-1a over UTF-16 code units, as 8 hex digits: detects a torn or damaged line, cheaply. */
export function lineChecksum(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** One line of the log for `value` (a record or a store line). */
function line(value: unknown): string {
  const json = JSON.stringify(value);
  return `${json}\t${lineChecksum(json)}\n`;
}

interface ParsedLog {
  /** Bytes of whole, good lines from the start. */
  readonly goodBytes: number;
  /** True when a torn last line was found (cut off at open). */
  readonly torn: boolean;
  readonly records: PositionedRecord[];
  readonly counters: Map<string, number>;
  /** Position of the last record (the head's base when there is none). */
  readonly last: number;
  /** Records and bytes after the snapshot of the last compaction (the whole log when never compacted). */
  readonly backlog: { records: number; bytes: number };
}

/** Parses the log's bytes; a damaged line that is not the last throws. */
function parseLog(buffer: Buffer, path: string): ParsedLog {
  const records: PositionedRecord[] = [];
  const counters = new Map<string, number>();
  let position = 0;
  let offset = 0;
  let lineNo = 0;
  /** Where the snapshot of the last compaction ends: records and bytes counted from there are the backlog. */
  let snapshotEnd = { records: 0, bytes: 0, left: 0 };
  while (offset < buffer.length) {
    const end = buffer.indexOf(10, offset);
    lineNo += 1;
    const text = buffer.toString('utf8', offset, end < 0 ? buffer.length : end);
    const tab = text.lastIndexOf('\t');
    const json = tab < 0 ? '' : text.slice(0, tab);
    const good = end >= 0 && tab >= 0 && lineChecksum(json) === text.slice(tab + 1);
    if (!good) {
      if (end < 0 || end === buffer.length - 1)
        return { goodBytes: offset, torn: true, records, counters, last: position, backlog: backlogOf(offset) };
      throw new StoreUnavailableError(
        `file-damaged: line ${lineNo} of ${path} fails its checksum and is not the last line (damage from outside the mock); restore a backup or move the file away to start empty`,
      );
    }
    const value = JSON.parse(json) as { $?: string; name?: string; v?: number; base?: number; n?: number };
    if (value.$ === 'count' && typeof value.name === 'string') counters.set(value.name, Number(value.v));
    else if (value.$ === 'head') {
      position = Number(value.base);
      // Heads written before compaction by size carry no snapshot length: their whole log counts.
      snapshotEnd = { records: 0, bytes: end + 1, left: typeof value.n === 'number' ? value.n : 0 };
    } else {
      position += 1;
      records.push({ position: String(position), record: value as unknown as StoreRecord });
      if (snapshotEnd.left > 0) {
        snapshotEnd.left -= 1;
        snapshotEnd = { records: records.length, bytes: end + 1, left: snapshotEnd.left };
      }
    }
    offset = end + 1;
  }
  return { goodBytes: offset, torn: false, records, counters, last: position, backlog: backlogOf(offset) };

  function backlogOf(goodBytes: number) {
    return { records: records.length - snapshotEnd.records, bytes: Math.max(0, goodBytes - snapshotEnd.bytes) };
  }
}

/** A Node file-system error as the store's refusal, naming the file and the likely fix. */
function unavailable(what: string, path: string, error: unknown): StoreUnavailableError {
  if (error instanceof StoreUnavailableError) return error;
  const code = (error as { code?: string }).code ?? 'EIO';
  const hint =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? 'the disk is full: free space'
      : code === 'EROFS' || code === 'EACCES' || code === 'EPERM'
        ? 'the file or its directory is read-only: make it writable'
        : 'check the path and the disk';
  return new StoreUnavailableError(`${code}: ${what} ${path} failed (${errorLine(error)}); ${hint}`, {
    cause: error,
  });
}

/** Whether process `pid` is alive (signal 0 checks without sending). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

/**
 * Creates the file store over `path` (created when missing). Nothing is read or locked until `open()`.
 *
 * @example
 * const store = createFileStore('/var/lib/sandbox/state.log');
 * await store.open();
 */
export function createFileStore(path: string, options: FileStoreOptions = {}): RecordLogStore {
  const io = options.io ?? fsp;
  const sync = options.sync ?? true;
  let handle: fsp.FileHandle | undefined;
  let goodBytes = 0;
  /** A failed write may have left part of a line: cut the file back to `goodBytes` before the next write. */
  let mustCut = false;
  let counters = new Map<string, number>();
  /** Position of the last record, and the records and bytes beyond the last snapshot (compaction by size). */
  let last = 0;
  let backlog = { records: 0, bytes: 0 };
  /** Every operation runs after the one before: appends, compaction and counters never interleave. */
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(op: () => Promise<T>): Promise<T> => {
    const run = queue.then(op, op);
    queue = run.catch(() => undefined);
    return run;
  };

  async function writeLines(text: string): Promise<void> {
    try {
      if (!handle) handle = await io.open(path, fsConstants.O_WRONLY | fsConstants.O_APPEND | fsConstants.O_CREAT);
      if (mustCut) {
        await handle.truncate(goodBytes);
        mustCut = false;
      }
      const bytes = Buffer.from(text, 'utf8');
      await handle.write(bytes, 0, bytes.length);
      if (sync) await handle.datasync();
      goodBytes += bytes.length;
    } catch (error) {
      mustCut = true;
      // The handle may be broken (a file replaced under it): open afresh next time.
      await handle?.close().catch(() => undefined);
      handle = undefined;
      throw unavailable('writing', path, error);
    }
  }

  return {
    kind: 'file',
    open: () =>
      serial(async () => {
        await lock(path);
        const log = await readLog(path);
        goodBytes = log.goodBytes;
        counters = log.counters;
        last = log.last;
        backlog = log.backlog;
        // A torn last line (SIGKILL mid-write): cut it off before anything is appended after it.
        mustCut = log.torn;
      }),
    append: (records) =>
      serial(async () => {
        if (records.length === 0) return undefined;
        let text = '';
        for (const r of records) text += line(r);
        await writeLines(text);
        last += records.length;
        backlog = { records: backlog.records + records.length, bytes: backlog.bytes + Buffer.byteLength(text) };
        return String(last);
      }),
    readAfter: (position, limit) =>
      serial(async () => {
        const log = await readLog(path);
        const after = position === undefined ? Number.NEGATIVE_INFINITY : Number(position);
        const out: PositionedRecord[] = [];
        for (const r of log.records) {
          if (Number(r.position) <= after) continue;
          out.push(r);
          if (out.length >= limit) break;
        }
        return out;
      }),
    compact: (snapshot, upTo) =>
      serial(async () => {
        await handle?.close().catch(() => undefined);
        handle = undefined;
        const done = await rewrite(path, io, counters, snapshot, Number(upTo));
        goodBytes = done.goodBytes;
        mustCut = false;
        last = done.last;
        backlog = done.backlog;
      }),
    backlog: () => backlog,
    increment: (name) =>
      serial(async () => {
        const v = (counters.get(name) ?? 0) + 1;
        await writeLines(line({ $: 'count', name, v }));
        counters.set(name, v);
        return v;
      }),
    close: () =>
      serial(async () => {
        await handle?.close().catch(() => undefined);
        handle = undefined;
        await fsp.rm(`${path}.lock`, { force: true }).catch(() => undefined);
      }),
  };
}

/**
 * Compaction: the snapshot, the counters and the records after `cut` to a new file, synced, renamed over the log
 * (atomic on POSIX). Resolves with what the store tracks of the new log.
 */
async function rewrite(
  path: string,
  io: FileStoreIo,
  counters: ReadonlyMap<string, number>,
  snapshot: readonly StoreRecord[],
  cut: number,
): Promise<{ goodBytes: number; last: number; backlog: { records: number; bytes: number } }> {
  const log = await readLog(path);
  const { text, kept } = compactedText(log, counters, snapshot, cut);
  const tmp = `${path}.compact-${process.pid}`;
  try {
    const out = await io.open(tmp, 'w');
    try {
      await out.writeFile(text, 'utf8');
      await out.sync();
    } finally {
      await out.close();
    }
    await fsp.rename(tmp, path);
  } catch (error) {
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
    throw unavailable('compacting', path, error);
  }
  return { goodBytes: Buffer.byteLength(text), last: log.last, backlog: kept };
}

/** Reads and parses the log at `path` (empty when missing). */
async function readLog(path: string): Promise<ParsedLog> {
  let buffer: Buffer;
  try {
    buffer = await fsp.readFile(path);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') buffer = Buffer.alloc(0);
    else throw unavailable('reading', path, error);
  }
  return parseLog(buffer, path);
}

/** Takes `<path>.lock` for this process; a live owner refuses, a dead one (SIGKILL) is taken over. */
async function lock(path: string): Promise<void> {
  const lockPath = `${path}.lock`;
  const mine = String(process.pid);
  for (let tries = 0; tries < 2; tries++) {
    try {
      await fsp.writeFile(lockPath, mine, { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw unavailable('locking', lockPath, error);
      const owner = Number.parseInt(await fsp.readFile(lockPath, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(owner) && alive(owner))
        throw new StoreUnavailableError(
          `locked: ${path} is in use by process ${owner} (a file store serves one mock process); stop it, or give this one another file (use a redis:// store for replicas)`,
        );
      await fsp.rm(lockPath, { force: true });
    }
  }
  throw new StoreUnavailableError(`locked: could not take ${lockPath}; remove it if no mock uses ${path}`);
}

/**
 * The compacted log: its head (the position the snapshot continues from, and the snapshot's length), the counters,
 * the snapshot, the rest; with the records and bytes of the rest (the new backlog).
 */
function compactedText(
  log: ParsedLog,
  counters: ReadonlyMap<string, number>,
  snapshot: readonly StoreRecord[],
  cut: number,
): { text: string; kept: { records: number; bytes: number } } {
  let text = line({ $: 'head', base: cut - snapshot.length, n: snapshot.length });
  for (const [name, v] of counters) text += line({ $: 'count', name, v });
  for (const r of snapshot) text += line(r);
  let rest = '';
  let records = 0;
  for (const r of log.records) {
    if (Number(r.position) <= cut) continue;
    rest += line(r.record);
    records += 1;
  }
  return { text: text + rest, kept: { records, bytes: Buffer.byteLength(rest) } };
}
