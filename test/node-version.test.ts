// Under `npm run test:node-versions` (scripts/test-node-versions.ts), proves each run really is on the Node major
// it names; in the ordinary run there is nothing to compare, and the test is skipped.
import { expect, it } from 'vitest';

const wanted = process.env.PCK_TEST_NODE_MAJOR;

it.runIf(wanted !== undefined)(`runs on Node ${wanted}`, () => {
  expect(process.versions.node.split('.')[0]).toBe(wanted);
});
