/**
 * The two ordered collections under the mock's bounded state.
 *
 * {@link KeyQueue} is a first-in-first-out queue of keys for evicting the oldest entry of a bounded map. Why not
 * `map.keys().next()`: V8's ordered hash maps leave deleted slots in place until the next rehash, and an iterator
 * skips them one by one, so "delete the first key" on a full map costs O(deleted slots) per call, and a map at its
 * cap evicts on every payment. The queue is an array with a head index: push and shift are O(1) amortized.
 *
 * {@link SeqList} is an ordered list of history entries keyed by a sequence number that only grows: the structure
 * under every paged control list (payments, deliveries; decisions/0013-bounded-histories.md). Entries are appended
 * in sequence order and removed in any order (eviction takes the oldest finished entry, not the oldest entry). A
 * removed entry leaves a hole that reads skip; once holes outnumber the live entries the arrays are compacted, so
 * memory follows the live count and a walk never skips more holes than there are entries. A cursor is a sequence
 * number, not an offset: it stays valid however many entries are removed before it.
 *
 * @module
 */

/** A FIFO of keys (or small records); keys may go stale (deleted from the map elsewhere), and the caller skips those. */
export class KeyQueue<K> {
  private items: K[] = [];
  private head = 0;

  /** Keys queued and not yet shifted, stale ones included. */
  get length(): number {
    return this.items.length - this.head;
  }

  /** Appends a key. */
  push(key: K): void {
    this.items.push(key);
  }

  /** The oldest key without removing it, or undefined when empty. */
  peek(): K | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  /** Removes and returns the oldest key, or undefined when empty. */
  shift(): K | undefined {
    if (this.head >= this.items.length) return undefined;
    const key = this.items[this.head]!;
    this.items[this.head++] = undefined as K;
    // Drop the consumed front once it is at least half of the array, so memory follows the live length.
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return key;
  }

  /** Keeps only the keys for which `keep` is true, in order (drops stale keys that piled up). */
  retain(keep: (key: K) => boolean): void {
    const kept: K[] = [];
    for (let i = this.head; i < this.items.length; i++) if (keep(this.items[i]!)) kept.push(this.items[i]!);
    this.items = kept;
    this.head = 0;
  }

  /** The keys queued and not yet shifted, oldest first, stale ones included (a copy: not for hot paths). */
  toArray(): K[] {
    return this.items.slice(this.head);
  }

  /** Empties the queue. */
  clear(): void {
    this.items = [];
    this.head = 0;
  }
}

/** Removed entries tolerated before a compaction is considered (small lists are not worth rebuilding). */
const MIN_HOLES_TO_COMPACT = 64;

/** Entries in sequence order; see the module comment. */
export class SeqList<V> {
  private seqs: number[] = [];
  private values: (V | undefined)[] = [];
  private live = 0;
  /** Every index below this one is a hole: `oldest` starts here, not at the front's holes again. */
  private firstLive = 0;

  /** Live entries. */
  get size(): number {
    return this.live;
  }

  /** Appends `value` under `seq`, which must be greater than every sequence number appended before. */
  push(seq: number, value: V): void {
    const last = this.seqs[this.seqs.length - 1];
    if (last !== undefined && seq <= last) throw new RangeError(`SeqList: seq ${seq} is not after ${last}`);
    this.seqs.push(seq);
    this.values.push(value);
    this.live += 1;
  }

  /** Removes the entry of `seq`; false when there is none. O(log n). */
  delete(seq: number): boolean {
    const i = this.indexOf(seq);
    if (i < 0 || this.values[i] === undefined) return false;
    this.values[i] = undefined;
    this.live -= 1;
    const holes = this.seqs.length - this.live;
    if (holes >= MIN_HOLES_TO_COMPACT && holes > this.live) this.compact();
    return true;
  }

  /** The value of `seq`, or undefined. O(log n). */
  get(seq: number): V | undefined {
    const i = this.indexOf(seq);
    return i < 0 ? undefined : this.values[i];
  }

  /** The oldest live entry. */
  oldest(): V | undefined {
    // A full payment list evicts its oldest entry on every payment, and until the next compaction the front's holes
    // only grow: walked from the start each time, they cost up to one step per live entry.
    for (let i = this.firstLive; i < this.values.length; i++) {
      if (this.values[i] !== undefined) {
        this.firstLive = i;
        return this.values[i];
      }
    }
    this.firstLive = this.values.length;
    return undefined;
  }

  /** Live entries newest first, starting below `before` (every entry when undefined). */
  *newest(before?: number): Generator<[number, V]> {
    let i = before === undefined ? this.seqs.length - 1 : this.lowerBound(before) - 1;
    for (; i >= 0; i--) {
      const v = this.values[i];
      if (v !== undefined) yield [this.seqs[i]!, v];
    }
  }

  /** Live entries oldest first, starting above `after` (every entry when undefined). */
  *oldestFirst(after?: number): Generator<[number, V]> {
    for (let i = after === undefined ? 0 : this.lowerBound(after + 1); i < this.seqs.length; i++) {
      const v = this.values[i];
      if (v !== undefined) yield [this.seqs[i]!, v];
    }
  }

  /** Forgets every entry. */
  clear(): void {
    this.seqs = [];
    this.values = [];
    this.firstLive = 0;
    this.live = 0;
  }

  /** First index whose seq is >= `seq`. */
  private lowerBound(seq: number): number {
    let lo = 0;
    let hi = this.seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.seqs[mid]! < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private indexOf(seq: number): number {
    const i = this.lowerBound(seq);
    return this.seqs[i] === seq ? i : -1;
  }

  private compact(): void {
    const seqs: number[] = [];
    const values: V[] = [];
    for (let i = 0; i < this.seqs.length; i++) {
      const v = this.values[i];
      if (v === undefined) continue;
      seqs.push(this.seqs[i]!);
      values.push(v);
    }
    this.seqs = seqs;
    this.values = values;
    this.firstLive = 0;
  }
}
