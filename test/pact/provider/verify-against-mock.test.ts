// Provider verification: every pact in contracts/ (both guides' HTTP pacts, the typed client's token lifecycle pact
// and the webhook message pact) is verified with the Pact Verifier against the kit's real mock server
// (`guide: 'both'`), over HTTP, through the kit's own `stateHandlers` and `messageProviders` (the same state logic
// outside teams reach through POST /__pck/provider-states and /__pck/messages). Each message is also checked against
// the webhook a receiver really got for its payment. A mismatch fails the run.

import { writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Verifier } from '@pact-foundation/pact';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../../src/mock/index.ts';
import {
  messageProviders,
  providerName,
  stateHandlers,
  type VerifierMessageProviders,
} from '../../../src/pact/index.ts';
import {
  committedPactFiles,
  consumers,
  contractsDir,
  freshPactDir,
  pactFileName,
  readPact,
} from '../support/pact-files.ts';

type MessageProvider = VerifierMessageProviders[string];

/** A webhook as the receiver got it. */
interface Received {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

let mock: MockServer;
let receiver: Server;
const received = new Map<string, Received>();
const counts = { messages: 0 };

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      received.set(String(body.uuid), { headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  mock = await startMockServer({
    port: 0,
    guide: 'both',
    webhookUrls: [`http://127.0.0.1:${port}/webhooks`],
    log: false,
  });
});

afterAll(async () => {
  await mock?.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

/**
 * The kit's message provider, checked against the receiver: the message it answers must be the webhook the receiver
 * really got for that payment, body and identifying headers alike.
 */
function deliveredWebhook(): MessageProvider {
  const provider = messageProviders(mock)['any description'] as MessageProvider;
  return async (descriptor) => {
    counts.messages++;
    const answer = (await provider(descriptor)) as {
      __pactMessageMetadata: Record<string, string>;
      message: { uuid: string };
    };
    const uuid = answer.message.uuid;
    await mock.control.waitForDelivery((d) => d.paymentUuid === uuid && d.state === 'delivered', { timeoutMs: 10_000 });
    const got = received.get(uuid);
    expect(got?.body).toEqual(answer.message);
    for (const [name, value] of Object.entries(answer.__pactMessageMetadata))
      expect(got?.headers[name.toLowerCase()], name).toBe(value);
    return answer;
  };
}

describe('provider verification against the mock (guide: both)', () => {
  it('verifies every interaction of every pact in contracts/', async () => {
    const files = await committedPactFiles();
    expect(files.length).toBeGreaterThan(0);
    /** Interaction description → its pact file and kind; descriptions are unique across the kit's pacts. */
    const owner = new Map<string, { file: string; kind: 'HTTP' | 'message' }>();
    const providers: Record<string, MessageProvider> = {};
    for (const file of files) {
      const pact = (await readPact(join(contractsDir, file))) as {
        interactions: { type: string; description: string }[];
      };
      for (const i of pact.interactions) {
        expect(owner.has(i.description), `description repeated: ${i.description}`).toBe(false);
        const kind = i.type === 'Asynchronous/Messages' ? 'message' : 'HTTP';
        owner.set(i.description, { file, kind });
        if (kind === 'message') providers[i.description] = deliveredWebhook();
      }
    }

    const output = await new Verifier({
      provider: providerName,
      providerBaseUrl: mock.url,
      pactUrls: files.map((f) => join(contractsDir, f)),
      stateHandlers: stateHandlers(mock),
      messageProviders: providers,
      logLevel: 'error',
      failIfNoPactsFound: true,
    }).verifyProvider();

    // The Verifier resolves with the core's JSON report only when every interaction passed; count what it reports.
    const report = JSON.parse(String(output)) as {
      errors: unknown[];
      interactionResults: { description: string; result: string }[];
    };
    expect(report.errors).toEqual([]);
    const verified = new Map<string, { HTTP: number; message: number }>(files.map((f) => [f, { HTTP: 0, message: 0 }]));
    for (const r of report.interactionResults) {
      const o = owner.get(r.description);
      expect(o, `reported interaction not in contracts/: ${r.description}`).toBeDefined();
      expect(r.result, r.description).toBe('OK');
      verified.get(o!.file)![o!.kind]++;
    }
    // Every consumer of the kit has its pact verified here, the typed client's included.
    for (const consumer of Object.values(consumers)) {
      const n = verified.get(pactFileName(consumer));
      expect((n?.HTTP ?? 0) + (n?.message ?? 0), consumer).toBeGreaterThan(0);
    }
    for (const [file, n] of verified)
      console.log(`[payment-contract-kit] verified ${file}: ${n.HTTP} HTTP interactions, ${n.message} messages`);
    console.log(
      `[payment-contract-kit] ${report.interactionResults.length} of ${owner.size} interactions verified against the mock (guide: both)`,
    );
    expect(report.interactionResults.map((r) => r.description).sort()).toEqual([...owner.keys()].sort());
    expect(counts.messages).toBe([...owner.values()].filter((o) => o.kind === 'message').length);
  }, 120_000);

  it('fails when the mock answers differently from a contract (negative control)', async () => {
    // The generate-token interaction, altered to expect status "ACCEPTED": the Verifier must reject it, or the
    // verification above proves nothing.
    const pact = (await readPact(join(contractsDir, pactFileName(consumers.current)))) as {
      interactions: { description: string; response: { body: { content: { status: string } } } }[];
    };
    const interaction = pact.interactions.find((i) => i.description === 'a request to generate a token pair');
    expect(interaction).toBeDefined();
    interaction!.response.body.content.status = 'ACCEPTED';
    const out = await freshPactDir();
    console.log('[payment-contract-kit] negative control: the verifier report below is expected to show FAILED.');
    try {
      const file = join(out.dir, 'altered.json');
      await writeFile(file, JSON.stringify({ ...pact, interactions: [interaction] }));
      const verification = new Verifier({
        provider: providerName,
        providerBaseUrl: mock.url,
        pactUrls: [file],
        stateHandlers: stateHandlers(mock),
        logLevel: 'error',
      }).verifyProvider();
      await expect(verification).rejects.toThrow();
    } finally {
      await out.remove();
    }
  }, 60_000);
});
