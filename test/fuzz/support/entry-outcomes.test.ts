import { describe, expect, it } from 'vitest';
import { stackOverflowLine } from './entry-outcomes.ts';

describe('stackOverflowLine', () => {
  it('gives the whole line that reports the overflow, and nothing when none does', () => {
    const output = 'FAIL one\nerror: RangeError: Maximum call stack size exceeded at walk\n1 failed\n';
    expect(stackOverflowLine(output)).toBe('error: RangeError: Maximum call stack size exceeded at walk');
    expect(stackOverflowLine('Maximum call stack size exceeded')).toBe('Maximum call stack size exceeded');
    expect(stackOverflowLine('FAIL one\n1 failed\n')).toBeUndefined();
  });

  it('reads a report of one line of megabytes at once (a pattern with `.*` took minutes on a fifth of it)', () => {
    const line = 'response.body $.data.k1: unknown property "k1"; '.repeat(40_000);
    expect(stackOverflowLine(`FAIL static ${line}\n1 failed\n`)).toBeUndefined();
    expect(stackOverflowLine(`${line}RangeError${line}\nnext`)).toBe(`${line}RangeError${line}`);
  });
});
