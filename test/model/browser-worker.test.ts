// The reference model against the kit's msw handlers under setupWorker in Chromium: one browser and one page for
// every sequence (each starts with the control API's reset). Integration tier (Chromium and esbuild's service).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserWorkerDeployment, browserWorkerDeployment } from './browser-deployment.ts';
import { runModel } from './run-model.ts';

let deployment: BrowserWorkerDeployment;

beforeAll(async () => {
  deployment = await browserWorkerDeployment();
}, 120_000);

afterAll(async () => {
  await deployment?.close();
});

describe('the model against the msw handlers in a browser worker', () => {
  it('sends requests made in one turn in one page round trip, answered in order by the service worker', async () => {
    const before = deployment.traffic();
    const [clock, unknown] = await Promise.all([
      deployment.send({ method: 'GET', path: '/__pck/clock' }),
      deployment.send({ method: 'POST', path: '/__pck/payments/settle', json: { uuid: 'no-such-payment' } }),
    ]);
    expect(deployment.traffic()).toEqual({ requests: before.requests + 2, roundTrips: before.roundTrips + 1 });
    expect(clock.status).toBe(200);
    expect(clock.body).toMatchObject({ now: expect.any(Number) });
    expect(unknown.status).not.toBe(200);
  });

  it('agrees on every answer of 8 random sequences (seed 38)', async () => {
    const summary = await runModel(deployment, { numRuns: 8, seed: 38, maxCommands: 25 });
    expect(summary.sequences).toBe(8);
    expect(summary.payments).toBeGreaterThan(0);
    console.log(JSON.stringify({ browserWorker: { ...summary, ...deployment.traffic() } }));
  }, 90_000);

  it('ran without a console error or an uncaught exception in the page, but the 4xx answers it asked for', () => {
    // Chromium logs every 4xx the page's fetch gets as a console error: the commands' deliberate mistakes.
    const asked = /^console: Failed to load resource: the server responded with a status of 4\d\d /;
    expect(deployment.problems().filter((p) => !asked.test(p))).toEqual([]);
  });
});
