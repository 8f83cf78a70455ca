/**
 * A string table read in place: UTF-8 bytes, each entry decoded the first time it is asked
 * for and kept. Nothing is decoded or summed at load; an entry's offset is its block's stored
 * offset plus the lengths before it in its block (see STRING_BLOCK in layout.ts).
 *
 * Bounds are checked where an entry is first decoded: an index beyond the table, or a block
 * whose lengths do not add up to the next block's offset, is a damaged artifact (`fail`
 * throws), never a wrong or undefined string. What an entry's decoding reads is read through
 * `pages`, which checks each page first (pages.ts).
 */
import type { UintArray } from './format.js';
import { STRING_BLOCK, STRING_BLOCK_BITS, utf8Reader } from './layout.js';
import type { Pages } from './pages.js';

/** Decoded entries are kept in groups of 256, made as they are first needed, so that loading allocates nothing per entry. */
const GROUP_BITS = 8;
const GROUP_MASK = (1 << GROUP_BITS) - 1;

export class Strings {
  readonly size: number;
  readonly #bytes: Uint8Array;
  readonly #lengths: UintArray;
  readonly #starts: UintArray;
  readonly #pages: Pages;
  readonly #fail: (reason: string) => never;
  readonly #decoded: (string | undefined)[][] = [];
  /** Made at the first decode: most tables a process loads are never read (a first answer reads a few entries of four). */
  #read: ((start: number, end: number) => string) | undefined;
  #totalChecked = false;

  /** Throws (by `fail`) unless there is an offset for each block of lengths. */
  constructor(bytes: Uint8Array, lengths: UintArray, starts: UintArray, pages: Pages, fail: (reason: string) => never) {
    this.#bytes = bytes;
    this.#lengths = lengths;
    this.#starts = starts;
    this.#pages = pages;
    this.#fail = fail;
    this.size = lengths.length;
    if (starts.length !== Math.ceil(this.size / STRING_BLOCK) + 1) fail('a string table does not match its lengths');
  }

  /** Throws (by `fail`) unless the table's first and last offsets are its bytes' ends (each entry's own block is checked where it is decoded). */
  checkTotal(): void {
    if (this.#totalChecked) return;
    const starts = this.#starts;
    this.#pages.view(starts, 0, 1);
    this.#pages.view(starts, starts.length - 1, starts.length);
    if (starts[starts.length - 1] !== this.#bytes.length || starts[0] !== 0) this.#fail('a string table does not match its lengths');
    this.#totalChecked = true;
  }

  get(i: number): string {
    return this.#decoded[i >>> GROUP_BITS]?.[i & GROUP_MASK] ?? this.#decode(i);
  }

  #decode(i: number): string {
    if (!(i >= 0 && i < this.size)) this.#fail(`an index beyond its string table (${i} of ${this.size})`);
    // The total first: lengths that do not add up to the bytes would shift every entry after the first wrong one.
    if (!this.#totalChecked) this.checkTotal();
    const block = i >>> STRING_BLOCK_BITS;
    const first = block << STRING_BLOCK_BITS;
    const last = Math.min(first + STRING_BLOCK, this.size);
    const lengths = this.#lengths;
    this.#pages.view(lengths, first, last);
    this.#pages.view(this.#starts, block, block + 2);
    // The whole block is summed, so that its lengths are checked against the next block's offset.
    let at = this.#starts[block]!;
    let start = at;
    for (let j = first; j < last; j++) {
      if (j === i) start = at;
      at += lengths[j]!;
    }
    if (at !== this.#starts[block + 1] || at > this.#bytes.length) this.#fail('a string table does not match its lengths');
    this.#pages.view(this.#bytes, start, start + lengths[i]!);
    const text = (this.#read ??= utf8Reader(this.#bytes))(start, start + lengths[i]!);
    (this.#decoded[i >>> GROUP_BITS] ??= new Array<string | undefined>(GROUP_MASK + 1))[i & GROUP_MASK] = text;
    return text;
  }

  all(): string[] {
    return Array.from({ length: this.size }, (_, i) => this.get(i));
  }
}
