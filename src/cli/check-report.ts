/**
 * The reports of `payment-contract-kit check`: text (a line per entry with drifts, each drift and its fix below it,
 * then a summary), JSON (a summary and a result per entry) and JUnit XML (a suite per HAR file, a case per checked
 * entry).
 *
 * @module
 */
import { driftLine } from '../contract/check/drift-text.ts';
import type { DriftKind, ExchangeCheck } from '../contract/check/exchange.ts';
import { junitXml } from '../internal/junit-xml.ts';

/** One checked (or skipped) HAR entry. */
export interface CheckedEntry extends ExchangeCheck {
  readonly file: string;
  /** Position in the file's `log.entries`, from 0. */
  readonly entry: number;
  /**
   * The `#` the report shows, from 1: the proxy's number for the exchange when the proxy recorded the file (the same
   * `#` as its log and `exchange.seq` in its report), else `entry + 1`.
   */
  readonly number: number;
  readonly kind: 'http' | 'webhook';
  readonly method: string;
  readonly url: string;
  /** HTTP status of the answer; undefined when none was recorded. */
  readonly status: number | undefined;
}

/** Counts over all files. */
export interface CheckSummary {
  readonly ok: boolean;
  readonly files: number;
  readonly entries: number;
  readonly checked: number;
  readonly clean: number;
  readonly withDrifts: number;
  /** Entries not checked: other hosts (`--origin`), other paths, unreadable entries. */
  readonly skipped: { readonly otherHosts: number; readonly otherPaths: number; readonly unreadable: number };
  readonly drifts: Readonly<Record<DriftKind, number>>;
  /** Guides the GraphQL entries were checked against, with counts. */
  readonly guides: { readonly current: number; readonly legacy: number };
}

/**
 * Totals of the results (`otherHosts` and `unreadable` come from the HAR reading).
 *
 * @example
 * summarize(results, { otherHosts: 2, unreadable: 0, files: 1 });
 */
export function summarize(
  results: readonly CheckedEntry[],
  extra: { readonly otherHosts: number; readonly unreadable: number; readonly files: number },
): CheckSummary {
  const checked = results.filter((r) => r.skipped === undefined);
  const drifts: Record<DriftKind, number> = { contract: 0, assumption: 0, consumer: 0, upstream: 0 };
  for (const r of checked) for (const d of r.drifts) drifts[d.kind]++;
  const withDrifts = checked.filter((r) => r.drifts.length > 0).length;
  return {
    ok: withDrifts === 0,
    files: extra.files,
    entries: results.length + extra.otherHosts + extra.unreadable,
    checked: checked.length,
    clean: checked.length - withDrifts,
    withDrifts,
    skipped: {
      otherHosts: extra.otherHosts,
      otherPaths: results.length - checked.length,
      unreadable: extra.unreadable,
    },
    drifts,
    guides: {
      current: checked.filter((r) => r.guide === 'current').length,
      legacy: checked.filter((r) => r.guide === 'legacy').length,
    },
  };
}

function pathOf(url: string): string {
  try {
    return new URL(url, 'http://service.invalid').pathname;
  } catch {
    return url;
  }
}

function title(r: CheckedEntry): string {
  const what = r.kind === 'webhook' ? 'webhook' : `${r.method} ${pathOf(r.url)}`;
  const operation = r.operationName ? ` ${r.operationName}` : '';
  const guide = r.guide ? ` (${r.guide} guide)` : '';
  return `${r.file} #${r.number} ${what}${operation}${guide} -> ${r.status ?? 'no answer'}`;
}

/**
 * The text report: each entry with drifts and its drifts (line, then the fix), then one summary line.
 *
 * @example
 * process.stdout.write(textReport(results, summary));
 */
export function textReport(results: readonly CheckedEntry[], summary: CheckSummary): string {
  const lines: string[] = [];
  for (const r of results) {
    if (r.skipped !== undefined || (r.drifts.length === 0 && !r.unchecked)) continue;
    lines.push(`${r.drifts.length > 0 ? 'DRIFT' : 'PART '} ${title(r)}`);
    for (const d of r.drifts) lines.push(`  ${driftLine(d)}`, `    ${d.message}`);
    for (const note of r.unchecked ?? []) lines.push(`  not checked: ${note}`);
  }
  const s = summary;
  const kinds = Object.entries(s.drifts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  lines.push(
    `${s.ok ? 'CLEAN' : 'DRIFTS'}: ${s.checked} of ${s.entries} entries checked in ${s.files} file${s.files === 1 ? '' : 's'}, ${s.clean} clean, ${s.withDrifts} with drifts${kinds ? ` (${kinds})` : ''}; GraphQL checked against the current guide ${s.guides.current}, the legacy guide ${s.guides.legacy}; skipped: ${s.skipped.otherHosts} other hosts, ${s.skipped.otherPaths} not the service's paths, ${s.skipped.unreadable} unreadable.`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * The JUnit XML report: a suite per HAR file, a test case per checked entry, a failure per entry with drifts.
 *
 * @example
 * writeFileSync('check.xml', junitReport(results));
 */
export function junitReport(results: readonly CheckedEntry[]): string {
  const byFile = new Map<string, CheckedEntry[]>();
  for (const r of results) if (r.skipped === undefined) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r]);
  return junitXml(
    'payment-contract-kit check',
    [...byFile].map(([file, list]) => ({
      name: file,
      cases: list.map((r) => {
        const first = r.drifts[0];
        return {
          classname: file,
          name: title(r).slice(file.length + 1),
          ...(first
            ? {
                failure: {
                  message: driftLine(first),
                  type: first.kind,
                  text: r.drifts.map((d) => `${driftLine(d)}\n  ${d.message}`).join('\n'),
                },
              }
            : {}),
        };
      }),
    })),
  );
}
