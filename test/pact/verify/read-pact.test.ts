// The pact reader on the shapes each specification version and library writes.
import { describe, expect, it } from 'vitest';
import { PactFormatError, readPact } from '../../../src/pact/verify/read-pact.ts';

const parties = { consumer: { name: 'shop' }, provider: { name: 'card-payment-service' } };

describe('readPact', () => {
  it('reads V2: providerState as a string, the query as a string, header strings and flat matching rules', () => {
    const pact = readPact(
      {
        ...parties,
        metadata: { pactSpecification: { version: '2.0.0' } },
        interactions: [
          {
            description: 'a lookup',
            providerState: 'a token exists',
            request: {
              method: 'get',
              path: '/x',
              query: 'page=2&tag=a&tag=b',
              headers: { Accept: 'application/json' },
            },
            response: {
              status: 200,
              body: { items: [{ id: 1 }] },
              matchingRules: {
                '$.body.items': { min: 1 },
                '$.body.items[*].id': { match: 'type' },
                '$.headers.Content-Type': { regex: 'json' },
              },
            },
          },
        ],
      },
      'v2.json',
    );
    expect(pact.specification).toBe('2.0.0');
    const interaction = pact.interactions[0]!;
    if (interaction.kind !== 'http') throw new Error('expected an HTTP interaction');
    expect(interaction.providerStates).toEqual([{ name: 'a token exists', params: {} }]);
    expect(interaction.request.method).toBe('GET');
    expect(interaction.request.query).toEqual({ page: ['2'], tag: ['a', 'b'] });
    expect(interaction.request.headers).toEqual({ Accept: ['application/json'] });
    expect(interaction.response.body).toEqual({ present: true, contentType: undefined, value: { items: [{ id: 1 }] } });
    expect(interaction.response.rules.body?.map((r) => [r.path, r.matchers])).toEqual([
      ['$.items', [{ min: 1, match: 'type' }]],
      ['$.items[*].id', [{ match: 'type' }]],
    ]);
    expect(interaction.response.rules.header?.map((r) => [r.path, r.matchers])).toEqual([
      ['Content-Type', [{ regex: 'json', match: 'regex' }]],
    ]);
  });

  it('reads V3: providerStates with params, category rules, and pact-jvm messages with metaData', () => {
    const pact = readPact(
      {
        ...parties,
        metadata: { pactSpecification: { version: '3.0.0' } },
        interactions: [
          {
            description: 'a call',
            providerStates: [{ name: 'a client', params: { clientId: 'c' } }],
            request: { method: 'POST', path: '/graphql', query: { a: ['1'] }, body: { query: '{ x }' } },
            response: {
              status: 200,
              matchingRules: {
                body: { '$.data.x': { matchers: [{ match: 'number' }], combine: 'OR' } },
                path: { matchers: [{ match: 'regex', regex: '.*' }] },
              },
            },
          },
        ],
        messages: [{ description: 'an event', contents: { uuid: 'u' }, metaData: { 'x-client-id': 'c' } }],
      },
      'v3.json',
    );
    const [call, event] = pact.interactions;
    if (call?.kind !== 'http' || event?.kind !== 'message')
      throw new Error('expected an HTTP interaction and a message');
    expect(call.providerStates).toEqual([{ name: 'a client', params: { clientId: 'c' } }]);
    expect(call.request.query).toEqual({ a: ['1'] });
    expect(call.response.body).toEqual({ present: false });
    expect(call.response.rules.body?.[0]).toMatchObject({ path: '$.data.x', combine: 'OR' });
    expect(call.response.rules.path?.[0]).toMatchObject({ path: '$', matchers: [{ match: 'regex' }] });
    expect(event.metadata).toEqual({ 'x-client-id': 'c' });
    expect(event.contents).toMatchObject({ present: true, value: { uuid: 'u' } });
  });

  it('reads V4: wrapped bodies (plain, json-encoded, base64), pending, comments and other interaction types', () => {
    const pact = readPact(
      {
        ...parties,
        metadata: { pactSpecification: { version: '4.0' } },
        interactions: [
          {
            type: 'Synchronous/HTTP',
            description: 'encoded',
            pending: true,
            comments: { text: ['by hand'] },
            request: {
              method: 'POST',
              path: '/graphql',
              headers: { 'Content-Type': ['application/json'] },
              body: { content: '{"query":"{ a }"}', contentType: 'application/json', encoded: 'json' },
            },
            response: {
              status: 200,
              body: {
                content: Buffer.from('{"data":null}').toString('base64'),
                contentType: 'application/json',
                encoded: 'base64',
              },
            },
          },
          { type: 'Synchronous/Messages', description: 'a sync message' },
        ],
      },
      'v4.json',
    );
    const [http, other] = pact.interactions;
    if (http?.kind !== 'http') throw new Error('expected an HTTP interaction');
    expect(http.pending).toBe(true);
    expect(http.comments).toEqual(['by hand']);
    expect(http.request.body).toEqual({ present: true, contentType: 'application/json', value: { query: '{ a }' } });
    expect(http.response.body).toMatchObject({ value: { data: null } });
    expect(other).toMatchObject({ kind: 'other', type: 'Synchronous/Messages' });
  });

  it.each([
    ['not an object', [], 'the file is not a JSON object'],
    ['no consumer', { provider: { name: 'p' } }, 'consumer.name is missing'],
    [
      'no request method',
      { ...parties, interactions: [{ description: 'd', request: { path: '/' }, response: {} }] },
      'interactions[0].request.method is missing',
    ],
    ['no description', { ...parties, interactions: [{ request: {} }] }, 'interactions[0].description is missing'],
    ['interactions not a list', { ...parties, interactions: {} }, 'interactions is not a list'],
  ])('names the field when the file is not a pact: %s', (_name, json, message) => {
    expect(() => readPact(json, 'bad.json')).toThrow(PactFormatError);
    expect(() => readPact(json, 'bad.json')).toThrow(`[payment-contract-kit] bad.json: ${message}`);
  });
});
