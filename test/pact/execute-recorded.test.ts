// executeRecorded (test support): it must hand pact-js's verdict through unchanged and never wait for a request the
// mock server did not answer, so a consumer that sends nothing or the wrong request still fails, and promptly.
import { PactV4 } from '@pact-foundation/pact';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeRecorded } from './support/execute-recorded.ts';
import { freshPactDir } from './support/pact-files.ts';

let out: Awaited<ReturnType<typeof freshPactDir>>;
let pact: PactV4;
beforeAll(async () => {
  out = await freshPactDir();
  pact = new PactV4({ consumer: 'unit-consumer', provider: 'unit-provider', dir: out.dir, logLevel: 'error' });
});
afterAll(() => out.remove());

const expectingPost = (description: string) =>
  pact
    .addInteraction()
    .uponReceiving(description)
    .withRequest('POST', '/x')
    .willRespondWith(500, (b) => b.jsonBody({ status: 'ERROR' }));

describe('executeRecorded', () => {
  it("returns the exercise's value when the request matched", async () => {
    const status = await executeRecorded(expectingPost('a matching request'), async (server) => {
      const response = await fetch(`${server.url}/x`, { method: 'POST' });
      await response.text();
      return response.status;
    });
    expect(status).toBe(500);
  });

  it('fails with "not received" when the consumer sends nothing', async () => {
    await expect(executeRecorded(expectingPost('a request never sent'), async () => 'nothing sent')).rejects.toThrow(
      'expected but not received',
    );
  });

  it('fails with the unexpected request when the consumer sends another one', async () => {
    const run = executeRecorded(expectingPost('a request sent to the wrong path'), async (server) => {
      await (await fetch(`${server.url}/y`, { method: 'POST' })).text();
    });
    await expect(run).rejects.toThrow('/y');
  });

  it("rethrows the exercise's own error", async () => {
    const run = executeRecorded(expectingPost('a request whose answer the consumer rejects'), async (server) => {
      await (await fetch(`${server.url}/x`, { method: 'POST' })).text();
      throw new Error('the consumer rejected the answer');
    });
    await expect(run).rejects.toThrow('the consumer rejected the answer');
  });
});
