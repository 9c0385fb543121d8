/**
 * A first-in-first-out queue of keys for evicting the oldest entry of a bounded map.
 *
 * Why not `map.keys().next()`: V8's ordered hash maps leave deleted slots in place until the next rehash, and an
 * iterator skips them one by one, so "delete the first key" on a full map costs O(deleted slots) per call, and a
 * map at its cap evicts on every payment. This queue is an array with a head index: push and shift are O(1)
 * amortized.
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
