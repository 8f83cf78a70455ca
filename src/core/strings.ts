/**
 * A string table read in place: UTF-8 bytes, each entry decoded the first time it is asked
 * for and kept. Nothing is decoded or summed at load; an entry's offset is its block's stored
 * offset plus the lengths before it in its block (see STRING_BLOCK in layout.ts).
 *
 * Bounds are checked where an entry is first decoded: an index beyond the table, or a block
 * whose lengths do not add up to the next block's offset, is a damaged artifact (`fail`
 * throws), never a wrong or undefined string.
 */
import type { UintArray } from './format.js';
import { STRING_BLOCK, STRING_BLOCK_BITS, utf8Reader } from './layout.js';

/** Entries are kept in pages, made as they are first needed, so that loading allocates nothing per entry. */
const PAGE_BITS = 8;
const PAGE_MASK = (1 << PAGE_BITS) - 1;

export class Strings {
  readonly size: number;
  readonly #lengths: UintArray;
  readonly #starts: UintArray;
  readonly #fail: (reason: string) => never;
  readonly #pages: (string | undefined)[][] = [];
  readonly #read: (start: number, end: number) => string;
  readonly #byteLength: number;

  /** Throws (by `fail`) unless the lengths and block offsets fit the bytes. */
  constructor(bytes: Uint8Array, lengths: UintArray, starts: UintArray, fail: (reason: string) => never) {
    this.#lengths = lengths;
    this.#starts = starts;
    this.#fail = fail;
    this.size = lengths.length;
    if (starts.length !== Math.ceil(this.size / STRING_BLOCK) + 1 || starts[starts.length - 1] !== bytes.length || starts[0] !== 0) {
      fail('a string table does not match its lengths');
    }
    this.#read = utf8Reader(bytes);
    this.#byteLength = bytes.length;
  }

  get(i: number): string {
    return this.#pages[i >>> PAGE_BITS]?.[i & PAGE_MASK] ?? this.#decode(i);
  }

  #decode(i: number): string {
    if (!(i >= 0 && i < this.size)) this.#fail(`an index beyond its string table (${i} of ${this.size})`);
    const block = i >>> STRING_BLOCK_BITS;
    const first = block << STRING_BLOCK_BITS;
    const last = Math.min(first + STRING_BLOCK, this.size);
    const lengths = this.#lengths;
    // The whole block is summed, so that its lengths are checked against the next block's offset.
    let at = this.#starts[block]!;
    let start = at;
    for (let j = first; j < last; j++) {
      if (j === i) start = at;
      at += lengths[j]!;
    }
    if (at !== this.#starts[block + 1] || at > this.#byteLength) this.#fail('a string table does not match its lengths');
    const text = this.#read(start, start + lengths[i]!);
    (this.#pages[i >>> PAGE_BITS] ??= new Array<string | undefined>(PAGE_MASK + 1))[i & PAGE_MASK] = text;
    return text;
  }

  all(): string[] {
    return Array.from({ length: this.size }, (_, i) => this.get(i));
  }
}
