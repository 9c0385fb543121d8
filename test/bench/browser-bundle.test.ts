// The benchmark's figure for the msw entry in the browser (issue 28): bundled from the built dist/browser/msw.js with
// msw and graphql left to the app, so the size is the kit's own code. npm test builds dist/ before vitest runs.
import { expect, it } from 'vitest';
import { measureBrowserBundle } from '../../bench/browser-bundle.ts';

it('measures the msw entry browser bundle, minified and gzip, without msw or graphql in it', async () => {
  const size = await measureBrowserBundle();
  expect(size).toBeDefined();
  const { minifiedBytes, gzipBytes } = size!;
  // The mock's GraphQL engine, validation and webhooks are in it (well over 50 kB); graphql itself is not (it would
  // add about 170 kB minified and cross this bound), and gzip does compress it.
  expect(minifiedBytes).toBeGreaterThan(50_000);
  expect(minifiedBytes).toBeLessThan(300_000);
  expect(gzipBytes).toBeLessThan(minifiedBytes / 2);
});
