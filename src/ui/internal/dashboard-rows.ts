/**
 * What the dashboard reads from the control API (the fields it shows) and how one row of each list is drawn. Every
 * value goes in as a text node (dom.ts): receivers' answers and journal summaries are client data and may hold markup.
 *
 * @module
 */
import type { BehaviourView } from './coverage-view.ts';
import { el } from './dom.ts';
import { outcomeCell } from './request-outcome.ts';

/** Runs a control call for a button: its label, method, path under the control prefix, and JSON body. */
export type DashboardAction = (label: string, method: 'POST', path: string, body?: unknown) => Promise<void>;

/** The fields of a control API payment the dashboard shows. */
export interface PaymentView {
  uuid: string;
  clientId: string;
  guide: string;
  amount: number;
  payment_gateway_fee: number;
  paid_at: string;
  status: string;
  outcome: string;
  settledOutcome?: string;
  masked_card_number: string;
  card_type: string;
}

/** One attempt of a delivery as the control API lists it. */
export interface AttemptView {
  number: number;
  at: number;
  status?: number;
  error?: string;
  ms: number;
  responseBody?: string;
}

/** The fields of a control API delivery the dashboard shows. */
export interface DeliveryView {
  id: string;
  seq: number;
  clientId: string;
  paymentUuid: string;
  url: string;
  state: string;
  attempts: AttemptView[];
  attemptsDropped?: number;
  nextAttemptAt?: number;
  redeliveries: number;
  reason?: string;
}

/** One entry of the request journal. */
export interface RequestView {
  seq: number;
  method: string;
  path: string;
  operationName?: string;
  guide?: string;
  status: number;
  at: number;
  durationMs: number;
  clientId?: string;
  summary?: unknown;
  /** The journal's outcome: `ok`, a reason code, `validation: <paths>` or `HTTP <status>`. */
  outcome?: string;
}

/** What `GET /__pck/health` says about the histories (the counters the mock keeps). */
export interface HistoryView {
  payments: { kept: number; processing: number; evicted: number; capPerClient: number; version: number };
  deliveries: {
    byState: Record<string, number>;
    kept: number;
    pending: number;
    evicted: number;
    refused: number;
    version: number;
    caps: { maxDeliveries: number; maxPendingDeliveries: number };
  };
  requests: { kept: number; capacity: number; cursor: number };
}

/** The part of `GET /__pck/health` the dashboard polls. */
export interface HealthView {
  now: number;
  history: HistoryView;
  warnings: string[];
}

/** One page of a list as the control API answers it. */
export interface PageView {
  next: number | null;
}

/** A sandbox time as the tables show it (UTC, no `T`, no `Z`). */
export const time = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

/** A button that runs `onclick`. */
export function button(label: string, onclick: () => void, attrs: Record<string, string> = {}): HTMLElement {
  return el('button', { type: 'button', onclick, ...attrs }, label);
}

/** The class that colours an HTTP status. */
export function statusClass(status: number): string {
  return status < 400 ? 'pck-status-ok' : 'pck-status-error';
}

/** A payment's row, with its settle buttons while it is processing. */
export function paymentRow(p: PaymentView, act: DashboardAction): HTMLElement {
  const processing = p.settledOutcome === undefined;
  return el(
    'tr',
    { 'data-uuid': p.uuid },
    el('td', {}, el('code', {}, p.uuid)),
    el('td', {}, p.clientId),
    el('td', {}, p.guide),
    el('td', {}, p.amount),
    el('td', {}, p.payment_gateway_fee),
    el('td', {}, `${p.card_type} ${p.masked_card_number}`),
    el('td', {}, p.paid_at),
    el('td', { class: 'pck-payment-status' }, p.status),
    el('td', {}, processing ? `card says ${p.outcome}` : p.settledOutcome),
    el(
      'td',
      { class: 'pck-actions' },
      processing &&
        button(
          'Settle: success',
          () => void act('Settle', 'POST', 'payments/settle', { uuid: p.uuid, outcome: 'success' }),
        ),
      processing &&
        button(
          'Settle: failure',
          () => void act('Settle', 'POST', 'payments/settle', { uuid: p.uuid, outcome: 'failure' }),
        ),
    ),
  );
}

function attemptLine(a: AttemptView): HTMLElement {
  const answer = a.status !== undefined ? `HTTP ${a.status}` : `no answer (${a.error ?? 'unknown'})`;
  return el(
    'li',
    { class: 'pck-attempt' },
    `#${a.number} at ${time(a.at)}: ${answer}, ${a.ms.toFixed(0)} ms`,
    a.responseBody ? el('pre', {}, a.responseBody) : null,
  );
}

/** A delivery's row: its attempts, and a redeliver button once it has ended. */
export function deliveryRow(d: DeliveryView, act: DashboardAction): HTMLElement {
  const finished = d.state === 'delivered' || d.state === 'failed' || d.state === 'gone';
  return el(
    'tr',
    { 'data-delivery': d.id },
    el('td', {}, el('code', {}, d.id)),
    el('td', {}, el('code', {}, d.paymentUuid)),
    el('td', {}, el('code', {}, d.url)),
    el(
      'td',
      { class: `pck-delivery-state pck-state-${d.state}` },
      d.state,
      d.reason ? ` (${d.reason})` : '',
      d.nextAttemptAt !== undefined ? `, next attempt ${time(d.nextAttemptAt)}` : '',
    ),
    el(
      'td',
      {},
      d.attemptsDropped ? `${d.attemptsDropped} older attempts not kept` : '',
      el('ol', { class: 'pck-attempts' }, ...d.attempts.map(attemptLine)),
    ),
    el(
      'td',
      { class: 'pck-actions' },
      finished && button('Redeliver', () => void act('Redeliver', 'POST', 'deliveries/redeliver', { id: d.id })),
    ),
  );
}

/** A journal entry's row. */
export function journalRow(r: RequestView): HTMLElement {
  const outcome = outcomeCell(r.outcome, r.status);
  return el(
    'tr',
    { 'data-seq': String(r.seq), ...(outcome.refused ? { 'data-refused': 'true' } : {}) },
    el('td', {}, r.seq),
    el('td', {}, time(r.at)),
    el('td', {}, el('code', {}, `${r.method} ${r.path}`)),
    el('td', {}, r.operationName ?? ''),
    el('td', { class: statusClass(r.status) }, r.status),
    el('td', { class: `pck-outcome ${outcome.refused ? 'pck-status-error' : 'pck-status-ok'}` }, outcome.text),
    el('td', {}, r.clientId ?? ''),
    el('td', {}, r.summary === undefined ? '' : el('pre', { class: 'pck-summary' }, JSON.stringify(r.summary))),
  );
}

/** A behaviour's row of the coverage table. */
export function behaviourRow(b: BehaviourView): HTMLElement {
  return el(
    'tr',
    { 'data-behaviour': b.id, ...(b.covered ? {} : { 'data-never': 'true' }) },
    el('td', {}, el('code', {}, b.id)),
    el('td', {}, b.title),
    el('td', {}, b.spec),
    el('td', {}, b.count),
    el('td', { class: b.covered ? 'pck-status-ok' : 'pck-status-error' }, b.covered ? 'exercised' : 'never'),
  );
}
