// The build's quiet steps (scripts/quiet-inject.ts), in process: Node's "Wrote single executable preparation blob"
// notice is dropped from what --experimental-sea-config writes and every other line kept; LIEF's warnings about
// Node's unnamed note sections are dropped from console.warn while the injection runs, every other warning still
// shows, and console.warn is itself again afterwards, also when the injection fails. The whole build runs in
// test/binary/single-executable.test.ts, which reads its standard error.
import { afterEach, describe, expect, it } from 'vitest';
import {
  isLiefNoteWarning,
  isSeaBlobNotice,
  withoutLiefNoteWarnings,
  withoutSeaBlobNotice,
} from '../scripts/quiet-inject.ts';

const lief = (section: string) => `warning: Can't find string offset for section name '${section}'`;

const original = console.warn;
afterEach(() => {
  console.warn = original;
});

/** console.warn as a list: what reaches it is kept instead of printed. */
function collectWarnings(): unknown[][] {
  const seen: unknown[][] = [];
  console.warn = (...args: unknown[]) => {
    seen.push(args);
  };
  return seen;
}

describe("Node's blob preparation, quiet about its success notice", () => {
  const notice = 'Wrote single executable preparation blob to /tmp/pck-binary-x/sea-prep.blob';

  it.each([
    [notice, true],
    ['Wrote single executable preparation blob to C:\\Temp\\sea-prep.blob', true],
    ['Wrote single executable preparation blob to ', false],
    ['Cannot read main script /tmp/cli.cjs', false],
    [`warning: ${notice}`, false],
  ])('%s is the notice: %s', (line, is) => {
    expect(isSeaBlobNotice(line)).toBe(is);
  });

  it('drops the notice and keeps every other line as Node wrote it', () => {
    expect(withoutSeaBlobNotice(`${notice}\n`)).toBe('');
    expect(withoutSeaBlobNotice(`${notice}\r\n`)).toBe('');
    expect(withoutSeaBlobNotice(`(node:1) Warning: something\n${notice}\nlast words`)).toBe(
      '(node:1) Warning: something\nlast words',
    );
    expect(withoutSeaBlobNotice('')).toBe('');
  });
});

describe("postject's injection, quiet about note sections", () => {
  it.each([
    [lief('.note.100'), true],
    [lief('.note'), true],
    [lief('.text'), false],
    ["warning: Can't find string offset for section name", false],
    ['warning: something else', false],
  ])('%s is a LIEF note-section warning: %s', (text, is) => {
    expect(isLiefNoteWarning(text)).toBe(is);
  });

  it('drops those warnings during the call and lets every other one through', async () => {
    const seen = collectWarnings();
    const answer = await withoutLiefNoteWarnings(async () => {
      for (let i = 0; i < 9; i++) console.warn(lief('.note.100'));
      console.warn(lief('.note'));
      console.warn('warning: the blob does not fit');
      console.warn(lief('.note.100'), 'and more');
      return 'injected';
    });
    expect(answer).toBe('injected');
    expect(seen).toEqual([['warning: the blob does not fit'], [lief('.note.100'), 'and more']]);
    console.warn(lief('.note.100'));
    expect(seen).toHaveLength(3);
  });

  it('puts console.warn back when the injection fails', async () => {
    const seen = collectWarnings();
    const collecting = console.warn;
    await expect(
      withoutLiefNoteWarnings(() => Promise.reject(new Error("Can't read and write to target executable"))),
    ).rejects.toThrow(/target executable/);
    expect(console.warn).toBe(collecting);
    expect(seen).toEqual([]);
  });
});
