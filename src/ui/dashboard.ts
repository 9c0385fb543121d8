/**
 * The mock's dashboard (`/__pck/ui`): payments with status and outcome, webhook deliveries with every attempt and
 * its answer, and the request journal, refreshed by polling the control API once a second while the tab is visible;
 * buttons call the same control routes (settle, redeliver, advance the clock, reset). Everything is rendered as
 * text nodes (internal/dom.ts): journal summaries and receivers' answers are client data and may hold markup.
 *
 * @module
 */
import './internal/pages.css';
import { type Child, el, replaceChildren } from './internal/dom.ts';
import { readPageConfig } from './internal/read-config.ts';

/** The fields of a control API payment the dashboard shows. */
interface PaymentView {
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

interface AttemptView {
  number: number;
  at: number;
  status?: number;
  error?: string;
  ms: number;
  responseBody?: string;
}

interface DeliveryView {
  id: string;
  clientId: string;
  paymentUuid: string;
  url: string;
  state: string;
  attempts: AttemptView[];
  nextAttemptAt?: number;
  redeliveries: number;
  reason?: string;
}

interface RequestView {
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
}

const config = readPageConfig();
const control = config.paths.control;
const pollMs = 1000;
const journalRows = 200;

const message = el('div', { id: 'pck-message', role: 'status' });
const clockText = el('span', { id: 'pck-clock' });
const paymentsBody = el('tbody', { id: 'pck-payments' });
const deliveriesBody = el('tbody', { id: 'pck-deliveries' });
const journalBody = el('tbody', { id: 'pck-journal' });
const advanceInput = el('input', {
  type: 'number',
  min: 0,
  value: 60000,
  id: 'pck-advance-ms',
  'aria-label': 'milliseconds',
});
let journal: RequestView[] = [];
let cursor = 0;

const time = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

function say(text: string, isError = false): void {
  message.className = isError ? 'pck-status-error' : '';
  message.textContent = text;
}

async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(control + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = await res.json().catch(() => undefined);
  if (!res.ok) throw new Error(String(json?.message ?? `${method} ${control}${path} answered ${res.status}`));
  return json;
}

/** Runs a button's control call, says what happened and refreshes at once. */
async function act(label: string, method: 'POST', path: string, body?: unknown): Promise<void> {
  try {
    await call(method, path, body);
    say(`${label}: done.`);
  } catch (error) {
    say(`${label}: ${error instanceof Error ? error.message : String(error)}`, true);
  }
  await refresh();
}

function button(label: string, onclick: () => void, attrs: Record<string, string> = {}): HTMLElement {
  return el('button', { type: 'button', onclick, ...attrs }, label);
}

function statusClass(status: number): string {
  return status < 400 ? 'pck-status-ok' : 'pck-status-error';
}

function paymentRow(p: PaymentView): HTMLElement {
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

function deliveryRow(d: DeliveryView): HTMLElement {
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
    el('td', {}, el('ol', { class: 'pck-attempts' }, ...d.attempts.map(attemptLine))),
    el(
      'td',
      { class: 'pck-actions' },
      finished && button('Redeliver', () => void act('Redeliver', 'POST', 'deliveries/redeliver', { id: d.id })),
    ),
  );
}

function journalRow(r: RequestView): HTMLElement {
  return el(
    'tr',
    {},
    el('td', {}, r.seq),
    el('td', {}, time(r.at)),
    el('td', {}, el('code', {}, `${r.method} ${r.path}`)),
    el('td', {}, r.operationName ?? ''),
    el('td', { class: statusClass(r.status) }, r.status),
    el('td', {}, r.clientId ?? ''),
    el('td', {}, r.summary === undefined ? '' : el('pre', { class: 'pck-summary' }, JSON.stringify(r.summary))),
  );
}

function rowsOr(rows: HTMLElement[], columns: number, empty: string): Child[] {
  return rows.length > 0 ? rows : [el('tr', {}, el('td', { colspan: columns, class: 'pck-empty' }, empty))];
}

async function refresh(): Promise<void> {
  try {
    const [clock, payments, deliveries, requests] = (await Promise.all([
      call('GET', 'clock'),
      call('GET', 'payments'),
      call('GET', 'deliveries'),
      call('GET', `requests?since=${cursor}`),
    ])) as [
      { iso: string },
      { payments: PaymentView[] },
      { deliveries: DeliveryView[] },
      { requests: RequestView[]; cursor: number },
    ];
    clockText.textContent = `Mock clock: ${clock.iso}`;
    replaceChildren(paymentsBody, rowsOr(payments.payments.slice().reverse().map(paymentRow), 10, 'No payments yet.'));
    replaceChildren(
      deliveriesBody,
      rowsOr(deliveries.deliveries.slice().reverse().map(deliveryRow), 6, 'No webhook deliveries yet.'),
    );
    // A cursor that went back means the mock was reset: start the journal over.
    if (requests.cursor < cursor) {
      journal = [];
      cursor = 0;
      return refresh();
    }
    journal = journal.concat(requests.requests).slice(-journalRows);
    cursor = requests.cursor;
    replaceChildren(journalBody, rowsOr(journal.slice().reverse().map(journalRow), 7, 'No requests yet.'));
    document.body.dataset.updated = String(Date.now());
  } catch (error) {
    say(`Cannot read the mock: ${error instanceof Error ? error.message : String(error)}`, true);
  }
}

function table(headers: string[], body: HTMLElement): HTMLElement {
  return el('table', {}, el('thead', {}, el('tr', {}, ...headers.map((h) => el('th', {}, h)))), body);
}

function layout(): void {
  const bar = document.getElementById('pck-bar')!;
  replaceChildren(bar, [
    el('strong', {}, 'payment-contract-kit mock: dashboard'),
    clockText,
    el(
      'span',
      { class: 'pck-actions' },
      button('+1 min', () => void act('Advance the clock', 'POST', 'clock/advance', { ms: 60_000 })),
      button('+1 h', () => void act('Advance the clock', 'POST', 'clock/advance', { ms: 3_600_000 })),
      advanceInput,
      button(
        'Advance ms',
        () =>
          void act('Advance the clock', 'POST', 'clock/advance', {
            ms: Number((advanceInput as HTMLInputElement).value),
          }),
      ),
      button(
        'Reset',
        () => {
          if (confirm('Reset the mock? Payments, tokens, deliveries and the journal are forgotten.'))
            void act('Reset', 'POST', 'reset');
        },
        { id: 'pck-reset' },
      ),
    ),
    el(
      'nav',
      {},
      el('a', { href: config.pages.graphiql }, 'GraphiQL'),
      el('a', { href: config.pages.reference }, 'API reference'),
    ),
  ]);
  const main = document.getElementById('pck-main')!;
  replaceChildren(main, [
    message,
    el(
      'section',
      {},
      el('h2', {}, 'Payments'),
      table(['uuid', 'client', 'guide', 'amount', 'fee', 'card', 'paid at', 'status', 'outcome', ''], paymentsBody),
    ),
    el(
      'section',
      {},
      el('h2', {}, 'Webhook deliveries'),
      table(['delivery', 'payment', 'url', 'state', 'attempts', ''], deliveriesBody),
    ),
    el(
      'section',
      {},
      el('h2', {}, `Requests (latest ${journalRows})`),
      table(['#', 'time', 'request', 'operation', 'status', 'client', 'variables (masked)'], journalBody),
    ),
  ]);
}

layout();
void refresh();
setInterval(() => {
  if (document.visibilityState === 'visible') void refresh();
}, pollMs);
