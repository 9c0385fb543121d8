/**
 * One mock replica on a test's Redis store, for the tests of what replicas share (tokens, clock, resets): a follow
 * interval far beyond any test, so what a replica sees of another's change it read from Redis on the request
 * itself; and `fees(token)`, a fee list's reason code (`ok`
 * when answered).
 *
 * @module
 */
import { buildNodeMockApp } from '../../src/mock/app.ts';
import type { MockOptions } from '../../src/mock/options.ts';
import { serviceHeaders, servicePaths } from '../../src/spec-names.ts';
import type { SandboxStore } from './mock-internals/store.ts';
import type { RedisSuite } from './redis-suite.ts';
import { sandboxClient } from './sandbox-client.ts';

const feesQuery = 'query Fees($amount: Float!) { paymentGatewayFeesCalc(amount: $amount) { card_type fees } }';

/** A replica on `store`, tracked by `suite` (closed in its teardown), ready to answer. */
export async function redisReplica(suite: RedisSuite, store: SandboxStore, options: Partial<MockOptions> = {}) {
  const app = buildNodeMockApp(
    {
      log: false,
      store,
      ...options,
      assumptions: { store: { leaseMs: 3_000, followIntervalMs: 600_000 }, ...options.assumptions },
    },
    {},
  );
  suite.track(app);
  await app.ready();
  const client = sandboxClient((r) => app.fetch(r));
  const fees = async (token: string) => {
    const answer = await client.call(
      'POST',
      servicePaths.graphql,
      { [serviceHeaders.jwt]: token },
      { query: feesQuery, variables: { amount: 100 } },
    );
    return answer.body?.errors?.[0]?.extensions?.reason ?? (answer.status === 200 ? 'ok' : `HTTP ${answer.status}`);
  };
  return { app, client, fees, store };
}

/** The types of the records in the sandbox's log under `prefix`, read with `suite`'s probe. */
export async function loggedTypes(suite: RedisSuite, prefix: string): Promise<string[]> {
  const entries = (await suite.probe.xrange(`${prefix}log`, '-', '+')) as [string, string[]][];
  return entries.map(([, fields]) => (JSON.parse(fields[1] ?? '{}') as { t: string }).t);
}
