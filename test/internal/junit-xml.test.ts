import { describe, expect, it } from 'vitest';
import { junitXml, xmlText } from '../../src/internal/junit-xml.ts';

describe('junitXml', () => {
  it('counts tests, failures and skipped per suite and in total, and writes each kind of case', () => {
    const xml = junitXml('kit check', [
      {
        name: 'a.har',
        cases: [
          { classname: 'a.har', name: 'passes' },
          { classname: 'a.har', name: 'fails', failure: { message: 'm', type: 'contract', text: 'line 1\nline 2' } },
          { classname: 'a.har', name: 'pending', skipped: 'pending: later' },
        ],
      },
      { name: 'b.json', cases: [{ classname: 'b.json', name: 'passes with output', systemOut: 'current guide' }] },
    ]);
    expect(xml).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="kit check" tests="4" failures="1" skipped="1">',
        '  <testsuite name="a.har" tests="3" failures="1" skipped="1">',
        '    <testcase classname="a.har" name="passes"/>',
        '    <testcase classname="a.har" name="fails">',
        '      <failure message="m" type="contract">line 1\nline 2</failure>',
        '    </testcase>',
        '    <testcase classname="a.har" name="pending">',
        '      <skipped message="pending: later"/>',
        '    </testcase>',
        '  </testsuite>',
        '  <testsuite name="b.json" tests="1" failures="0" skipped="0">',
        '    <testcase classname="b.json" name="passes with output">',
        '      <system-out>current guide</system-out>',
        '    </testcase>',
        '  </testsuite>',
        '</testsuites>',
        '',
      ].join('\n'),
    );
  });

  it('escapes markup and drops the control characters XML 1.0 cannot hold', () => {
    expect(xmlText('<a href="x">&\u0001\u0008\t\n</a>')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;\t\n&lt;/a&gt;');
    const xml = junitXml('n', [
      {
        name: 's',
        cases: [{ classname: 'c', name: '"quoted" <name>', failure: { message: 'a&b', type: 't', text: '\u0000x' } }],
      },
    ]);
    expect(xml).toContain('name="&quot;quoted&quot; &lt;name&gt;"');
    expect(xml).toContain('<failure message="a&amp;b" type="t">x</failure>');
  });
});
