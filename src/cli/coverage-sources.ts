/**
 * Where `payment-contract-kit coverage` reads its reports: files written by `--coverage-file`, `coverage merge` or
 * the vitest helper, and running mocks (their `GET /__pck/coverage`). Each source that cannot be read, or is not a
 * coverage report, is a usage error naming it and the fix.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { type CoverageReport, mergeCoverageReports, readCoverageReport } from '../contract/coverage/report.ts';
import { type CommandIo, UsageError } from './command-line.ts';

const coverageRoute = '/__pck/coverage';

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
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return coverageUsage(
      command,
      code === 'ENOENT' ? `no such file: ${file}.` : `cannot read ${file} (${code ?? 'error'}).`,
    );
  }
  return parsed(command, file, text);
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
  const text = await answer.text();
  if (answer.status === 401)
    return coverageUsage(command, `${url} asks for the control token: pass --control-token or set PCK_CONTROL_TOKEN.`);
  if (answer.status !== 200)
    return coverageUsage(command, `${url} answered ${answer.status}, not a coverage report: is it a mock of the kit?`);
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
