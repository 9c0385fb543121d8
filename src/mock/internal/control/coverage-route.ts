/**
 * `GET /__pck/coverage`: the coverage report of the sandbox (src/contract/coverage), as JSON by default, or as the
 * text or JUnit report with `?format=text` / `?format=junit`. A control route, so it takes the control token like
 * every other `/__pck/` route.
 *
 * @module
 */
import { coverageJunit, coverageText } from '../../../contract/coverage/report-formats.ts';
import { kitMessage } from '../../../internal/messages.ts';
import type { MockControl } from '../handle/control-handle.ts';
import type { MockRequest } from '../http/exchange.ts';
import type { Outcome } from '../http/outcome.ts';
import { restError } from '../http-error.ts';

/** The path of the coverage route. */
export const coveragePath = '/__pck/coverage';

const formats = ['json', 'text', 'junit'] as const;

/**
 * Adds the coverage route through `add` (the control routes' adder).
 *
 * @example
 * registerCoverageRoute(add, control); // curl localhost:4010/__pck/coverage?format=text
 */
export function registerCoverageRoute(
  add: (method: string, path: string, handle: (request: MockRequest) => Outcome) => void,
  control: Pick<MockControl, 'coverage'>,
): void {
  add('GET', coveragePath, (request) => {
    const format = new URLSearchParams(request.query).get('format') ?? 'json';
    if (!(formats as readonly string[]).includes(format))
      throw restError(400, kitMessage(`GET ${coveragePath}: "format" must be json, text or junit; got "${format}".`));
    const report = control.coverage();
    if (format === 'json') return { status: 200, body: report };
    const text = format === 'text' ? coverageText(report) : coverageJunit(report);
    const type = format === 'text' ? 'text/plain; charset=utf-8' : 'application/xml; charset=utf-8';
    return { status: 200, text, headers: { 'content-type': type } };
  });
}
