import { describe, expect, it } from 'vitest';
import {
  checkOptions,
  flagEnv,
  httpUrls,
  type OptionTable,
  oneOf,
  Problem,
  problemLine,
  shownDefault,
  tableDefaults,
  text,
  wholeNumber,
  yesNo,
} from '../../src/internal/option-table.ts';

const problem = (value: unknown) => (value instanceof Problem ? value.text : undefined);

describe('value kinds', () => {
  it.each<[string, unknown, unknown]>([
    ['a whole number in range', wholeNumber(0, 65_535).read('4010'), 4010],
    ['zero, the low bound', wholeNumber(0, 10).read('0'), 0],
    ['one of the values', oneOf(['text', 'json']).read('json'), 'json'],
    ['a true variable', yesNo.read('YES'), true],
    ['an empty variable (false)', yesNo.read(''), false],
    ['an http URL, as a list of one', httpUrls(() => true).read('http://a.test/h'), ['http://a.test/h']],
  ])('reads %s', (_name, got, want) => {
    expect(got).toEqual(want);
  });

  it.each<[string, unknown, string]>([
    [
      'a number past the top',
      wholeNumber(0, 65_535).read('70000'),
      'must be a whole number from 0 to 65535, got "70000".',
    ],
    ['a fraction', wholeNumber(1).read('1.5'), 'must be a whole number from 1, got "1.5".'],
    ['a sign', wholeNumber(0).read('-1'), 'must be a whole number from 0, got "-1".'],
    ['another word', oneOf(['current', 'legacy', 'both']).read('old'), 'must be current, legacy or both, got "old".'],
    ['a yes-no variable that is neither', yesNo.read('maybe'), 'must be true or false (1/0), got "maybe".'],
    ['a URL of another scheme', httpUrls(() => false).read('ftp://x'), 'must be an http(s) URL such as'],
  ])('refuses %s as text, quoting it', (_name, got, want) => {
    expect(problem(got)).toContain(want);
  });

  it.each<[string, unknown, string]>([
    ['a string where a number goes', wholeNumber(0).check('5'), 'must be a whole number from 0; got 5.'],
    ['a value not listed', oneOf(['text', 'json']).check('xml'), 'must be "text" or "json"; got xml.'],
    ['a non-boolean', yesNo.check(1), 'must be true or false; got 1.'],
    ['an empty string', text('host', { nonEmpty: true }).check(''), 'must not be empty.'],
    ['a URL list that is a string', httpUrls(() => true).check('http://a.test'), 'must be an array of http(s) URLs'],
  ])('refuses %s from code', (_name, got, want) => {
    expect(problem(got)).toContain(want);
  });
});

describe('rows and tables', () => {
  interface Options {
    readonly port?: number;
    readonly hooks?: readonly string[];
    readonly name?: string;
  }
  const table = {
    port: { kind: wholeNumber(0, 65_535), default: 4010, flag: { name: 'port', help: 'Port.' } },
    hooks: { kind: httpUrls((raw) => raw.startsWith('http')), default: [] },
    name: { kind: text('name'), shownDefault: 'the host name', flag: { name: 'name', env: false, help: 'Name.' } },
  } as const satisfies OptionTable<Options>;
  const fail = (key: string, p: Problem): never => {
    throw new TypeError(problemLine(`option "${key}"`, p));
  };

  it('names the variable PCK_ and the flag in upper snake case, unless the flag says otherwise', () => {
    expect(flagEnv({ name: 'max-body-bytes', help: '' })).toBe('PCK_MAX_BODY_BYTES');
    expect(flagEnv({ name: 'x', help: '', env: 'OTHER' })).toBe('OTHER');
    expect(flagEnv({ name: 'x', help: '', env: false })).toBeUndefined();
  });

  it('shows defaults as the docs write them', () => {
    expect(shownDefault(table.port)).toBe('4010');
    expect(shownDefault(table.hooks)).toBe('none');
    expect(shownDefault(table.name)).toBe('the host name');
  });

  it('collects the defaults and checks each given option with its row, dropping left-out ones', () => {
    expect(tableDefaults(table)).toEqual({ port: 4010, hooks: [] });
    expect(checkOptions(table, { port: 1, name: undefined }, fail)).toEqual({ port: 1 });
    expect(() => checkOptions(table, { port: 70_000 }, fail)).toThrow(
      'option "port" must be a whole number from 0 to 65535; got 70000.',
    );
    expect(() => checkOptions(table, { hooks: ['ftp://x'] }, fail)).toThrow(/option "hooks" holds "ftp:\/\/x"/);
  });

  it('writes a standalone problem after a colon', () => {
    expect(problemLine('--config', new Problem('unknown assumption "x".', true))).toBe(
      '--config: unknown assumption "x".',
    );
    expect(problemLine('--port', new Problem('must be 1.'))).toBe('--port must be 1.');
  });
});
