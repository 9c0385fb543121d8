// Fuzzes the real CLI mock over HTTP with fast-check: random, mutated and schema-derived requests on every route,
// a few in flight on keep-alive connections. Every answer must be below 500, JSON, and in the spec's shape for its
// route; no connection may be reset; the mock answers a liveness request every 1,000 cases and is still running at
// the end. Then the secret scanner reads everything the mock produced: its log, every answer, the control API's
// payments, requests and deliveries, and every webhook the receiver got.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzSettings, fuzzTimeout } from './support/fuzz-settings.ts';
import { sentCvvs } from './support/json-arbitraries.ts';
import {
  createClient,
  type HttpOutcome,
  type MockProcess,
  startMockProcess,
  startReceiver,
} from './support/mock-process.ts';
import { isPageRequest, pageProblem, replyProblem } from './support/reply-shape.ts';
import { CURRENT_TOKEN, type FuzzCase, fuzzCase } from './support/request-arbitraries.ts';
import { type SecretFinding, scanForSecrets } from './support/secret-scanner.ts';

const settings = fuzzSettings();
const IN_FLIGHT = 4;
const LIVENESS_EVERY = 1_000;
const TOKEN_EVERY = 48;

let mock: MockProcess;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let client: ReturnType<typeof createClient>;

beforeAll(async () => {
  receiver = await startReceiver();
  mock = await startMockProcess([
    '--guide',
    'both',
    '--settle-delay',
    '0',
    '--seed',
    '7',
    '--webhook-url',
    receiver.url,
  ]);
  client = createClient(mock.url, IN_FLIGHT);
});
afterAll(async () => {
  client?.close();
  await mock?.stop();
  await receiver?.close();
});

/** Input of a case, short enough for a failure message, with long runs cut. */
function describeCase(c: FuzzCase, headers: Record<string, string>): string {
  const body =
    c.body === undefined ? '' : c.body.length > 300 ? `${c.body.slice(0, 300)}… (${c.body.length} chars)` : c.body;
  const shownHeaders = Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, k === 'x-jwt-token' ? `${v.slice(0, 8)}…` : v.slice(0, 60)]),
  );
  return `${c.method} ${c.path} headers=${JSON.stringify(shownHeaders)} body=${JSON.stringify(body)}`;
}

describe('mock fuzz over HTTP', () => {
  it(
    `answers ${settings.runs} random requests without a 5xx, a reset or a shape the spec does not allow`,
    async () => {
      const started = performance.now();
      const counts = { cases: 0, requests: 0, liveness: 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, resets: 0 };
      const violations = new Map<string, string>();
      const findings: { where: string; finding: SecretFinding }[] = [];
      let scannedTexts = 0;
      let scannedBytes = 0;
      const scan = (where: string, text: string) => {
        scannedTexts++;
        scannedBytes += text.length;
        for (const finding of scanForSecrets(text, { cvvs: sentCvvs })) findings.push({ where, finding });
      };
      const control = async (method: string, path: string, body?: unknown): Promise<HttpOutcome> => {
        counts.requests++;
        const out = await client.send(
          method,
          path,
          { 'content-type': 'application/json' },
          body === undefined ? undefined : JSON.stringify(body),
        );
        if (out.ok) scan(`${method} ${path}`, out.body);
        return out;
      };
      const issueToken = async (): Promise<string> => {
        const out = await control('POST', '/__pck/tokens', { clientId: 'test-client' });
        if (!out.ok || out.status !== 200)
          throw new Error(
            `could not issue a token: ${JSON.stringify(out)}${mock.exited() ? `\n${deathReport()}` : ''}`,
          );
        return JSON.parse(out.body).data.token;
      };
      const snapshotControlApi = async () => {
        // The largest page of each list (they are paged since issue 27).
        for (const path of ['/__pck/payments', '/__pck/requests', '/__pck/deliveries'])
          await control('GET', `${path}?limit=500`);
      };
      // The last cases sent, to name the input when the process dies.
      const recent: string[] = [];
      const deathReport = () =>
        [
          `the mock process exited after ${counts.cases} cases: ${JSON.stringify(mock.exited())}`,
          `its log ends with:\n${mock.stderr().slice(-1_500)}`,
          `last cases sent:\n${recent.map((r) => `  ${r}`).join('\n')}`,
          `invariants broken before:\n${[...violations].map(([k, v]) => `  ${k}\n    ${v}`).join('\n')}`,
        ].join('\n');
      const violate = (label: string, problem: string, input: string, reply: string) => {
        const key = `${label}: ${problem}`;
        if (!violations.has(key)) violations.set(key, `${input}\n    -> ${reply.slice(0, 400)}`);
      };

      const profile: Record<string, [number, number]> = {};
      let token = await issueToken();
      // A pool with IN_FLIGHT requests on the wire: each property run adds one case and waits only when the pool is
      // full, so one slow answer does not hold the others back.
      const inFlight = new Set<Promise<void>>();
      // Messages the fuzz asked fail-next to answer with, as the mock will decode them. Noted before sending: with
      // requests in flight, an injected answer can arrive before the fail-next request's own answer.
      const injectedMessages = new Set<string>();
      const noteInjectedMessage = (c: FuzzCase) => {
        if (c.path !== '/__pck/fail-next' || c.body === undefined) return;
        try {
          const sent: unknown = JSON.parse(Buffer.from(c.body, c.encoding ?? 'utf8').toString('utf8'));
          const message = (sent as { message?: unknown } | null)?.message;
          if (typeof message === 'string') injectedMessages.add(message);
        } catch {
          // Not JSON: the mock refuses it, so it injects nothing.
        }
      };
      const sendCase = async (c: FuzzCase) => {
        const headers = Object.fromEntries(
          Object.entries(c.headers).map(([k, v]) => [k, v.replace(CURRENT_TOKEN, token)]),
        );
        counts.requests++;
        noteInjectedMessage(c);
        recent.push(describeCase(c, headers).slice(0, 700));
        if (recent.length > 12) recent.shift();
        const t0 = performance.now();
        const out = await client.send(c.method, c.path, headers, c.body, c.encoding);
        if (process.env.PCK_FUZZ_PROFILE) {
          const p = profile[c.label] ?? [0, 0];
          profile[c.label] = [p[0] + 1, p[1] + performance.now() - t0];
        }
        if (!out.ok) {
          counts.resets++;
          violate(c.label, `transport error ${out.error}`, describeCase(c, headers), '');
          return;
        }
        const statusClass = `${Math.floor(out.status / 100)}xx` as '2xx';
        counts[statusClass] = (counts[statusClass] ?? 0) + 1;
        scan(`answer to ${c.label}`, out.body);
        // GraphiQL's page is HTML by design (src/mock/internal/ui); every other answer is JSON in the spec's shape.
        const problem = isPageRequest(c.method, c.path, headers)
          ? pageProblem(out.status, out.contentType)
          : replyProblem(c.kind, c.method, out.status, out.contentType, out.body, injectedMessages);
        if (problem) violate(c.label, problem, describeCase(c, headers), `${out.status} ${out.body}`);
      };
      const drain = () => Promise.all(inFlight);
      await fc.assert(
        fc.asyncProperty(fuzzCase, async (c) => {
          if (mock.exited()) throw new Error(deathReport());
          const sent = sendCase(c).finally(() => inFlight.delete(sent));
          inFlight.add(sent);
          if (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
          counts.cases++;
          if (counts.cases % LIVENESS_EVERY === 0) {
            await drain();
            const health = await control('GET', '/__pck/health');
            const alive = health.ok && health.status === 200 && JSON.parse(health.body).ok === true;
            if (!alive)
              throw new Error(
                `liveness check after ${counts.cases} cases failed: ${JSON.stringify(health)}${mock.exited() ? `\n${deathReport()}` : ''}`,
              );
            counts.liveness++;
            await snapshotControlApi();
          }
          if (counts.cases % TOKEN_EVERY === 0) token = await issueToken();
        }),
        { seed: settings.seed, numRuns: settings.runs, endOnFailure: true },
      );
      await drain();
      const fuzzSeconds = (performance.now() - started) / 1000;
      if (process.env.PCK_FUZZ_PROFILE)
        console.info(
          Object.entries(profile)
            .sort((a, b) => b[1][1] - a[1][1])
            .map(([k, [n, ms]]) => `${k}: n=${n} ${ms.toFixed(0)}ms`)
            .join('\n'),
        );

      // Let deliveries of the payments made finish, then read everything the mock kept. Each check is one request
      // the mock answers from its own state (the receiver answers at once), so the wait ends with the deliveries,
      // however long a loaded machine takes; no timer is involved.
      const busy = async () => {
        const out = await control('GET', '/__pck/deliveries?limit=1');
        // The answer's counters cover every delivery kept, not only the page.
        const byState = out.ok ? (JSON.parse(out.body).counts.byState as Record<string, number>) : {};
        return (byState.queued ?? 0) + (byState.sending ?? 0) > 0;
      };
      while (await busy());
      await snapshotControlApi();
      const alive = mock.exited() === undefined;
      await mock.stop();
      scan('mock standard error', mock.stderr());
      for (const body of receiver.bodies) scan('webhook body', body);

      console.info(
        `mock fuzz: cases=${counts.cases} requests=${counts.requests} 2xx=${counts['2xx']} 3xx=${counts['3xx']} ` +
          `4xx=${counts['4xx']} 5xx=${counts['5xx']} resets=${counts.resets} liveness=${counts.liveness} ` +
          `webhooks=${receiver.bodies.length} seed=${settings.seed}${settings.randomSeed ? ' (random)' : ''} ` +
          `time=${fuzzSeconds.toFixed(1)}s`,
      );
      console.info(
        `secret scan: texts=${scannedTexts} bytes=${scannedBytes} (log, answers, control API, webhooks) found=${findings.length}`,
      );
      const report = [...violations].map(([k, v]) => `  ${k}\n    ${v}`).join('\n');
      expect.soft(alive, 'the mock process is still running after the fuzz').toBe(true);
      // The log was captured (and so scanned): it holds a line per request.
      expect.soft(mock.stderr()).toContain('POST /graphql');
      expect.soft(violations.size, `invariants broken:\n${report}`).toBe(0);
      expect.soft(counts['5xx']).toBe(0);
      expect.soft(counts.resets).toBe(0);
      // One line per place and kind, so a leak that repeats on every answer does not hide the others.
      const leaks = new Map<string, string>();
      for (const f of findings) {
        const key = `${f.where}: ${f.finding.kind}`;
        if (!leaks.has(key))
          leaks.set(
            key,
            `${key} (${findings.filter((o) => `${o.where}: ${o.finding.kind}` === key).length}x), e.g. ${f.finding.excerpt}`,
          );
      }
      expect.soft([...leaks.values()]).toEqual([]);
      expect.soft(counts.liveness).toBe(Math.floor(counts.cases / LIVENESS_EVERY));
      // Valid payments went through, so the webhook path was scanned too.
      expect.soft(receiver.bodies.length).toBeGreaterThan(0);
    },
    fuzzTimeout(settings.runs, 15),
  );
});
