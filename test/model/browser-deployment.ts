/**
 * The browser-worker deployment (integration tier: esbuild's service and Chromium are child processes): the kit's
 * msw handlers, bundled from the built browser entry (`dist/browser/msw.js`), under msw's `setupWorker` in a
 * Chromium page. Every request of the model's commands, control API included, is sent by the page's own `fetch`,
 * so the service worker answers it; the answers come back to Node, where the checker and the model read them.
 * The mock's webhooks go to its in-page receiver, which hands each attempt to the Node-side receiver.
 *
 * Requests sent in the same turn of Node's event loop cross to the page together, one round trip for the batch;
 * the page sends them in order, one after the other.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { type PageServer, startPageServer } from '../msw/browser/page-server.ts';
import { ensureBuilt, root } from '../package/support/packed-kit.ts';
import { launchBrowser, type TestBrowser } from '../ui/support/browser.ts';
import {
  checkedSender,
  createReceiver,
  type Deployment,
  frozenRealTime,
  modelMockOptions,
  type Receiver,
} from './deployment.ts';

/** What crosses between Node and the page for one request and its answer (see browser/page.ts). */
interface PageRequest {
  readonly path: string;
  readonly init: { method: string; headers: Record<string, string>; body?: string };
}
interface PageAnswer {
  readonly status: number;
  readonly headers: [string, string][];
  readonly text: string;
}

/** The browser-worker deployment, with its traffic between Node and the page. */
export interface BrowserWorkerDeployment extends Deployment {
  /** Requests sent through the page, and the page round trips that carried them. */
  traffic(): { readonly requests: number; readonly roundTrips: number };
  /** Console errors and uncaught exceptions of the page. */
  problems(): readonly string[];
}

/** Bundles the page entry for the browser, the kit's msw handlers from its built browser entry. */
async function bundlePage(): Promise<string> {
  await ensureBuilt(['dist/browser/msw.js']);
  const result = await esbuild.build({
    entryPoints: [join(import.meta.dirname, 'browser', 'page.ts')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    alias: { 'payment-contract-kit/msw': join(root, 'dist', 'browser', 'msw.js') },
  });
  return result.outputFiles[0]?.text ?? '';
}

/** Answers null for the statuses a Response may carry no body with. */
function answerBody(answer: PageAnswer): string | null {
  return answer.text === '' || [204, 205, 304].includes(answer.status) ? null : answer.text;
}

type Page = Awaited<ReturnType<TestBrowser['open']>>['page'];

/**
 * A sender through the page: requests made in one turn of Node's event loop go to the page in one `evaluate`,
 * which sends them in order with the page's fetch; each answer becomes a Response again on the Node side.
 */
function pageSender(page: Page, traffic: { requests: number; roundTrips: number }) {
  let queue: { request: PageRequest; resolve(a: PageAnswer): void; reject(e: unknown): void }[] = [];
  const flush = async () => {
    const batch = queue;
    queue = [];
    traffic.roundTrips += 1;
    try {
      const answers = await page.evaluate(
        (b) =>
          (globalThis as unknown as { pckModel: { send(x: PageRequest[]): Promise<PageAnswer[]> } }).pckModel.send(b),
        batch.map((q) => q.request),
      );
      for (const [i, q] of batch.entries()) q.resolve(answers[i] as PageAnswer);
    } catch (error) {
      for (const q of batch) q.reject(error);
    }
  };
  return checkedSender(async (path, init) => {
    const answer = await new Promise<PageAnswer>((resolve, reject) => {
      traffic.requests += 1;
      if (queue.length === 0) setImmediate(() => void flush());
      queue.push({ request: { path, init }, resolve, reject });
    });
    return new Response(answerBody(answer), { status: answer.status, headers: new Headers(answer.headers) });
  });
}

/** Opens the page, hands its webhooks to `receiver`, and starts the mock under setupWorker in it. */
async function openPage(browser: TestBrowser, origin: string, receiver: Receiver) {
  const { page, problems } = await browser.open();
  await page.exposeFunction('pckReceive', async (webhook: { headers: Record<string, string>; body: string }) => {
    const answer = await receiver.handle(
      new Request('http://receiver/webhooks', { method: 'POST', headers: webhook.headers, body: webhook.body }),
    );
    return answer.status;
  });
  await page.goto(origin);
  await page.waitForFunction(() => 'pckModel' in globalThis);
  const config = { clients: modelMockOptions.clients, realTime: frozenRealTime };
  const started = await page.evaluate(
    (c) =>
      (globalThis as unknown as { pckModel: { start(x: unknown): Promise<{ settleDelayMs: number }> } }).pckModel.start(
        c,
      ),
    config,
  );
  return { page, problems, settleDelayMs: started.settleDelayMs };
}

/** Starts Chromium on a page that runs the mock under setupWorker; one browser and one page for every sequence. */
export async function browserWorkerDeployment(): Promise<BrowserWorkerDeployment> {
  const receiver = createReceiver();
  const html = '<!doctype html><meta charset="utf-8"><title>model</title><script type="module" src="/app.js"></script>';
  const [app, worker] = await Promise.all([
    bundlePage(),
    readFile(join(root, 'node_modules', 'msw', 'lib', 'mockServiceWorker.js')),
  ]);
  const server: PageServer = await startPageServer({
    '/': ['text/html', html],
    '/app.js': ['text/javascript', app],
    // msw's worker script, as `npx msw init` copies it into a public folder.
    '/mockServiceWorker.js': ['text/javascript', worker],
  });
  let browser: TestBrowser | undefined;
  try {
    browser = await launchBrowser();
    const opened = browser;
    const { page, problems, settleDelayMs } = await openPage(opened, server.origin, receiver);
    const traffic = { requests: 0, roundTrips: 0 };
    return {
      name: 'browser worker',
      send: pageSender(page, traffic),
      wallNow: () => frozenRealTime,
      frozenClock: true,
      settleDelayMs,
      receiver,
      traffic: () => ({ ...traffic }),
      problems: () => problems,
      async close() {
        await opened.close();
        await server.close();
      },
    };
  } catch (error) {
    await browser?.close();
    await server.close();
    throw error;
  }
}
