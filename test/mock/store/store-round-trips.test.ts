/**
 * Store round trips per request on a shared store (issue 23): a fee list costs none beyond its token's first check,
 * its journal entry goes with the next batch instead of holding its answer, and a journal entry a failed append lost
 * is logged and counted while its answer stands. Counted on a wrapper over the shared in-memory test store.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildNodeMockApp } from '../../../src/mock/app.ts';
import type { MockApp } from '../../../src/mock/control-types.ts';
import { serviceHeaders, servicePaths } from '../../../src/spec-names.ts';
import type { SandboxStore } from '../../support/mock-internals/store.ts';
import { sandboxClient } from '../../support/sandbox-client.ts';
import { createSharedMemorySandbox, type SharedMemorySandbox } from '../../support/shared-memory-store.ts';

type Counted = 'readAfter' | 'append' | 'claim' | 'release' | 'increment';

/** `store` with every call of the methods a request could make counted. */
function counting(store: SandboxStore) {
  const calls: Record<Counted, number> = { readAfter: 0, append: 0, claim: 0, release: 0, increment: 0 };
  const wrapped: SandboxStore = {
    ...store,
    kind: store.kind,
    shared: store.shared,
    open: () => store.open(),
    append: (records) => {
      calls.append++;
      return store.append(records);
    },
    readAfter: (position, limit) => {
      calls.readAfter++;
      return store.readAfter(position, limit);
    },
    claim: (key, owner, leaseMs) => {
      calls.claim++;
      return store.claim(key, owner, leaseMs);
    },
    release: (key, owner) => {
      calls.release++;
      return store.release(key, owner);
    },
    increment: (name) => {
      calls.increment++;
      return store.increment(name);
    },
    compact: (snapshot, upTo) => store.compact(snapshot, upTo),
    watch: store.watch ? (onAppend) => store.watch!(onAppend) : undefined,
    close: () => store.close(),
  };
  const reset = () => {
    for (const k of Object.keys(calls) as Counted[]) calls[k] = 0;
  };
  return { store: wrapped, calls, reset };
}

const feesQuery = 'query Fees($amount: Float!) { paymentGatewayFeesCalc(amount: $amount) { card_type fees } }';

describe('store round trips per request on a shared store', () => {
  let apps: MockApp[] = [];
  afterEach(async () => {
    for (const app of apps) await app.close();
    apps = [];
  });

  // A long follow interval: no background read or deferred append happens during the test unless a request makes it.
  async function replica(sandbox: SharedMemorySandbox, lines: string[] = []) {
    const counted = counting(sandbox.replica());
    const app = buildNodeMockApp(
      {
        log: (chunk) => lines.push(chunk),
        store: counted.store,
        assumptions: { store: { leaseMs: 3_000, followIntervalMs: 60_000 } },
      },
      {},
    );
    apps.push(app);
    await app.ready();
    const client = sandboxClient((r) => app.fetch(r));
    const fees = (token: string) =>
      client.call(
        'POST',
        servicePaths.graphql,
        { [serviceHeaders.jwt]: token },
        { query: feesQuery, variables: { amount: 100 } },
      );
    return { app, client, fees, ...counted };
  }

  it('a fee list makes no store call after its token’s first check; its journal entry goes with the next batch', async () => {
    const sandbox = createSharedMemorySandbox();
    const a = await replica(sandbox);
    const token = (await a.client.generate()).body.data.token as string;
    a.reset();
    expect((await a.fees(token)).status).toBe(200);
    // The first check of a token catches up once (a revocation elsewhere before it counts).
    expect(a.calls.readAfter).toBe(1);
    a.reset();
    for (let i = 0; i < 40; i++) expect((await a.fees(token)).status).toBe(200);
    const perRequest = Object.values(a.calls).reduce((x, y) => x + y, 0) / 40;
    console.log(`round trips: ${perRequest} store calls per fee list (40 after the token's first check)`);
    expect(a.calls).toEqual({ readAfter: 0, append: 0, claim: 0, release: 0, increment: 0 });
    expect((await a.app.control.requests()).filter((r) => r.operationName === 'Fees')).toHaveLength(41);
    // The next request with records of its own appends the 41 journal entries in its batch: one append.
    expect((await a.client.generate()).status).toBe(200);
    expect(a.calls.append).toBe(1);
    const journal = sandbox.records().filter((r) => r.t === 'jr');
    expect(journal.filter((r) => (r.a as unknown[])[5] === 'Fees')).toHaveLength(41);
    // Another replica lists them.
    const b = await replica(sandbox);
    expect((await b.app.control.requests()).filter((r) => r.operationName === 'Fees')).toHaveLength(41);
  });

  it('requests that read shared state still catch up; a token revoked elsewhere is refused at its first check', async () => {
    const sandbox = createSharedMemorySandbox();
    const a = await replica(sandbox);
    const b = await replica(sandbox);
    const token = (await a.client.generate()).body.data.token as string;
    expect((await b.client.revoke(token)).status).toBe(200);
    const refused = await a.fees(token);
    expect(refused.body.errors[0].extensions.reason).toBe('TOKEN_REVOKED');
    a.reset();
    expect((await a.client.pay((await a.client.generate()).body.data.token)).status).toBe(200);
    // generate-token and the payment each catch up first.
    expect(a.calls.readAfter).toBe(2);
  });

  it('a journal entry lost to a failed append is logged and counted; its answer stood', async () => {
    const sandbox = createSharedMemorySandbox();
    const lines: string[] = [];
    const a = await replica(sandbox, lines);
    const token = (await a.client.generate()).body.data.token as string;
    expect((await a.fees(token)).status).toBe(200);
    expect((await a.fees(token)).status).toBe(200);
    sandbox.setDown(true);
    // The store is down: the next request is refused (its catch-up fails), and the three journal entries still
    // buffered (generate-token's and both fee lists') are counted as lost, though all three were answered.
    expect((await a.client.generate()).status).toBe(503);
    a.app.flushLog();
    const lost = lines.join('').match(/(\d+) journal entries could not be written to the state store/);
    expect(lost?.[1]).toBe('3');
    sandbox.setDown(false);
  });
});
