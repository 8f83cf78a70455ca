/**
 * Keys numbered in order (0 to n - 1), held as one text (each key ended by a line feed) with
 * their offsets, and found by an open-addressing table of their numbers: one string and two
 * typed arrays however many keys. A Map of the settlement index's 100,000 keys held a string
 * and an entry for each, about twice the memory, in every thread of a run; this table is made
 * again from the text another thread hands over, without a string per key.
 */
export class KeyTable {
  /** Made by `of`, `fromText` or a KeyTableBuilder. */
  constructor(
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
    const hashes = new Int32Array(count);
    for (let k = 0; k < count; k++) hashes[k] = hashOf(text, starts[k]!, starts[k + 1]! - 1);
    return new KeyTable(text, starts, slotsOf(hashes, count, slotCount(count)));
  }

  /** How many keys it holds. */
  get size(): number {
    return this.starts.length - 1;
  }

  /** Key `k` (0 to size - 1). */
  keyAt(k: number): string {
    return this.text.slice(this.starts[k]!, this.starts[k + 1]! - 1);
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

/**
 * Numbers keys as they come (the first key 0, a key seen before its number again), then makes
 * their table: one hash per key, each key hashed once (a Map of the settlement index's keys,
 * then a table made from its list, hashed each key twice and held a Map entry per key while
 * the index was made).
 */
export class KeyTableBuilder {
  private readonly keys: string[] = [];
  private hashes: Int32Array = new Int32Array(1024);
  private slots: Int32Array = new Int32Array(slotCount(512));
  /** Whether a key holds a line feed (no table's text could hold it). */
  private lineFeed = false;

  get size(): number {
    return this.keys.length;
  }

  /** Key `k`, as given. */
  keyAt(k: number): string {
    return this.keys[k]!;
  }

  /** The number of `key`: its own when seen before, else the next. */
  numberOf(key: string): number {
    const hash = hashOf(key, 0, key.length) | 0;
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (let k = this.slots[slot]! - 1; k >= 0; k = this.slots[slot]! - 1) {
      if (this.hashes[k] === hash && this.keys[k] === key) return k;
      slot = (slot + 1) & mask;
    }
    const k = this.keys.length;
    this.keys.push(key);
    if (key.includes('\n')) this.lineFeed = true;
    if (k === this.hashes.length) {
      const hashes = new Int32Array(k * 2);
      hashes.set(this.hashes);
      this.hashes = hashes;
    }
    this.hashes[k] = hash;
    this.slots[slot] = k + 1;
    // At most half full, as the table's own.
    if ((k + 1) * 2 > this.slots.length) this.slots = slotsOf(this.hashes, k + 1, this.slots.length * 2);
    return k;
  }

  /** The table of the keys numbered; undefined when a key holds a line feed. */
  table(): KeyTable | undefined {
    if (this.lineFeed) return undefined;
    const count = this.keys.length;
    const text = count ? `${this.keys.join('\n')}\n` : '';
    const starts = new Int32Array(count + 1);
    for (let k = 0; k < count; k++) starts[k + 1] = starts[k]! + this.keys[k]!.length + 1;
    return new KeyTable(text, starts, this.slots.length === slotCount(count) ? this.slots : slotsOf(this.hashes, count, slotCount(count)));
  }
}

/** Slots for `count` keys: at most half full, so a search ends after a slot or two. */
function slotCount(count: number): number {
  let size = 16;
  while (size < count * 2) size *= 2;
  return size;
}

/** Open addressing of the first `count` keys by their hashes: a key's number + 1 at its hash's slot or the next free one. */
function slotsOf(hashes: Int32Array, count: number, size: number): Int32Array {
  const slots = new Int32Array(size);
  const mask = size - 1;
  for (let k = 0; k < count; k++) {
    let slot = hashes[k]! & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = k + 1;
  }
  return slots;
}

/** FNV-1a over the UTF-16 units of `text` from `from` to `to` (a key alone, or one within the table's text: the same units, the same hash). */
function hashOf(text: string, from: number, to: number): number {
  let hash = 0x811c9dc5;
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
