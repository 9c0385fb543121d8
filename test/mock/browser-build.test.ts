// The browser and worker build of payment-contract-kit/mock (src/mock/browser.ts), as a team running the mock in a
// web worker or an edge runtime meets it: bundled by esbuild from the packed tarball under the `browser` and the
// `worker` conditions, run in a module worker in Debian's Chromium (no DOM, no msw), and held equal to the Node
// build's answers for the same flows.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockApp } from '../../src/mock/index.ts';
import {
  type BrowserBundle,
  nodeBuiltins,
  type PackedConsumer,
  packedConsumer,
} from '../msw/browser/packed-browser-build.ts';
import { type PageServer, startPageServer } from '../msw/browser/page-server.ts';
import { launchBrowser, type TestBrowser } from '../ui/support/browser.ts';
import { type FlowAnswers, runFlows } from './browser-build/flows.ts';

interface WorkerResult {
  readonly flows: FlowAnswers;
  readonly startMockServer: string;
  readonly handle: string;
  readonly fileStore: string;
}

let consumer: PackedConsumer;
let forBrowser: BrowserBundle;
let forWorker: BrowserBundle;
let server: PageServer;
let origin: string;
let browser: TestBrowser;

beforeAll(async () => {
  consumer = await packedConsumer();
  // The worker's own source, with its flows module by absolute path: the entry sits in the consumer's folder, so
  // `payment-contract-kit/mock` resolves to the unpacked tarball there.
  const flows = join(import.meta.dirname, 'browser-build/flows.ts');
  const source = (await readFile(join(import.meta.dirname, 'browser-build/worker.ts'), 'utf8')).replace(
    "'./flows.ts'",
    JSON.stringify(flows),
  );
  forBrowser = await consumer.bundle(source);
  forWorker = await consumer.bundle(source, { target: 'worker' });
  const html = `<!doctype html><meta charset="utf-8"><title>kit</title><script type="module">
    const worker = new Worker('/worker.js', { type: 'module' });
    globalThis.pckResult = new Promise((resolve) => {
      worker.onmessage = (event) => resolve(event.data);
      worker.onerror = (event) => resolve({ ok: false, error: 'worker error: ' + event.message });
    });
  </script>`;
  server = await startPageServer({ '/': ['text/html', html], '/worker.js': ['text/javascript', forWorker.code] });
  origin = server.origin;
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await consumer?.remove();
});

describe('payment-contract-kit/mock bundled for browsers and workers', () => {
  it('resolves the browser build under both conditions, with no Node built-in and no graphql-jit', () => {
    for (const bundle of [forBrowser, forWorker]) {
      expect(nodeBuiltins(bundle.externals)).toEqual([]);
      expect(bundle.inputs).toContainEqual(
        expect.stringMatching(/node_modules\/payment-contract-kit\/dist\/browser\/mock\.js$/),
      );
      expect(bundle.inputs.some((i) => i.includes('graphql-jit') || /payment-contract-kit\/dist\/[^/]+$/.test(i))).toBe(
        false,
      );
    }
  });
});

describe('createMockApp(...).fetch in a Chromium module worker', () => {
  let result: WorkerResult;
  let fromNode: FlowAnswers;

  beforeAll(async () => {
    const { page, problems } = await browser.open();
    await page.goto(origin);
    const posted = (await page.evaluate(() => (globalThis as unknown as { pckResult: Promise<unknown> }).pckResult)) as
      | { ok: true; result: WorkerResult }
      | { ok: false; error: string };
    if (!posted.ok) throw new Error(posted.error);
    expect(problems).toEqual([]);
    result = posted.result;
    const hookUrl = `${origin}/hook`;
    fromNode = await runFlows(createMockApp({ log: false, seed: 'browser-build', webhookUrls: [hookUrl] }), hookUrl);
  }, 120_000);

  it('answers the flows as the Node build does: fees, card fee, payment, 7.3 refusal, expired token', () => {
    const { flows } = result;
    expect(flows.health).toBe(200);
    expect(flows.tokenStatus).toBe(200);
    expect(flows.fees).toMatchObject({ status: 200, body: { data: { paymentGatewayFeesCalc: expect.any(Array) } } });
    expect(flows.validation).toMatchObject({ body: { errors: [{ extensions: { category: 'validation' } }] } });
    expect(flows.expired).toMatchObject({ body: { errors: [{ extensions: { reason: expect.any(String) } }] } });
    // Same seed, same answers, byte for byte: ids, fees, refusals and their messages.
    const { delivery: _browserDelivery, ...browserAnswers } = flows;
    const { delivery: _nodeDelivery, ...nodeAnswers } = fromNode;
    expect(browserAnswers).toEqual(nodeAnswers);
  });

  it('delivers the settled payment webhook with fetch from the worker, as Node posts it', () => {
    expect(result.flows.delivery).toEqual({ state: 'delivered', url: `${origin}/hook`, status: 204 });
    expect(fromNode.delivery).toEqual(result.flows.delivery);
    const bodies = server.hooks.map((h) => {
      const { paid_at: _paidAt, ...rest } = h as Record<string, unknown>;
      return rest;
    });
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toEqual(bodies[1]);
    expect(bodies[0]).toMatchObject({ status: 'success', amount: 100 });
  });

  it('says what to use instead where the browser build has no sockets or files', () => {
    expect(result.startMockServer).toMatch(/startMockServer needs Node \(node:http\).*createMockApp\(options\)\.fetch/);
    expect(result.handle).toMatch(/app\.handle is the node:http listener/);
    expect(result.fileStore).toMatch(/store "file:\/tmp\/sandbox\.jsonl" needs Node/);
  });
});
