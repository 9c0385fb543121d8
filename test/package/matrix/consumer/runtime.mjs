// The run-time half of a compatibility-matrix cell (scripts/test-matrix.ts), as a consumer's plain script: it
// runs in a fresh project that installed the packed kit beside one combination of graphql, Pact, msw and Node, and
// prints one JSON line per check ({ check, ok, detail }). Exits non-zero when a check failed.
//
//   node runtime.mjs
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildSchema, version as graphqlVersion, parse, print } from 'graphql';

const require = createRequire(import.meta.url);
const kitDir = join('node_modules', 'payment-contract-kit');
const installed = (name) => {
  try {
    return JSON.parse(readFileSync(join('node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
};
const credentials = { clientId: 'test-client', apiKey: 'test-api-key' };
let failed = false;

/** Runs one check; a thrown error or a false `ok` fails it. Prints one JSON line either way. */
async function check(name, body) {
  const started = performance.now();
  let line;
  try {
    const detail = await body();
    line = { check: name, ok: true, detail };
  } catch (error) {
    line = { check: name, ok: false, detail: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  line.seconds = Number(((performance.now() - started) / 1000).toFixed(1));
  failed ||= !line.ok;
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

function expectEqual(actual, expected, what) {
  if (JSON.stringify(actual) !== JSON.stringify(expected))
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

async function token(baseUrl) {
  const answer = await fetch(`${baseUrl}/api/v2/accounting/token/generate-token`, {
    method: 'POST',
    headers: { 'x-client-id': credentials.clientId, 'x-api-key': credentials.apiKey },
  });
  expectEqual(answer.status, 200, 'token status');
  return (await answer.json()).data.token;
}

async function graphqlPost(baseUrl, jwt, query) {
  const answer = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-jwt-token': jwt },
    body: JSON.stringify({ query }),
  });
  return answer.json();
}

const visaAt42 = (fees) => fees.find((f) => f.card_type === 'visa')?.fees;

/**
 * Waits until the Pact mock server on `port` has recorded the request it answered. pact-core before 20.1 (Pact 16)
 * answers first and records the match afterwards, so on a loaded machine executeTest can report an answered request
 * as "expected but not received" (pact-reference issue 535; the kit's own tests wait the same way,
 * test/pact/support/execute-recorded.ts). With Pact 17 the first look already sees the record.
 */
async function recorded(port) {
  const { getFfiLib } = await import('@pact-foundation/pact-core');
  const onlyMissing = () => {
    const entries = JSON.parse(getFfiLib().pactffiMockServerMismatches(port));
    return entries.length > 0 && entries.every((e) => e.type === 'missing-request');
  };
  while (onlyMissing()) await new Promise((resolve) => setTimeout(resolve, 1));
}

// The majors this cell claims (PCK_MATRIX_EXPECT, from scripts/test-matrix.ts) are the ones installed, and the kit
// has no graphql of its own: the library entries import the consumer's.
await check('versions', async () => {
  const found = {
    node: process.versions.node.split('.')[0],
    graphql: graphqlVersion.split('.')[0],
    pact: installed('@pact-foundation/pact')?.split('.')[0],
    msw: installed('msw')?.split('.')[0],
  };
  const expected = JSON.parse(process.env.PCK_MATRIX_EXPECT ?? '{}');
  for (const [name, major] of Object.entries(expected)) expectEqual(found[name], major, `${name} major`);
  if (existsSync(join(kitDir, 'node_modules', 'graphql'))) throw new Error('the kit installed a graphql of its own');
  return {
    graphql: graphqlVersion,
    pact: installed('@pact-foundation/pact'),
    msw: installed('msw'),
    node: process.versions.node,
  };
});

await check('mock from code: fees, the GraphQL limits (graphql-armor) and errors on the consumer graphql', async () => {
  const { startMockServer } = await import('payment-contract-kit/mock');
  const { createPaymentClient } = await import('payment-contract-kit/client');
  const mock = await startMockServer({ port: 0, log: false });
  try {
    const client = createPaymentClient({ baseUrl: mock.url, ...credentials });
    const fees = await client.feesFor(42.5);
    await client.close();
    expectEqual(visaAt42(fees), 0.94, 'visa fee for 42.5');
    const jwt = await token(mock.url);
    // 51 aliases: one over the default limit of 50, refused by graphql-armor's rule running on this graphql.
    const aliases = Array.from({ length: 51 }, (_, i) => `a${i}: paymentGatewayFeesCalc(amount: 1) { fees }`).join(' ');
    const refused = await graphqlPost(mock.url, jwt, `query { ${aliases} }`);
    if (!/51 aliases/.test(refused.errors?.[0]?.message ?? '')) throw new Error(`aliases: ${JSON.stringify(refused)}`);
    const unknown = await graphqlPost(mock.url, jwt, 'query { nope }');
    if (typeof unknown.errors?.[0]?.extensions?.reason !== 'string') throw new Error(JSON.stringify(unknown));
    return { visa: visaAt42(fees), aliasLimit: refused.errors[0].message.slice(0, 60) };
  } finally {
    await mock.close();
  }
});

// graphql-jit (the kit's dependency) compiles on whichever graphql the consumer installed; the mock falls back to
// graphql-js silently when it cannot, so compile every shipped operation against the shipped schema here.
await check('graphql-jit compiles the shipped operations on the consumer graphql', async () => {
  const { compileQuery, isCompiledQuery } = await import(require.resolve('graphql-jit', { paths: [kitDir] }));
  const schema = buildSchema(readFileSync(join(kitDir, 'schema.graphql'), 'utf8'));
  // The current guide's operations (operations/current) are the ones schema.graphql serves.
  const dir = join(kitDir, 'operations', 'current');
  const files = readdirSync(dir).filter((f) => f.endsWith('.graphql'));
  const compiled = [];
  for (const file of files) {
    const document = parse(readFileSync(join(dir, file), 'utf8'));
    const result = compileQuery(schema, document, undefined, { customJSONSerializer: true });
    if (!isCompiledQuery(result)) throw new Error(`${file}: ${JSON.stringify(result)}`);
    compiled.push(file);
  }
  if (compiled.length === 0) throw new Error(`no operation compiled from ${files.join(', ')}`);
  return { compiled };
});

await check('msw handlers: token and fee list through fetch, other origins refused', async () => {
  const { createMockHandlers } = await import('payment-contract-kit/msw');
  const { setupServer } = await import('msw/node');
  const mock = createMockHandlers({ log: false });
  const server = setupServer(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const jwt = await token(mock.baseUrl);
    const answer = await graphqlPost(
      mock.baseUrl,
      jwt,
      'query { paymentGatewayFeesCalc(amount: 42.5) { card_type fees } }',
    );
    expectEqual(visaAt42(answer.data.paymentGatewayFeesCalc), 0.94, 'visa fee through msw');
    const other = await fetch('http://elsewhere.invalid/').then(
      () => 'answered',
      () => 'refused',
    );
    expectEqual(other, 'refused', 'unhandled request');
    return { msw: installed('msw') };
  } finally {
    server.close();
    await mock.close();
  }
});

/** Starts the CLI mock (its own bundled GraphQL stack) on a free port; answers its URL and a stop function. */
function startCliMock() {
  const child = spawn(process.execPath, [join(kitDir, 'dist/cli/index.js'), 'mock', '--port', '0', '--guide', 'both'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(output);
      if (found) resolve(found[1]);
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('exit', (code) => reject(new Error(`the CLI mock exited (${code}) before listening:\n${output}`)));
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  return { url, stop };
}

const cli = startCliMock();
const cliUrl = await cli.url;
try {
  await check('mock from the CLI: fee list over GraphQL', async () => {
    const answer = await graphqlPost(
      cliUrl,
      await token(cliUrl),
      'query { paymentGatewayFeesCalc(amount: 42.5) { card_type fees } }',
    );
    expectEqual(visaAt42(answer.data.paymentGatewayFeesCalc), 0.94, 'visa fee from the CLI mock');
    return { url: cliUrl };
  });

  await check('typed documents with Apollo Client', async () => {
    const { ApolloClient, HttpLink, InMemoryCache } = await import('@apollo/client');
    const { PaymentGatewayFeesCalcDocument } = await import('payment-contract-kit');
    const client = new ApolloClient({
      link: new HttpLink({ uri: `${cliUrl}/graphql`, headers: { 'x-jwt-token': await token(cliUrl) } }),
      cache: new InMemoryCache(),
    });
    const { data } = await client.query({ query: PaymentGatewayFeesCalcDocument, variables: { amount: 42.5 } });
    expectEqual(visaAt42(data.paymentGatewayFeesCalc), 0.94, 'visa fee through Apollo Client');
    return { apollo: installed('@apollo/client') };
  });

  if (installed('graphql-request') !== undefined) {
    await check('typed documents with graphql-request', async () => {
      const { GraphQLClient } = await import('graphql-request');
      const { PaymentGatewayFeesCalcDocument } = await import('payment-contract-kit');
      const client = new GraphQLClient(`${cliUrl}/graphql`, { headers: { 'x-jwt-token': await token(cliUrl) } });
      const data = await client.request(PaymentGatewayFeesCalcDocument, { amount: 42.5 });
      expectEqual(visaAt42(data.paymentGatewayFeesCalc), 0.94, 'visa fee through graphql-request');
      return { graphqlRequest: installed('graphql-request') };
    });
  }

  if (installed('@pact-foundation/pact') !== undefined) {
    const { MatchersV3, PactV4, Verifier } = await import('@pact-foundation/pact');
    const kitPact = await import('payment-contract-kit/pact');
    const { PaymentGatewayFeesCalcDocument } = await import('payment-contract-kit');
    const pactDir = join(process.cwd(), 'pacts');
    rmSync(pactDir, { recursive: true, force: true });
    mkdirSync(pactDir);

    await check('Pact consumer builders (withTokenRequest, withGraphqlRequest) write a pact', async () => {
      const {
        feeEntry,
        graphqlData,
        providerName,
        providerStates,
        tokenPairResponse,
        withGraphqlRequest,
        withTokenRequest,
      } = kitPact;
      const pact = new PactV4({ consumer: 'matrix-consumer', provider: providerName, dir: pactDir, logLevel: 'error' });
      await withTokenRequest(
        pact
          .addInteraction()
          .given(providerStates.clientCredentials, { clientId: 'test-client' })
          .uponReceiving('a token request'),
        'generate',
      )
        .willRespondWith(200, (b) => b.jsonBody(tokenPairResponse()))
        .executeTest(async (server) => {
          const answer = await fetch(`${server.url}/api/v2/accounting/token/generate-token`, {
            method: 'POST',
            headers: {
              'x-client-id': 'test-client',
              'x-api-key': 'test-api-key',
              'content-type': 'application/json',
              accept: 'application/json',
            },
          });
          expectEqual(answer.status, 200, 'token from the Pact mock server');
          await recorded(server.port);
        });
      await withGraphqlRequest(
        pact
          .addGraphQLInteraction()
          .given(providerStates.accessToken, { clientId: 'test-client' })
          .uponReceiving('a fee list request'),
        PaymentGatewayFeesCalcDocument,
        { variables: { amount: 100 } },
      )
        .willRespondWith(200, (b) =>
          b.jsonBody(
            graphqlData(PaymentGatewayFeesCalcDocument, {
              paymentGatewayFeesCalc: MatchersV3.eachLike(feeEntry({ amount: 100 })),
            }),
          ),
        )
        .executeTest(async (server) => {
          const answer = await fetch(`${server.url}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json', 'x-jwt-token': 'any' },
            body: JSON.stringify({
              query: print(PaymentGatewayFeesCalcDocument),
              variables: { amount: 100 },
              operationName: PaymentGatewayFeesCalcDocument.definitions[0].name.value,
            }),
          });
          const fees = (await answer.json()).data?.paymentGatewayFeesCalc;
          await recorded(server.port);
          if (!Array.isArray(fees) || fees.length === 0) throw new Error(`no fees: ${JSON.stringify(fees)}`);
        });
      return { pacts: readdirSync(pactDir) };
    });

    await check(
      'Pact provider states over HTTP: this pact and the shipped contracts verified against the CLI mock',
      async () => {
        const contracts = readdirSync(join(kitDir, 'contracts')).map((f) =>
          join(process.cwd(), kitDir, 'contracts', f),
        );
        const own = readdirSync(pactDir).map((f) => join(pactDir, f));
        await new Verifier({
          provider: kitPact.providerName,
          providerBaseUrl: cliUrl,
          pactUrls: [...own, ...contracts],
          stateHandlers: kitPact.stateHandlers(cliUrl),
          messageProviders: kitPact.messageProviders(cliUrl),
          logLevel: 'error',
        }).verifyProvider();
        return { verified: [...own, ...contracts].map((f) => f.split('/').pop()) };
      },
    );

    // `verify` checks pacts statically and replays them through the consumer's Pact verifier (dynamic half).
    await check('verify: the CLI checks this pact and the shipped contracts, static and dynamic', async () => {
      const cliPath = join(kitDir, 'dist/cli/index.js');
      const run = spawnSync(
        process.execPath,
        [cliPath, 'verify', pactDir, join(kitDir, 'contracts'), '--format', 'json'],
        {
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      if (run.status !== 0)
        throw new Error(`verify exited ${run.status}:\n${run.stdout.slice(0, 3000)}\n${run.stderr.slice(-3000)}`);
      const { summary } = JSON.parse(run.stdout);
      return summary;
    });
  }
} finally {
  await cli.stop();
}
process.exit(failed ? 1 : 0);
