/**
 * The HAR files the `check` command's tests read, written from the real mock's traffic (test/contract/check/support/
 * mock-traffic.ts): every flow in each guide as the proxy's --record writes them (clean), the current guide's GraphQL
 * as Chrome's developer tools save them with other hosts, a preflight and a blocked request (chrome), and three
 * entries that drift (drifting).
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Exchange } from '../../../src/contract/check/index.ts';
import { mockBase, recordMockTraffic } from '../../contract/check/support/mock-traffic.ts';

const pairs = (headers: Record<string, string>) => Object.entries(headers).map(([name, value]) => ({ name, value }));

/** A HAR entry as the proxy's --record writes it. */
function entry(x: Exchange) {
  return {
    ...(x.kind === 'webhook' ? { _kind: 'webhook' } : {}),
    startedDateTime: '2026-11-25T10:00:00.000Z',
    time: 1,
    request: {
      method: x.request.method,
      url: x.request.url,
      httpVersion: 'HTTP/1.1',
      headers: pairs(x.request.headers),
      ...(x.request.body ? { postData: { mimeType: 'application/json', text: x.request.body } } : {}),
    },
    response: {
      status: x.response?.status ?? 0,
      headers: pairs(x.response?.headers ?? {}),
      content: {
        size: x.response?.body?.length ?? 0,
        mimeType: x.response?.headers['content-type'] ?? '',
        text: x.response?.body ?? '',
      },
    },
  };
}

/** The same entry as Chrome's devtools save it: pseudo-headers, the answer base64, content type only in `content`. */
function chromeEntry(x: Exchange) {
  const e = entry(x);
  const url = new URL(x.request.url);
  return {
    ...e,
    _resourceType: 'fetch',
    request: {
      ...e.request,
      httpVersion: 'h2',
      headers: [{ name: ':authority', value: url.host }, { name: ':path', value: url.pathname }, ...e.request.headers],
    },
    response: {
      ...e.response,
      headers: e.response.headers.filter((h) => h.name !== 'content-type'),
      content: {
        ...e.response.content,
        text: Buffer.from(e.response.content.text).toString('base64'),
        encoding: 'base64',
      },
    },
  };
}

const har = (entries: unknown[]) => ({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } });
/** The paths of the HAR files {@link writeCheckHars} wrote. */
export interface CheckHars {
  /** Every flow of the mock in the current guide, webhooks included: no drift. */
  readonly clean: string;
  /** The same in the legacy guide: no drift. */
  readonly legacy: string;
  /** The current guide's GraphQL saved by Chrome, a body left out, other hosts and paths: no drift. */
  readonly chrome: string;
  /** An upper-case card type, a renamed signature header, HTTP 400 with data: three drifts. */
  readonly drifting: string;
}

/** Records the mock's traffic and writes the HAR files into `dir`. */
export async function writeCheckHars(dir: string): Promise<CheckHars> {
  const write = (name: string, value: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(value));
    return file;
  };
  const files = { clean: '', legacy: '', chrome: '', drifting: '' };
  const current = await recordMockTraffic('current');
  const legacy = await recordMockTraffic('legacy');
  files.clean = write('clean.har', har(current.map((t) => entry(t.exchange))));
  files.legacy = write('legacy.har', har(legacy.map((t) => entry(t.exchange))));
  const graphql = current.filter((t) => t.exchange.request.url.endsWith('/graphql')).map((t) => t.exchange);
  const notRecorded = {
    ...chromeEntry(graphql[0]!),
    response: { ...chromeEntry(graphql[0]!).response, content: { size: 420, mimeType: 'application/json' } },
  };
  files.chrome = write(
    'chrome.har',
    har([
      ...graphql.map(chromeEntry),
      notRecorded,
      {
        request: { method: 'GET', url: 'https://cdn.example.com/app.js', headers: [] },
        response: { status: 200, headers: [], content: { size: 10, mimeType: 'text/javascript', text: 'x' } },
      },
      {
        request: { method: 'OPTIONS', url: `${mockBase}/graphql`, headers: [] },
        response: { status: 204, headers: [], content: { size: 0, mimeType: '' } },
      },
      {
        request: { method: 'GET', url: `${mockBase}/favicon.ico`, headers: [] },
        response: { status: 0, headers: [], content: { size: 0, mimeType: '' } },
      },
    ]),
  );
  const fees = graphql[0]!;
  const body = JSON.parse(fees.response!.body!);
  body.data.paymentGatewayFeesCalc[0].card_type = 'VISA';
  const webhook = current.find((t) => t.exchange.kind === 'webhook')!.exchange;
  const renamed: Record<string, string> = {
    ...webhook.request.headers,
    'x-signature': webhook.request.headers['x-webhook-signing-key']!,
  };
  delete renamed['x-webhook-signing-key'];
  files.drifting = write(
    'drifting.har',
    har([
      entry({ ...fees, response: { ...fees.response!, status: 200, body: JSON.stringify(body) } }),
      entry({ ...webhook, request: { ...webhook.request, headers: renamed } }),
      entry({ ...fees, response: { ...fees.response!, status: 400 } }),
    ]),
  );
  return files;
}
