// verifyDynamic: one good pact (the shipped webhook and legacy-guide contracts pass) and one bad pact (a wrong REST
// status and a webhook message expecting a field the mock never sends), each failure with its reason.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summarisePact, verifyDynamic } from '../../../src/pact/verify/dynamic.ts';
import { consumers, contractsDir, pactFileName } from '../support/pact-files.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pck-dynamic-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The parts of the shipped pacts this test alters. */
interface PactJson {
  interactions: {
    description: string;
    providerStates?: { name: string; params?: Record<string, unknown> }[];
    response: { status: number };
    contents: { content: Record<string, unknown> };
  }[];
}
const read = async (consumer: string) =>
  JSON.parse(await readFile(join(contractsDir, pactFileName(consumer)), 'utf8')) as PactJson;

describe('verifyDynamic', () => {
  it('passes a good pact and names the reason of each failure in a bad one', async () => {
    const good = join(contractsDir, pactFileName(consumers.legacy));
    const goodMessages = join(contractsDir, pactFileName(consumers.webhook));

    // Bad: the token pair answered with 201, and a message that expects `order_ref` the payload never has.
    const http = await read(consumers.current);
    const token = http.interactions.find((i) => i.description === 'a request to generate a token pair');
    if (!token) throw new Error('the current-guide pact lost its generate-token interaction');
    token.response.status = 201;
    const messages = await read(consumers.webhook);
    const success = messages.interactions.find((i) => i.description.includes('successful'));
    if (!success) throw new Error('the webhook pact lost its success message');
    success.contents.content.order_ref = 'INV-1001';
    const bad = join(dir, 'bad-http.json');
    const badMessages = join(dir, 'bad-messages.json');
    // And a fee list whose token comes from a state the mock does not know: the example token is refused.
    const fees = http.interactions.find((i) => i.description === 'a request for the fee list of an amount');
    if (!fees) throw new Error('the current-guide pact lost its fee list interaction');
    const unknownState = { ...structuredClone(fees), description: 'a fee list in a state nobody sets up' };
    unknownState.providerStates = [{ name: 'a unicorn holds the keys', params: { clientId: 'test-client' } }];
    await writeFile(bad, JSON.stringify({ ...http, interactions: [token, unknownState] }));
    await writeFile(badMessages, JSON.stringify({ ...messages, interactions: [success] }));
    const missing = join(dir, 'missing.json');

    const outcomes = await verifyDynamic({ pactFiles: [good, goodMessages, bad, badMessages, missing], guide: 'both' });

    const of = (file: string) => outcomes.filter((o) => o.file === file);
    const legacyCount = summarisePact(await read(consumers.legacy)).interactions.length;
    expect(of(good)).toHaveLength(legacyCount);
    expect(of(good).filter((o) => !o.ok)).toEqual([]);
    expect(of(goodMessages).map((o) => [o.kind, o.ok])).toEqual([
      ['message', true],
      ['message', true],
    ]);

    expect(of(bad)).toEqual([
      expect.objectContaining({
        consumer: consumers.current,
        provider: 'card-payment-service',
        interaction: 'a request to generate a token pair',
        kind: 'http',
        ok: false,
      }),
      expect.objectContaining({ interaction: 'a fee list in a state nobody sets up', ok: false }),
    ]);
    expect(of(bad)[1]?.reasons[0]).toMatch(/provider state "a unicorn holds the keys" is not one the mock sets up/);
    expect(of(bad)[0]?.reasons.join('\n')).toMatch(/201.*200|200.*201/);
    expect(of(badMessages)[0]?.ok).toBe(false);
    expect(of(badMessages)[0]?.reasons.join('\n')).toContain('order_ref');
    expect(of(missing)).toEqual([expect.objectContaining({ ok: false, interaction: '(file)' })]);
    expect(of(missing)[0]?.reasons[0]).toMatch(
      /^\[payment-contract-kit\] .*missing\.json is not a readable JSON pact file/,
    );
  }, 120_000);

  it('reads the interactions of V2, V3 message and V4 pacts', () => {
    expect(
      summarisePact({
        consumer: { name: 'c' },
        provider: { name: 'p' },
        interactions: [{ description: 'd', providerState: 's', request: {}, response: {} }],
      }),
    ).toEqual({ consumer: 'c', provider: 'p', interactions: [{ description: 'd', kind: 'http', states: ['s'] }] });
    expect(
      summarisePact({ consumer: { name: 'c' }, provider: { name: 'p' }, messages: [{ description: 'm' }] })
        .interactions,
    ).toEqual([{ description: 'm', kind: 'message', states: [] }]);
    expect(
      summarisePact({
        interactions: [{ type: 'Synchronous/HTTP', description: 'g', providerStates: [{ name: 'a' }, { name: 'b' }] }],
      }),
    ).toEqual({ consumer: '?', provider: '?', interactions: [{ description: 'g', kind: 'http', states: ['a', 'b'] }] });
  });
});
