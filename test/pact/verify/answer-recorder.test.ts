// What a failed dynamic interaction says the mock answered: error messages with reason codes and 7.3 paths, the 7.1
// message, or the data's root fields, masked; and which recorded answer belongs to which interaction.
import { describe, expect, it } from 'vitest';
import { describeAnswer, type RecordedAnswer, takeAnswer } from '../../../src/pact/verify/answer-recorder.ts';

describe('describeAnswer', () => {
  it.each([
    [
      'GraphQL errors with reason and 7.3 paths',
      {
        status: 200,
        body: JSON.stringify({
          errors: [
            {
              message: 'Validation failed for processPaymentRequest.',
              extensions: { category: 'validation', validation: { 'input.contact': ['contact required'] } },
            },
            { message: 'Token expired.', extensions: { reason: 'TOKEN_EXPIRED' } },
          ],
        }),
      },
      'the mock answered 200 with errors: "Validation failed for processPaymentRequest." at input.contact; "Token expired." (TOKEN_EXPIRED)',
    ],
    [
      'a 7.1 error',
      { status: 401, body: '{"status":"ERROR","message":"Invalid API key."}' },
      'the mock answered 401: "Invalid API key."',
    ],
    [
      'data, without its values (tokens stay out)',
      { status: 200, body: '{"status":"SUCCESS","data":{"token":"eyJ.secret","refresh_token":"r"}}' },
      'the mock answered 200 with data for token, refresh_token',
    ],
    [
      'a card number in a message, masked',
      { status: 200, body: '{"errors":[{"message":"Card 4111111111111111 declined.","extensions":{"reason":"X"}}]}' },
      'the mock answered 200 with errors: "Card 411111******1111 declined." (X)',
    ],
    ['no body', { status: 204, body: '' }, 'the mock answered 204 with no body'],
  ])('%s', (_name, answer, want) => {
    expect(describeAnswer(answer)).toBe(want);
  });
});

describe('takeAnswer', () => {
  const answer = (path: string, requestBody: string | undefined, status: number): RecordedAnswer => ({
    method: 'POST',
    path,
    requestBody,
    status,
    body: '',
  });
  it('takes the answer with the same method, path and body (key order aside), else the first on the path, once each', () => {
    const answers = [
      answer('/graphql', '{"query":"a","variables":{}}', 200),
      answer('/graphql', '{"variables":{"x":1},"query":"b"}', 201),
      answer('/api/v2/accounting/token/generate-token', undefined, 401),
    ];
    expect(
      takeAnswer(answers, { method: 'post', path: '/graphql', body: { query: 'b', variables: { x: 1 } } })?.status,
    ).toBe(201);
    expect(takeAnswer(answers, { method: 'POST', path: '/graphql', body: { query: 'c' } })?.status).toBe(200);
    expect(takeAnswer(answers, { method: 'POST', path: '/graphql' })).toBeUndefined();
    expect(takeAnswer(answers, { method: 'POST', path: '/api/v2/accounting/token/generate-token' })?.status).toBe(401);
    expect(answers).toEqual([]);
  });
});
