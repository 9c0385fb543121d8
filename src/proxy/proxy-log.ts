/**
 * What the proxy writes on standard error: one line per exchange (`--log text|json`), one line per drift as it is
 * found, and a summary at exit. Lines are queued and written on `setImmediate`, so forwarding never waits for a
 * write; every line passes the redactor first.
 *
 * @module
 */
import type { DriftKind } from '../contract/check/exchange.ts';
import { clause, kitMessage, kitPrefix } from '../internal/messages.ts';
import type { DriftReport, ReportDrift } from './drift-report.ts';
import type { ProxyLogFormat, ProxyLogSink } from './options.ts';
import type { Redactor } from './redact.ts';

/** One forwarded exchange, as its log line shows it. */
export interface ExchangeLine {
  readonly seq: number;
  readonly kind: 'http' | 'webhook';
  readonly method: string;
  readonly path: string;
  readonly operationName: string | null;
  readonly status: number;
  readonly durationMs: number;
  readonly drifts: number;
}

/** The proxy's log. */
export interface ProxyLog {
  exchange(line: ExchangeLine): void;
  drift(drift: ReportDrift): void;
  /** A free-form line (start-up, a receiver that failed, a checker bug). */
  line(text: string, level?: 'info' | 'warn' | 'error'): void;
  /** Writes the summary of a report (counts by kind and ledger key, where the files went). */
  summary(report: DriftReport, written: readonly string[]): void;
  flush(): void;
}

function textExchange(e: ExchangeLine): string {
  const tag = e.kind === 'webhook' ? ' webhook' : '';
  const drifts = e.drifts > 0 ? ` ${e.drifts} drift${e.drifts === 1 ? '' : 's'}` : '';
  return `#${e.seq}${tag} ${e.method} ${e.path} ${e.operationName ?? '-'} ${e.status} ${e.durationMs.toFixed(1)}ms${drifts}`;
}

/** One drift as a sentence: where, what, and the message that says what to do. */
export function driftText(d: ReportDrift): string {
  const x = d.exchange;
  const op = x.operationName ? ` ${x.operationName}` : '';
  const key = d.ledgerKey ? ` [${d.ledgerKey}]` : '';
  // A drift's message carries the kit's prefix for readers of the report; the line gets its own when it is logged.
  const message = d.message.startsWith(`${kitPrefix} `) ? d.message.slice(kitPrefix.length + 1) : d.message;
  return `proxy: ${d.kind} drift in #${x.seq} ${x.method} ${x.path}${op} (${x.status}) at ${d.path}${key}: expected ${d.expected}, got ${clause(d.actual)}. ${message}`;
}

const kinds: readonly DriftKind[] = ['contract', 'assumption', 'upstream', 'consumer'];

function summaryText(report: DriftReport, written: readonly string[]): string[] {
  const total = report.drifts.length;
  const byKind = kinds.map((k) => `${report.counts[k]} ${k}`).join(', ');
  const lines = [
    kitMessage(
      `proxy: ${report.exchanges} exchange${report.exchanges === 1 ? '' : 's'}, ${total === 0 ? 'no drift' : `drifts: ${byKind}`}.`,
    ),
  ];
  const keys = new Map<string, number>();
  for (const d of report.drifts) if (d.ledgerKey) keys.set(d.ledgerKey, (keys.get(d.ledgerKey) ?? 0) + 1);
  if (keys.size > 0)
    lines.push(
      kitMessage(
        `proxy: assumptions the service contradicted: ${[...keys].map(([k, n]) => `${k} (${n})`).join(', ')}; start the mock with the report's suggestedConfig to answer as the service did.`,
      ),
    );
  for (const file of written) lines.push(kitMessage(`proxy: wrote ${file}.`));
  return lines;
}

/**
 * Creates the log.
 *
 * @example
 * const log = createProxyLog((line) => process.stderr.write(`${line}\n`), 'text', redactor);
 */
export function createProxyLog(sink: ProxyLogSink, format: ProxyLogFormat, redactor: Redactor): ProxyLog {
  const queue: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (!sink) return;
    const lines = queue.splice(0);
    if (lines.length > 0) sink(lines.join('\n'));
  };
  // Text lines are redacted whole; JSON lines value by value before serialising (masking digits in the serialised
  // text could hit a JSON number), then only the remembered secrets are taken out of the line.
  const push = (text: string, serialised = false) => {
    if (!sink) return;
    queue.push(serialised ? redactor.known(text) : redactor.text(text));
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  const json = (level: string, fields: Record<string, unknown>) =>
    push(JSON.stringify({ time: new Date().toISOString(), level, ...redactor.value(fields) }), true);
  return {
    exchange(e) {
      // Off (--quiet, log: false): not even the line is made, on every exchange.
      if (!sink) return;
      const durationMs = Math.round(e.durationMs * 10) / 10;
      if (format === 'json') json(e.status >= 500 ? 'error' : e.status >= 400 ? 'warn' : 'info', { ...e, durationMs });
      else push(textExchange(e));
    },
    drift(d) {
      if (format === 'json') json('warn', { message: kitMessage(driftText(d)), drift: d });
      else push(kitMessage(driftText(d)));
    },
    line(text, level = 'info') {
      if (format === 'json') json(level, { message: text });
      else push(text);
    },
    summary(report, written) {
      for (const line of summaryText(report, written)) this.line(line);
      flush();
    },
    flush,
  };
}
