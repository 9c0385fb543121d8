// Under `npm run test:node-versions` (scripts/test-node-versions.ts), proves each run really is on the Node major
// it names. Only that run includes this file (vitest.config.ts); there the variable is always set.
import { expect, it } from 'vitest';

const wanted = process.env.PCK_TEST_NODE_MAJOR;

it(`runs on Node ${wanted}`, () => {
  expect(wanted).toMatch(/^\d+$/);
  expect(process.versions.node.split('.')[0]).toBe(wanted);
});
