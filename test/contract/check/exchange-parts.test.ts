// Reading a body once per message: the checks of one exchange share the parse, and a changed body is read again.
import { describe, expect, it } from 'vitest';
import { readJson, rememberJson } from '../../../src/contract/check/exchange-parts.ts';

describe('readJson', () => {
  it('reads a message once and gives every reader the same value', () => {
    const message = { headers: {}, body: '{"data":{"a":1}}' };
    const first = readJson(message);
    expect(first).toEqual({ state: 'json', value: { data: { a: 1 } } });
    expect(readJson(message)).toBe(first);
  });

  it('reads the body again when the message now holds another text', () => {
    const message: { headers: Record<string, string>; body: string | undefined } = { headers: {}, body: '[1]' };
    expect(readJson(message)).toEqual({ state: 'json', value: [1] });
    message.body = 'not json';
    expect(readJson(message).state).toBe('invalid');
    message.body = '  ';
    expect(readJson(message)).toEqual({ state: 'none' });
  });

  it('uses a value the caller already parsed, for that text only', () => {
    const message: { headers: Record<string, string>; body: string } = { headers: {}, body: '{"x":2}' };
    const parsed = { x: 2 };
    rememberJson(message, parsed);
    const read = readJson(message);
    expect(read.state === 'json' && read.value).toBe(parsed);
    message.body = '{"x":3}';
    expect(readJson(message)).toEqual({ state: 'json', value: { x: 3 } });
  });
});
