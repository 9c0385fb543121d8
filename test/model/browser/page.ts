// The page of the browser-worker deployment (browser-deployment.ts bundles it with esbuild from the built kit):
// the kit's msw handlers under setupWorker, every request of the model's commands sent by the page's own fetch
// (so the service worker answers it), and each webhook handed to the Node-side receiver. It runs in Chromium, so
// it uses only what a browser has; the Node side passes it the mock's options, since nothing of Node is bundled.
import { setupWorker } from 'msw/browser';
import { createMockHandlers } from 'payment-contract-kit/msw';

/** What the Node side passes to {@link start}. */
interface PageConfig {
  readonly clients: readonly { clientId: string; apiKey: string }[];
  readonly realTime: number;
}

/** One request of a batch: the path (and query) on the mock's base URL, and fetch's init. */
interface PageRequest {
  readonly path: string;
  readonly init: { method: string; headers: Record<string, string>; body?: string };
}

/** One answer of a batch, as plain JSON crosses back to Node. */
interface PageAnswer {
  readonly status: number;
  readonly headers: [string, string][];
  readonly text: string;
}

const page = globalThis as unknown as {
  pckModel: {
    start(config: PageConfig): Promise<{ settleDelayMs: number }>;
    send(batch: PageRequest[]): Promise<PageAnswer[]>;
  };
  // Exposed by the Node side (Playwright's exposeFunction): the receiver's status for one webhook attempt.
  pckReceive(webhook: { headers: Record<string, string>; body: string }): Promise<number>;
};

let baseUrl = '';

page.pckModel = {
  async start(config) {
    const mock = createMockHandlers({
      clients: config.clients.map((c) => ({ clientId: c.clientId, apiKey: c.apiKey })),
      log: false,
      // Real time stands still in the page, as in the other frozen deployments: only the control API moves it.
      realNow: () => config.realTime,
      webhookReceivers: [
        async (request) => {
          const headers: Record<string, string> = {};
          request.headers.forEach((value, name) => {
            headers[name] = value;
          });
          const status = await page.pckReceive({ headers, body: await request.text() });
          return new Response(null, { status });
        },
      ],
    });
    baseUrl = mock.baseUrl;
    await setupWorker(...mock.handlers).start({ onUnhandledRequest: 'error', quiet: true });
    await mock.ready();
    return { settleDelayMs: mock.control.assumptions.settleDelayMs };
  },
  // In order, one after the other: a batch answers as the same requests sent one at a time would.
  async send(batch) {
    const answers: PageAnswer[] = [];
    for (const request of batch) {
      const response = await fetch(`${baseUrl}${request.path}`, request.init);
      const headers: [string, string][] = [];
      response.headers.forEach((value, name) => {
        headers.push([name, value]);
      });
      answers.push({ status: response.status, headers, text: await response.text() });
    }
    return answers;
  },
};
