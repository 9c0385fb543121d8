// A module web worker (no DOM, as in an edge runtime) running the browser build of payment-contract-kit/mock:
// bundled by esbuild from the packed tarball by browser-build.test.ts. It posts the flows' answers and what the
// Node-only functions say here.
import { createMockApp, startMockServer } from 'payment-contract-kit/mock';
import { runFlows } from './flows.ts';

const scope = globalThis as unknown as { location: { href: string }; postMessage(message: unknown): void };
const hookUrl = new URL('/hook', scope.location.href).href;

async function refusal(run: () => unknown): Promise<string> {
  try {
    await run();
    return 'no error';
  } catch (error) {
    return String(error);
  }
}

async function main() {
  const app = createMockApp({ log: false, seed: 'browser-build', webhookUrls: [hookUrl] });
  const flows = await runFlows(app, hookUrl);
  return {
    flows,
    startMockServer: await refusal(() => startMockServer({ port: 0 })),
    handle: await refusal(() => app.handle({} as never, {} as never)),
    fileStore: await refusal(() => createMockApp({ store: 'file:/tmp/sandbox.jsonl' })),
  };
}

main().then(
  (result) => scope.postMessage({ ok: true, result }),
  (error: unknown) => scope.postMessage({ ok: false, error: String(error) }),
);
