// The journal on a shared store, over a port stand-in: a read waits for this replica's own appends; a failed append
// is counted and logged as a lost entry, and reads go on; a wait reads again until an entry matches, and gives up at
// its time-out or when the mock closes.
import { describe, expect, it } from 'vitest';
import { sharedJournal } from '../../../support/mock-internals/domain.ts';

type Port = Parameters<typeof sharedJournal>[0]['port'];
type Entry = Parameters<ReturnType<typeof sharedJournal>['record']>[0];

const request = (path: string): Entry => ({ method: 'POST', path, status: 200, at: 0, durationMs: 1, outcome: 'ok' });

/** A port whose appends wait until `land()`; `fail` makes them reject instead. */
function heldPort(options: { fail?: boolean } = {}) {
  const kept: (Entry & { seq: number })[] = [];
  const held: (() => void)[] = [];
  let reads = 0;
  const port: Port = {
    append: (entry) =>
      new Promise((resolve, reject) => {
        held.push(() => {
          if (options.fail) reject(Object.assign(new Error('down'), { reason: 'connection refused' }));
          else resolve(kept.push({ ...entry, seq: kept.length + 1 }));
        });
      }),
    entries: async (since) => {
      reads += 1;
      return kept.filter((e) => e.seq > since);
    },
    page: async () => ({ items: [...kept].reverse(), order: 'newest-first', next: null }),
    counts: async () => ({ kept: kept.length, cursor: kept.length }),
  };
  const land = () => {
    for (const go of held.splice(0)) go();
  };
  return { port, kept, reads: () => reads, land };
}

describe('the journal on a shared store', () => {
  it("a read waits for this replica's own appends, so it lists the request just answered", async () => {
    const { port, land } = heldPort();
    const journal = sharedJournal({ port, capacity: 10, log: () => undefined });
    journal.record(request('/graphql'));
    const listed = journal.reads.entries(0);
    land();
    expect((await listed).map((e) => e.path)).toEqual(['/graphql']);
    expect(await journal.reads.counts()).toEqual({ kept: 1, cursor: 1 });
  });

  it('a failed append is counted and logged as a lost entry, and the reads still answer', async () => {
    const { port, land } = heldPort({ fail: true });
    const lines: string[] = [];
    const journal = sharedJournal({ port, capacity: 10, log: (line) => lines.push(line) });
    journal.record(request('/graphql'));
    const listed = journal.reads.entries(0);
    land();
    expect(await listed).toEqual([]);
    expect(journal.lost()).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('1 journal entry could not be written to the state store (connection refused)');
  });

  it('a wait reads again until an entry after its cursor matches, and gives up at its time-out or at close', async () => {
    const { port, land, reads } = heldPort();
    const journal = sharedJournal({ port, capacity: 10, log: () => undefined });
    const waiting = journal.reads.waitFor((e) => e.path === '/graphql', { since: 0, timeoutMs: 10_000 });
    await journal.reads.entries(0);
    journal.record(request('/graphql'));
    land();
    expect(await waiting).toMatchObject({ seq: 1, path: '/graphql' });
    expect(reads()).toBeGreaterThanOrEqual(2);
    await expect(journal.reads.waitFor((e) => e.path === '/graphql', { since: 1, timeoutMs: 30 })).rejects.toThrow(
      /No request matched within 30 ms/,
    );
    const pending = journal.reads.waitFor(() => false, { timeoutMs: 10_000 });
    journal.close();
    await expect(pending).rejects.toThrow(/closed while waiting/);
  });
});
