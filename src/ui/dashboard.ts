/**
 * The mock's dashboard (`/__pck/ui`): payments with status and outcome, webhook deliveries with every attempt and
 * its answer, the request journal, and which behaviours of the service the sandbox exercised (`GET /__pck/coverage`);
 * buttons call the same control routes (settle, redeliver, advance the clock, reset). Everything is rendered as text nodes (internal/dom.ts): journal summaries and receivers' answers are
 * client data and may hold markup.
 *
 * Its cost stays flat however long the mock has run: once a second (while the tab is visible) it reads only
 * `GET /__pck/health`, whose counters and change versions are kept by the mock, and fetches a list's page (20 rows,
 * older pages on demand) only when that list's version changed since the last poll; the coverage report is read again
only when one of the counters its counts follow moved (internal/coverage-view.ts).
 *
 * @module
 */
import './internal/pages.css';
import { controlFetch } from './internal/control-auth.ts';
import {
  type CoverageFilter,
  type CoverageView,
  coverageFilters,
  coverageRows,
  coverageSignal,
  coverageSummary,
} from './internal/coverage-view.ts';
import {
  behaviourRow,
  button,
  type DeliveryView,
  deliveryRow,
  type HealthView,
  type HistoryView,
  journalRow,
  type PageView,
  type PaymentView,
  paymentRow,
  type RequestView,
} from './internal/dashboard-rows.ts';
import { type Child, el, replaceChildren } from './internal/dom.ts';
import { readPageConfig } from './internal/read-config.ts';

const config = readPageConfig();
const control = config.paths.control;
const pollMs = 1000;
const pageRows = 20;
const journalRows = 50;

const message = el('div', { id: 'pck-message', role: 'status' });
const clockText = el('span', { id: 'pck-clock' });
const paymentsBody = el('tbody', { id: 'pck-payments' });
const deliveriesBody = el('tbody', { id: 'pck-deliveries' });
const journalBody = el('tbody', { id: 'pck-journal' });
const warningsBox = el('div', { id: 'pck-warnings', role: 'alert' });
const paymentsCounts = el('p', { id: 'pck-payments-counts', class: 'pck-counts' });
const deliveriesCounts = el('p', { id: 'pck-deliveries-counts', class: 'pck-counts' });
const journalCounts = el('p', { id: 'pck-journal-counts', class: 'pck-counts' });
const coverageBody = el('tbody', { id: 'pck-coverage' });
const coverageCounts = el('p', { id: 'pck-coverage-counts', class: 'pck-counts' });
const coverageSelect = el(
  'select',
  { id: 'pck-coverage-filter', 'aria-label': 'behaviours shown', onchange: () => renderCoverage() },
  ...coverageFilters.map(([value, label]) => el('option', { value }, label)),
) as HTMLSelectElement;
const deliveryStateSelect = el(
  'select',
  { id: 'pck-delivery-state', 'aria-label': 'delivery state', onchange: () => void reload('deliveries') },
  ...['', 'pending', 'retry-scheduled', 'delivered', 'failed', 'gone'].map((s) =>
    el('option', { value: s }, s || 'all'),
  ),
) as HTMLSelectElement;
const advanceInput = el('input', {
  type: 'number',
  min: 0,
  value: 60000,
  id: 'pck-advance-ms',
  'aria-label': 'milliseconds',
});
/**
 * A paged list on the dashboard: the version of its rows (the mock's change counter when they were fetched), the
 * cursor of the page shown (undefined: the newest page) and of the next older one.
 */
interface ListState {
  version: number | undefined;
  before: number | undefined;
  next: number | null;
  /** Cursors of the newer pages, to step back. */
  newer: (number | undefined)[];
}
const lists: Record<'payments' | 'deliveries', ListState> = {
  payments: { version: undefined, before: undefined, next: null, newer: [] },
  deliveries: { version: undefined, before: undefined, next: null, newer: [] },
};
let journalCursor: number | undefined;
/** The coverage signal when the report shown was read, and that report. */
let coverageRead: string | undefined;
let coverage: CoverageView | undefined;

function say(text: string, isError = false): void {
  message.className = isError ? 'pck-status-error' : '';
  message.textContent = text;
}

async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const res = await controlFetch(config, control + path, {
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

/** Shows the report last read, through the filter chosen. */
function renderCoverage(): void {
  if (coverage === undefined) return;
  coverageCounts.textContent = coverageSummary(coverage);
  const rows = coverageRows(coverage, coverageSelect.value as CoverageFilter).map(behaviourRow);
  replaceChildren(coverageBody, rowsOr(rows, 5, 'No behaviour matches the filter.'));
}

function rowsOr(rows: HTMLElement[], columns: number, empty: string): Child[] {
  return rows.length > 0 ? rows : [el('tr', {}, el('td', { colspan: columns, class: 'pck-empty' }, empty))];
}

function listQuery(name: 'payments' | 'deliveries'): string {
  const q = new URLSearchParams({ limit: String(pageRows) });
  const before = lists[name].before;
  if (before !== undefined) q.set('before', String(before));
  if (name === 'deliveries' && deliveryStateSelect.value) q.set('state', deliveryStateSelect.value);
  return `${name}?${q}`;
}

/** Fetches the page a list shows and renders it. */
async function loadList(name: 'payments' | 'deliveries', version: number): Promise<void> {
  const page = (await call('GET', listQuery(name))) as PageView & {
    payments?: PaymentView[];
    deliveries?: DeliveryView[];
  };
  const state = lists[name];
  state.version = version;
  state.next = page.next;
  if (name === 'payments')
    replaceChildren(
      paymentsBody,
      rowsOr(
        (page.payments ?? []).map((p) => paymentRow(p, act)),
        10,
        'No payments yet.',
      ),
    );
  else
    replaceChildren(
      deliveriesBody,
      rowsOr(
        (page.deliveries ?? []).map((d) => deliveryRow(d, act)),
        6,
        'No webhook deliveries yet.',
      ),
    );
  renderPager(name);
}

/** Shows another page of a list (or the same with a new filter): forget its version so the next poll loads it. */
async function reload(name: 'payments' | 'deliveries', move?: 'older' | 'newer' | 'newest'): Promise<void> {
  const state = lists[name];
  if (move === 'older' && state.next !== null) {
    state.newer.push(state.before);
    state.before = state.next;
  } else if (move === 'newer') state.before = state.newer.pop();
  else {
    state.before = undefined;
    state.newer = [];
  }
  state.version = undefined;
  await refresh();
}

const pagers = { payments: el('span', { class: 'pck-pager' }), deliveries: el('span', { class: 'pck-pager' }) };

function renderPager(name: 'payments' | 'deliveries'): void {
  const state = lists[name];
  replaceChildren(pagers[name], [
    state.before !== undefined && button('Newest', () => void reload(name, 'newest')),
    state.before !== undefined && button('Newer', () => void reload(name, 'newer')),
    state.next !== null && button('Older', () => void reload(name, 'older'), { 'data-pager': `${name}-older` }),
  ]);
}

function renderCounts(h: HistoryView, warnings: string[]): void {
  const p = h.payments;
  paymentsCounts.textContent = `${p.kept} kept (${p.processing} processing), ${p.evicted} evicted by the cap of ${p.capPerClient} per client.`;
  const d = h.deliveries;
  const states = Object.entries(d.byState)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${s} ${n}`)
    .join(', ');
  deliveriesCounts.textContent = `${d.kept} kept (${states || 'none'}); ${d.pending} pending of ${d.caps.maxPendingDeliveries}; ${d.evicted} evicted; ${d.refused} refused at the pending cap.`;
  journalCounts.textContent = `${h.requests.kept} of the latest ${h.requests.capacity} requests kept; showing the newest ${journalRows}.`;
  replaceChildren(
    warningsBox,
    warnings.map((w) => el('p', { class: 'pck-status-error' }, w)),
  );
}

/**
 * One poll: health, then only the lists whose version moved. An older page shown stays as it is until its list
 * changes; the journal reloads when its cursor moved (a reset moves it back).
 */
async function refresh(): Promise<void> {
  try {
    const health = (await call('GET', 'health')) as HealthView;
    const h = health.history;
    clockText.textContent = `Mock clock: ${new Date(health.now).toISOString()}`;
    renderCounts(h, health.warnings);
    const loads: Promise<void>[] = [];
    if (lists.payments.version !== h.payments.version) loads.push(loadList('payments', h.payments.version));
    if (lists.deliveries.version !== h.deliveries.version) loads.push(loadList('deliveries', h.deliveries.version));
    const signal = coverageSignal(h);
    if (coverageRead !== signal)
      loads.push(
        (call('GET', 'coverage') as Promise<CoverageView>).then((report) => {
          coverageRead = signal;
          coverage = report;
          renderCoverage();
        }),
      );
    if (journalCursor !== h.requests.cursor) {
      const cursor = h.requests.cursor;
      loads.push(
        (call('GET', `requests?limit=${journalRows}`) as Promise<{ requests: RequestView[] }>).then((r) => {
          journalCursor = cursor;
          replaceChildren(journalBody, rowsOr(r.requests.map(journalRow), 8, 'No requests yet.'));
        }),
      );
    }
    await Promise.all(loads);
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
    warningsBox,
    el(
      'section',
      {},
      el('h2', {}, 'Payments'),
      paymentsCounts,
      pagers.payments,
      table(['uuid', 'client', 'guide', 'amount', 'fee', 'card', 'paid at', 'status', 'outcome', ''], paymentsBody),
    ),
    el(
      'section',
      {},
      el('h2', {}, 'Webhook deliveries'),
      deliveriesCounts,
      el('label', {}, 'State ', deliveryStateSelect),
      pagers.deliveries,
      table(['delivery', 'payment', 'url', 'state', 'attempts', ''], deliveriesBody),
    ),
    el(
      'section',
      {},
      el('h2', {}, `Requests (latest ${journalRows})`),
      journalCounts,
      table(['#', 'time', 'request', 'operation', 'status', 'outcome', 'client', 'variables (masked)'], journalBody),
    ),
    el(
      'section',
      {},
      el('h2', {}, 'Service behaviours exercised'),
      coverageCounts,
      el('label', {}, 'Show ', coverageSelect),
      table(['behaviour', 'what happened', 'spec', 'count', ''], coverageBody),
    ),
  ]);
}

layout();
void refresh();
setInterval(() => {
  if (document.visibilityState === 'visible') void refresh();
}, pollMs);
