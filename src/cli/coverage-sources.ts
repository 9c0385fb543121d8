/**
 * Where `payment-contract-kit coverage` reads its reports: files written by `--coverage-file`, `coverage merge` or
 * the vitest helper, and running mocks (their `GET /__pck/coverage`). Each source that cannot be read, or is not a
 * coverage report, is a usage error naming it and the fix.
 *
 * @module
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { type CoverageReport, mergeCoverageReports, readCoverageReport } from '../contract/coverage/report.ts';
import { type CommandIo, UsageError } from './command-line.ts';

const coverageRoute = '/__pck/coverage';

/**
 * The most a coverage source may hold: 16 MiB. A report of every behaviour of the catalogue takes tens of
 * kilobytes, so a source near this is something else, and reading it whole (a wrong path, `/dev/zero`, a log file) would hold all of
 * it in memory before JSON.parse could say it is not a report.
 */
export const maxCoverageSourceBytes = 16 * 1024 * 1024;

const tooLarge = (source: string) =>
  `${source} holds more than ${maxCoverageSourceBytes / 1024 / 1024} MiB, so it is not a coverage report (one of every behaviour takes tens of kilobytes). Give a file written by --coverage-file or coverage merge.`;

/** The bytes of `file`, read up to one past the limit: undefined when it holds more (a pipe or device included). */
function readAtMost(file: string, limit: number): Buffer | undefined {
  const fd = openSync(file, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, limit + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) return Buffer.concat(chunks, total);
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > limit) return undefined;
    }
  } finally {
    closeSync(fd);
  }
}

/** The text of an answer's body, read up to one past the limit: undefined when it holds more. */
async function answerAtMost(answer: Response, limit: number): Promise<string | undefined> {
  if (Number(answer.headers.get('content-length') ?? 0) > limit) {
    await answer.body?.cancel();
    return undefined;
  }
  const reader = answer.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks, total).toString('utf8');
    chunks.push(value);
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      return undefined;
    }
  }
}

/** A usage error of `command`, with its help pointer. */
export function coverageUsage(command: string, message: string): never {
  throw new UsageError(
    `[payment-contract-kit] ${command}: ${message} Run "payment-contract-kit ${command} --help" for the options.`,
  );
}

function parsed(command: string, source: string, text: string): CoverageReport {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return coverageUsage(command, `${source} is not JSON, so not a coverage report.`);
  }
  const report = readCoverageReport(value);
  if (typeof report === 'string')
    return coverageUsage(
      command,
      `${source} is not a coverage report: ${report}. Give a file written by --coverage-file or coverage merge.`,
    );
  return report;
}

function fromFile(command: string, file: string): CoverageReport {
  let bytes: Buffer | undefined;
  try {
    bytes = readAtMost(file, maxCoverageSourceBytes);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return coverageUsage(
      command,
      code === 'ENOENT' ? `no such file: ${file}.` : `cannot read ${file} (${code ?? 'error'}).`,
    );
  }
  if (bytes === undefined) return coverageUsage(command, tooLarge(file));
  return parsed(command, file, bytes.toString('utf8'));
}

/** The report URL of a mock's base URL, or of the coverage URL itself. */
function reportUrl(source: string): string {
  const url = new URL(source);
  if (!url.pathname.endsWith(coverageRoute)) url.pathname = `${url.pathname.replace(/\/+$/, '')}${coverageRoute}`;
  url.searchParams.delete('format');
  return url.toString();
}

async function fromUrl(command: string, source: string, controlToken: string | undefined): Promise<CoverageReport> {
  const url = reportUrl(source);
  let answer: Response;
  try {
    answer = await fetch(
      url,
      controlToken === undefined ? {} : { headers: { authorization: `Bearer ${controlToken}` } },
    );
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
    return coverageUsage(command, `cannot reach ${url} (${cause}): is the mock running there?`);
  }
  if (answer.status !== 200) await answer.body?.cancel();
  if (answer.status === 401)
    return coverageUsage(command, `${url} asks for the control token: pass --control-token or set PCK_CONTROL_TOKEN.`);
  if (answer.status !== 200)
    return coverageUsage(command, `${url} answered ${answer.status}, not a coverage report: is it a mock of the kit?`);
  const text = await answerAtMost(answer, maxCoverageSourceBytes);
  if (text === undefined) return coverageUsage(command, tooLarge(url));
  return parsed(command, url, text);
}

/**
 * Reads one source: a URL (`http://127.0.0.1:4010`, or its `/__pck/coverage`) or a file.
 *
 * @example
 * const report = await readCoverageSource('coverage', 'coverage.json', undefined);
 */
export function readCoverageSource(
  command: string,
  source: string,
  controlToken: string | undefined,
): Promise<CoverageReport> | CoverageReport {
  return /^https?:\/\//i.test(source) ? fromUrl(command, source, controlToken) : fromFile(command, source);
}

/**
 * Reads every source and merges them; a source that cannot be read is printed as its usage error and answered as
 * the exit code 2.
 *
 * @example
 * const report = await mergedSources('coverage', ['a.json', 'http://127.0.0.1:4010'], undefined, io);
 * if (typeof report === 'number') return report;
 */
export async function mergedSources(
  command: string,
  sources: readonly string[],
  controlToken: string | undefined,
  io: CommandIo,
): Promise<CoverageReport | number> {
  const reports: CoverageReport[] = [];
  try {
    for (const source of sources) reports.push(await readCoverageSource(command, source, controlToken));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`${error.message}\n`);
    return 2;
  }
  return mergeCoverageReports(reports);
}
