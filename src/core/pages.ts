/**
 * The artifact's integrity, checked where it is read (format 6): its data is cut into pages of
 * PAGE_BYTES, each with a 32-bit hash, and the table of those hashes into table pages, each with a
 * hash kept in the file's head (the roots), which the envelope's CRC-32 covers. Opening a file
 * checks the head alone; a page is checked, and read from disk when the source reads lazily,
 * the first time anything in it is read, before any answer uses it; a method that reads whole
 * columns has every page checked first. So a first answer reads and checks only the few pages it
 * touches, as SQLite reads only the pages a query needs, and no answer ever comes from bytes
 * that do not check.
 *
 * The hash: h = (rotl(h, 5) ^ word) * 0x9e3779b1 over the page's 32-bit little-endian words.
 * Each step is a bijection of `h` for a given word and of the word for a given `h`, so a change
 * confined to one word always changes the hash; any other change goes unseen with a chance of
 * one in 2^32. It is the cheapest such hash to run before the JIT has warmed up (a first answer
 * runs it in V8's interpreter), which is why it is not CRC-32.
 */

/** 256-byte pages: a first answer touches some forty, so a page's size is what it checks for each. */
export const PAGE_BITS = 8;
export const PAGE_BYTES = 1 << PAGE_BITS;
/** Hashes per table page (one table page is PAGE_BYTES of hashes). */
export const TABLE_PAGE_BITS = PAGE_BITS - 2;

const SEED = 0x811c9dc5 | 0;
/** Odd, so that multiplying by it loses nothing: 2^32 divided by the golden ratio, as a signed 32-bit integer (a small integer to V8). */
const MULTIPLIER = 0x9e3779b1 | 0;

/** The hash of the 32-bit words `words[from]` to `words[to - 1]`, as an unsigned integer. */
export function pageHash(words: Int32Array, from: number, to: number): number {
  let h = SEED;
  let i = from;
  // Four words a turn: a first answer runs this in V8's interpreter, where each turn of a loop costs as much as its work.
  for (; i + 4 <= to; i += 4) {
    h = Math.imul(((h << 5) | (h >>> 27)) ^ words[i]!, MULTIPLIER);
    h = Math.imul(((h << 5) | (h >>> 27)) ^ words[i + 1]!, MULTIPLIER);
    h = Math.imul(((h << 5) | (h >>> 27)) ^ words[i + 2]!, MULTIPLIER);
    h = Math.imul(((h << 5) | (h >>> 27)) ^ words[i + 3]!, MULTIPLIER);
  }
  for (; i < to; i++) h = Math.imul(((h << 5) | (h >>> 27)) ^ words[i]!, MULTIPLIER);
  return h >>> 0;
}

/** Where the pages lie in the file, as its head says (layout.ts). */
export interface PageLayout {
  /** Offset of the first page (a multiple of PAGE_BYTES); pages run to `dataStart + pages * PAGE_BYTES`. */
  dataStart: number;
  pages: number;
  /** Offset of the hash table: `pages` hashes, padded to whole table pages. */
  tableAt: number;
  /** One hash per table page, from the checked head. */
  roots: Uint32Array;
}

/**
 * Reads file bytes `[from, to)` into the file's buffer (a lazily read source), or nothing when
 * every byte is already there. Throws when they cannot be read.
 */
export type Fill = (from: number, to: number) => void;

/** The pages of one open artifact: which are checked, and the check itself. */
export class Pages {
  readonly #words: Int32Array;
  readonly #layout: PageLayout;
  readonly #fill: Fill | undefined;
  readonly #fail: (reason: string) => never;
  /** 1 once a page (data pages first, then table pages) has been read and checked. */
  readonly #checked: Uint8Array;
  #unchecked: number;

  /** `file` is the whole file's buffer (its first byte at a multiple of 4); `fill` reads what is not yet there. */
  constructor(file: Uint8Array, layout: PageLayout, fill: Fill | undefined, fail: (reason: string) => never) {
    this.#words = new Int32Array(file.buffer, file.byteOffset, file.length >>> 2);
    this.#layout = layout;
    this.#fill = fill;
    this.#fail = fail;
    this.#checked = new Uint8Array(layout.pages + layout.roots.length);
    this.#unchecked = this.#checked.length;
  }

  /** Whether every page has been checked: then nothing more is read and no check is left. */
  get complete(): boolean {
    return this.#unchecked === 0;
  }

  /** Elements `[from, to)` of `view` (a view into the file) read and checked. */
  view(view: ArrayBufferView & { BYTES_PER_ELEMENT: number }, from: number, to: number): void {
    if (this.#unchecked === 0 || to <= from) return;
    const start = view.byteOffset - this.#words.byteOffset + from * view.BYTES_PER_ELEMENT;
    this.bytes(start, start + (to - from) * view.BYTES_PER_ELEMENT);
  }

  /** File bytes `[from, to)` read and checked (those outside the pages are the head's, checked at open). */
  bytes(from: number, to: number): void {
    if (this.#unchecked === 0) return;
    const { dataStart, pages } = this.#layout;
    const first = Math.max(0, (from - dataStart) >> PAGE_BITS);
    const last = Math.min(pages, ((to - dataStart - 1) >> PAGE_BITS) + 1);
    for (let page = first; page < last; page++) if (this.#checked[page] === 0) this.#check(page, last);
  }

  /** Every page read and checked (for what reads whole columns); throws at the first that does not check. */
  all(): void {
    if (this.#unchecked === 0) return;
    const { dataStart, pages, tableAt, roots } = this.#layout;
    this.#fill?.(dataStart, tableAt + roots.length * PAGE_BYTES);
    for (let page = 0; page < pages; page++) if (this.#checked[page] === 0) this.#check(page, pages);
  }

  /** Checks data page `page`, reading it and those after it up to `last` that are unchecked in one read. */
  #check(page: number, last: number): void {
    const { dataStart, pages, tableAt } = this.#layout;
    let end = page + 1;
    while (end < last && this.#checked[end] === 0) end++;
    this.#fill?.(dataStart + page * PAGE_BYTES, dataStart + end * PAGE_BYTES);
    const table = tableAt >>> 2;
    for (let p = page; p < end; p++) {
      this.#checkTablePage(p >>> TABLE_PAGE_BITS);
      const at = (dataStart >>> 2) + p * (PAGE_BYTES >>> 2);
      if (pageHash(this.#words, at, at + (PAGE_BYTES >>> 2)) !== this.#words[table + p]! >>> 0) {
        this.#fail(`page ${p} of ${pages} does not match its checksum: it changed after it was built`);
      }
      this.#checked[p] = 1;
      this.#unchecked--;
    }
  }

  #checkTablePage(t: number): void {
    const { pages, tableAt, roots } = this.#layout;
    if (this.#checked[pages + t] === 1) return;
    const at = tableAt + t * PAGE_BYTES;
    this.#fill?.(at, at + PAGE_BYTES);
    if (pageHash(this.#words, at >>> 2, (at + PAGE_BYTES) >>> 2) !== roots[t]) this.#fail('the table of page checksums does not match its own: it changed after it was built');
    this.#checked[pages + t] = 1;
    this.#unchecked--;
  }
}

/** The hashes of `file`'s pages from `dataStart` (`pages` of them), and the roots of that table: what the compiler writes. */
export function pageHashes(file: Uint8Array, dataStart: number, pages: number): { table: Uint32Array; roots: Uint32Array } {
  const words = new Int32Array(file.buffer, file.byteOffset, file.length >>> 2);
  const table = new Uint32Array(Math.ceil(pages / (1 << TABLE_PAGE_BITS)) << TABLE_PAGE_BITS);
  for (let p = 0; p < pages; p++) {
    const at = (dataStart >>> 2) + p * (PAGE_BYTES >>> 2);
    table[p] = pageHash(words, at, at + (PAGE_BYTES >>> 2));
  }
  const tableWords = new Int32Array(table.buffer);
  const roots = new Uint32Array(table.length >>> TABLE_PAGE_BITS);
  for (let t = 0; t < roots.length; t++) roots[t] = pageHash(tableWords, t << TABLE_PAGE_BITS, (t + 1) << TABLE_PAGE_BITS);
  return { table, roots };
}
