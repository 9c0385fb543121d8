// A sentence quoted inside a kit message keeps one full stop: "required.. Fix" (issue 25 item 7) came from appending
// the kit's ". Fix ..." to a service message that already ended in one.
import { describe, expect, it } from 'vitest';
import { clause, kitMessage } from '../../src/internal/messages.ts';

describe('clause', () => {
  it.each([
    ['The input.contact field is required.', 'The input.contact field is required'],
    ['no full stop', 'no full stop'],
    ['an ellipsis...', 'an ellipsis...'],
    ['', ''],
  ])('%j -> %j', (given, want) => {
    expect(clause(given)).toBe(want);
  });

  it('joins a quoted sentence and the fix with one full stop', () => {
    const message = kitMessage(`input.contact: ${clause('The input.contact field is required.')}. Fix the values.`);
    expect(message).toBe('[payment-contract-kit] input.contact: The input.contact field is required. Fix the values.');
    expect(message).not.toMatch(/[^.]\.\.(?!\.)/);
  });
});
