// The core on the web platform, driven from Node: the same answers as on the Node platform (same seed, same token
// and payment ids), and what the browser build leaves out answered in the spec's shape.
import { afterAll, describe, expect, it } from 'vitest';
import { buildMockApp } from '../../src/mock/core-app.ts';
import { nodePlatform } from '../../src/mock/node-platform.ts';
import { webPlatform } from '../../src/mock/web-platform.ts';

const apps = [webPlatform, nodePlatform].map(
  (platform) => buildMockApp({ log: false, seed: 's', realNow: () => 1_900_000_000_000 }, { platform }).app,
);
afterAll(() => Promise.all(apps.map((a) => a.close())));

const generate = (app: (typeof apps)[number]) =>
  app.fetch(
    new Request('http://localhost:4010/api/v2/accounting/token/generate-token', {
      method: 'POST',
      headers: { 'x-client-id': 'test-client', 'x-api-key': 'test-api-key' },
    }),
  );

describe('the web platform', () => {
  it('issues the same token as the Node platform for the same seed and time, and accepts it', async () => {
    const [web, node] = await Promise.all(
      apps.map(async (a) => ((await (await generate(a)).json()) as { data: { token: string } }).data.token),
    );
    expect(web).toBe(node);
    const answer = await apps[0]!.fetch(
      new Request('http://localhost:4010/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-jwt-token': web! },
        body: JSON.stringify({ query: '{ __typename }' }),
      }),
    );
    expect(answer.status).toBe(200);
  });

  it.each(['schema.graphql', 'openapi.yaml'])(
    'answers /__pck/%s with a 404 that says where the file is',
    async (file) => {
      const answer = await apps[0]!.fetch(new Request(`http://localhost:4010/__pck/${file}`));
      expect(answer.status).toBe(404);
      expect(await answer.json()).toEqual({
        status: 'ERROR',
        message: expect.stringContaining(`payment-contract-kit/${file}`),
      });
    },
  );

  it('serves no browser pages (they read built assets from the package)', async () => {
    const page = await apps[0]!.fetch(new Request('http://localhost:4010/', { headers: { accept: 'text/html' } }));
    expect(page.status).toBe(404);
  });
});
