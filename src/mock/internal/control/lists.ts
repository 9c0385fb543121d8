/**
 * The control API's read side: `GET /__pck/health` with the counters of every history, `GET /__pck/coverage` (the
 * coverage report of the sandbox as JSON, or as text or JUnit with `?format=text` / `?format=junit`), and the three
 * paged lists (`/__pck/payments`, `/__pck/deliveries`, `/__pck/requests`). Each list takes `limit`, a `before` or `after`
 * cursor and its filters, answers one page newest first (default 20 entries), and costs that page rather than
 * the history, so a dashboard polling it does not slow the service paths however long the mock has run.
 *
 * | Path | Filters | Answer |
 * |---|---|---|
 * | GET /__pck/payments | `clientId`, `state` (status name), `uuid` | `{ payments, order, next, counts }` |
 * | GET /__pck/deliveries | `state` (a state, or `pending`), `paymentUuid`, `clientId`, `url` | `{ deliveries, order, next, counts }` |
 * | GET /__pck/requests | `clientId`, `path`, `method`, `operationName`, `status`; `since` (= `after`) | `{ requests, order, next, cursor }` |
 *
 * @module
 */
import { coverageJunit, coverageText } from '../../../contract/coverage/report-formats.ts';
import { kitMessage } from '../../../internal/messages.ts';
import type { MockControl, MockHistory } from '../handle/control-handle.ts';
import { parseListQuery } from '../history/page.ts';
import type { MockRequest, Outcome } from '../http/exchange.ts';
import { badRequest } from '../http-error.ts';
import { deliveryFilterStates } from '../webhooks/delivery-store.ts';

type Add = (method: string, path: string, handle: (request: MockRequest) => Outcome | Promise<Outcome>) => void;

/** The path of the coverage route. */
export const coveragePath = '/__pck/coverage';

const coverageFormats = ['json', 'text', 'junit'] as const;

const ok = (body: unknown): Outcome => ({ status: 200, body });

/** What an operator should know about the caps now: pending work at its cap, refusals, evictions. */
export function historyWarnings(h: MockHistory): string[] {
  const d = h.deliveries;
  const warnings: string[] = [];
  // The cap is per process: other replicas' pending deliveries are theirs to cap.
  if (d.pendingHere >= d.caps.maxPendingDeliveries)
    warnings.push(
      kitMessage(
        `pending webhook deliveries are at their cap (${d.caps.maxPendingDeliveries}): new ones are refused (failed, pending-cap) until some finish. Bring the receiver back and advance the clock, or raise --max-pending-deliveries.`,
      ),
    );
  if (d.refused > 0)
    warnings.push(
      kitMessage(
        `${d.refused} webhook deliveries were refused at the pending cap since the last reset: GET /__pck/deliveries?state=failed lists them (reason pending-cap); redeliver them.`,
      ),
    );
  return warnings;
}

/** Reads the `state` filter of deliveries, or says which states exist. */
function deliveryState(raw: string | undefined, route: string) {
  if (raw === undefined) return undefined;
  const state = deliveryFilterStates.find((s) => s === raw);
  if (state === undefined)
    throw badRequest(`${route}: "state" must be one of ${deliveryFilterStates.join(', ')}; got "${raw.slice(0, 40)}".`);
  return state;
}

/** Reads the `status` filter of requests: an HTTP status. */
function httpStatus(raw: string | undefined, route: string): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^[1-5]\d\d$/.test(raw))
    throw badRequest(`${route}: "status" must be an HTTP status such as 200; got "${raw.slice(0, 40)}".`);
  return Number(raw);
}

/**
 * Adds health, coverage and the paged lists.
 *
 * @example
 * registerListRoutes(add, control, 'current');
 * // curl 'localhost:4010/__pck/deliveries?state=failed&limit=50'
 */
export function registerListRoutes(add: Add, control: MockControl, guide: string): void {
  add('GET', '/__pck/health', async () => {
    const history = await control.history();
    const store = control.store();
    return ok({ ok: true, now: control.now(), guide, history, warnings: historyWarnings(history), store });
  });
  add('GET', '/__pck/payments', async (req) => {
    const route = 'GET /__pck/payments';
    const { page, filters } = parseListQuery(req.query, ['clientId', 'state', 'uuid'], route);
    const { items, order, next } = await control.paymentPage({ ...page, ...filters, status: filters.state });
    return ok({ payments: items, order, next, counts: (await control.history()).payments });
  });
  add('GET', '/__pck/deliveries', async (req) => {
    const route = 'GET /__pck/deliveries';
    const { page, filters } = parseListQuery(req.query, ['state', 'paymentUuid', 'clientId', 'url'], route);
    const state = deliveryState(filters.state, route);
    const { items, order, next } = await control.deliveryPage({ ...page, ...filters, state });
    return ok({ deliveries: items, order, next, counts: (await control.history()).deliveries });
  });
  add('GET', '/__pck/requests', async (req) => {
    const route = 'GET /__pck/requests';
    const filters = ['clientId', 'path', 'method', 'operationName', 'status', 'since'];
    const { page, filters: f } = parseListQuery(req.query, filters, route);
    const since = f.since === undefined ? undefined : Number(f.since);
    if (since !== undefined && (!/^\d{1,15}$/.test(f.since!) || page.after !== undefined || page.before !== undefined))
      throw badRequest(
        `${route}: "since" is a sequence number and another name for "after"; give one of since, after, before.`,
      );
    const query = { ...page, ...(since === undefined ? {} : { after: since }) };
    const { since: _since, status, ...rest } = f;
    const result = await control.requestPage({ ...query, ...rest, status: httpStatus(status, route) });
    return ok({ requests: result.items, order: result.order, next: result.next, cursor: await control.cursor() });
  });
  add('GET', coveragePath, (request) => {
    const format = new URLSearchParams(request.query).get('format') ?? 'json';
    if (!(coverageFormats as readonly string[]).includes(format))
      throw badRequest(`GET ${coveragePath}: "format" must be json, text or junit; got "${format}".`);
    const report = control.coverage();
    if (format === 'json') return ok(report);
    const text = format === 'text' ? coverageText(report) : coverageJunit(report);
    const type = format === 'text' ? 'text/plain; charset=utf-8' : 'application/xml; charset=utf-8';
    return { status: 200, text, headers: { 'content-type': type } };
  });
}
