// A body over the limit, through the msw handlers: msw hands the handler a clone of the request, one branch of a
// tee, and cancelling one branch settles only when every branch is cancelled. The handler must answer 413 at once,
// not wait on that cancel (it hung every such request before).
import { getResponse } from 'msw';
import { afterAll, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { createMockHandlers } from '../../src/msw/index.ts';

const mock = createMockHandlers({ log: false });
afterAll(() => mock.close());

it('answers a /graphql body over the limit with 413 in the spec shape, without hanging on the clone', async () => {
  const token = mock.control.issueToken('test-client').token;
  const body = 'x'.repeat(defaultAssumptions.limits.maxBodyBytes + 1_000);
  const request = new Request('http://127.0.0.1:4010/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-jwt-token': token },
    body,
  });
  const response = await getResponse(mock.handlers, request);
  expect(response?.status).toBe(413);
  expect(await response!.json()).toMatchObject({ errors: [expect.objectContaining({ message: expect.any(String) })] });
});
