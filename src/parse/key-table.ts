/**
 * Keys numbered in order (0 to n - 1), held as one text (each key ended by a line feed) with
 * their offsets, and found by an open-addressing table of their numbers: one string and two
 * typed arrays however many keys. A Map of the settlement index's 100,000 keys held a string
 * and an entry for each, about twice the memory, in every thread of a run; this table is made
 * again from the text another thread hands over, without a string per key.
 */
export class KeyTable {
  private constructor(
    /** The keys in the order of their numbers, each ended by a line feed. */
    readonly text: string,
    /** Key `k` is `text.slice(starts[k], starts[k + 1] - 1)`. */
    private readonly starts: Int32Array,
    /** Open addressing: a key's number + 1 at its hash's slot or the next free one; 0 is free. */
    private readonly slots: Int32Array,
  ) {}

  /** The table of `keys`, numbered in their order; undefined when a key holds a line feed (the text could not hold it). */
  static of(keys: readonly string[]): KeyTable | undefined {
    if (keys.some((key) => key.includes('\n'))) return undefined;
    return KeyTable.fromText(keys.length ? `${keys.join('\n')}\n` : '');
  }

  /** The table of a text of keys each ended by a line feed (`text` of another table); undefined for a text not so ended. */
  static fromText(text: string): KeyTable | undefined {
    if (text !== '' && !text.endsWith('\n')) return undefined;
    let count = 0;
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
    const starts = new Int32Array(count + 1);
    for (let k = 0, at = 0; k < count; k++) {
      starts[k] = at;
      at = text.indexOf('\n', at) + 1;
    }
    starts[count] = text.length;
    // At most half full, so a search ends after a slot or two.
    let size = 16;
    while (size < count * 2) size *= 2;
    const slots = new Int32Array(size);
    const mask = size - 1;
    for (let k = 0; k < count; k++) {
      let slot = hashOf(text, starts[k]!, starts[k + 1]! - 1) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = k + 1;
    }
    return new KeyTable(text, starts, slots);
  }

  /** How many keys it holds. */
  get size(): number {
    return this.starts.length - 1;
  }

  /** The number of `key`, or -1 when it holds no such key. */
  numberOf(key: string): number {
    const mask = this.slots.length - 1;
    for (let slot = hashOf(key, 0, key.length) & mask; ; slot = (slot + 1) & mask) {
      const k = this.slots[slot]! - 1;
      if (k < 0) return -1;
      if (this.holdsAt(k, key)) return k;
    }
  }

  private holdsAt(k: number, key: string): boolean {
    const from = this.starts[k]!;
    if (this.starts[k + 1]! - 1 - from !== key.length) return false;
    const text = this.text;
    for (let i = 0; i < key.length; i++) if (text.charCodeAt(from + i) !== key.charCodeAt(i)) return false;
    return true;
  }
}

/** FNV-1a over the UTF-16 units of `text` from `from` to `to` (a key alone, or one within the table's text: the same units, the same hash). */
function hashOf(text: string, from: number, to: number): number {
  let hash = 0x811c9dc5;
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
