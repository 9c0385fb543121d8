// Fuzzes `payment-contract-kit webhook send` in process (its run(argv, io)) with hostile input: --metadata nested
// thousands of levels, huge, with duplicate keys, __proto__, lone surrogates or numbers such as 1e400; odd amounts,
// uuids, client ids and signing keys; and a receiver (on port 0, in this process) answering with hostile statuses and
// bodies. It must exit 0, 1 or 2 with a line, never throw, never overflow the stack, never leave a promise rejected.
// Unit tier: no child process.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { run } from '../../src/cli/commands/webhook-send.ts';
import { entryTally, expectNoFailures, shortInput } from './support/entry-outcomes.ts';
import { fuzzSettings, fuzzTimeout } from './support/fuzz-settings.ts';
import { oddValue } from './support/hostile-bodies.ts';
import { hostileString, hostileValue, jsonText, toJsonText } from './support/json-arbitraries.ts';

const settings = fuzzSettings(process.env, 150);
const tally = entryTally('webhook send');
let server: Server;
let url: string;
// What the receiver answers next: set by each case before it runs the command.
let answer = { status: 204, body: '' };

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
);

const text = (a: fc.Arbitrary<unknown>) => a.map((v) => (typeof v === 'string' ? v : toJsonText(v)));
const flag = (name: string, value: fc.Arbitrary<string>) => value.map((v) => [`--${name}`, v]);
const argvArb = fc
  .tuple(
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('{"order":"A-1"}', '{"cart":[1,2,{"sku":"x"}]}', '{}') },
      { weight: 4, arbitrary: oddValue.map((v) => `{"order":${toJsonText(v)}}`) },
      { weight: 2, arbitrary: oddValue.map(toJsonText) },
      { weight: 2, arbitrary: jsonText(hostileValue) },
      {
        weight: 1,
        arbitrary: fc.constantFrom('{"a":1,"a":2}', '{"__proto__":{"x":1}}', '{"a":"\\ud800"}', '{"a":1e400}', ''),
      },
    ),
    fc.option(
      flag(
        'amount',
        fc.oneof(
          text(hostileString),
          fc.constantFrom('1e400', '-0', 'NaN', '0x10', '1e-400'),
          fc.constantFrom('42.5', '1e6', '100'),
        ),
      ),
      {
        nil: undefined,
      },
    ),
    fc.option(flag('uuid', text(hostileString)), { nil: undefined, freq: 2 }),
    fc.option(flag('client-id', text(hostileString)), { nil: undefined, freq: 2 }),
    fc.option(flag('signing-key', text(hostileString)), { nil: undefined, freq: 2 }),
    fc.option(flag('card-type', fc.constantFrom('visa', 'visa', 'visa', 'VISA', '', '__proto__', 'constructor')), {
      nil: undefined,
      freq: 2,
    }),
    fc.option(flag('status', fc.constantFrom('success', 'failure', 'success', 'failure', '', 'SUCCESS')), {
      nil: undefined,
      freq: 2,
    }),
  )
  .map(([metadata, ...rest]) => [
    '--url',
    url,
    '--timeout',
    '5000',
    '--metadata',
    metadata,
    ...rest.flatMap((f) => f ?? []),
  ]);
const answerArb = fc.record({
  status: fc.constantFrom(200, 204, 301, 400, 410, 500, 503, 599),
  body: fc.oneof(fc.constant(''), text(oddValue), fc.string({ maxLength: 50 })),
});

const sink = () => {
  let t = '';
  return { write: (s: string) => (t += s), text: () => t };
};

describe('webhook send fuzz', () => {
  it(
    `sends ${settings.runs} webhooks from hostile flags to a hostile receiver without a throw`,
    async () => {
      await fc.assert(
        fc.asyncProperty(argvArb, answerArb, async (argv, next) => {
          tally.cases++;
          answer = next;
          const stdout = sink();
          const stderr = sink();
          const input = shortInput(JSON.stringify(argv.slice(4)));
          try {
            const code = await run(argv, { stdout, stderr });
            tally.status(`exit${code}`);
            if (![0, 1, 2].includes(code)) tally.problem(`exit ${code}`, input);
            if (stdout.text() === '' && stderr.text() === '') tally.problem(`exit ${code} without a word`, input);
            if (/Maximum call stack|RangeError/.test(stdout.text() + stderr.text()))
              tally.problem('a stack overflow reported as a result', input);
          } catch (error) {
            tally.crash(error, input);
          }
        }),
        { seed: settings.seed, numRuns: settings.runs, endOnFailure: true },
      );
      console.info(tally.summary(settings));
      expectNoFailures(tally);
    },
    fuzzTimeout(settings.runs, 100),
  );
});
