/**
 * The postal codes: the prefix trie the compiler stores (one 10-bit child mask per node, breadth
 * first, with each node's first child and each depth's first node), walked to find a code, and
 * after DIRECT_AFTER lookups a table of every code number. Its leaves, in order, are the codes
 * ascending: the trie is the only place the codes themselves are stored.
 */
import { CODE_LENGTH, type UintArray } from './format.js';
import type { Pages } from './pages.js';

/** Trie walks before codeIndex makes its table of every code number. */
const DIRECT_AFTER = 1000;

/** The number of a postal code (`"09810"` is 9810), or -1 when `text` is not exactly 5 ASCII digits. */
export function postalCodeNumber(text: string): number {
  return text.length === CODE_LENGTH ? codeNumber(text) : -1;
}

/** The number of 5 ASCII digits (`"09810"` is 9810), or -1 when one is not a digit (unrolled: it is on every lookup's path). */
function codeNumber(code: string): number {
  const d0 = code.charCodeAt(0) - 48;
  const d1 = code.charCodeAt(1) - 48;
  const d2 = code.charCodeAt(2) - 48;
  const d3 = code.charCodeAt(3) - 48;
  const d4 = code.charCodeAt(4) - 48;
  // `>>> 0` makes a negative difference large, so one comparison per digit checks both ends.
  if (d0 >>> 0 > 9 || d1 >>> 0 > 9 || d2 >>> 0 > 9 || d3 >>> 0 > 9 || d4 >>> 0 > 9) return -1;
  return d0 * 10000 + d1 * 1000 + d2 * 100 + d3 * 10 + d4;
}

/** Set bits of every 10-bit mask, for walking the trie by rank. */
const POPCOUNT = new Uint8Array(1 << 10);
for (let mask = 1; mask < POPCOUNT.length; mask++) POPCOUNT[mask] = (mask & 1) + POPCOUNT[mask >>> 1]!;

export class CodeTrie {
  /** Child masks of the trie's internal nodes, breadth first. */
  readonly #masks: UintArray;
  /**
   * Id of each internal node's first child: the child for digit `d` is
   * `firstChild + popcount(mask & ((1 << d) - 1))`. Depth-4 nodes' children are code indices.
   */
  readonly #firstChild: UintArray;
  /** First internal node id of each depth 0 to 4, and the node count after them. */
  readonly #levelStart: UintArray;
  readonly #codeCount: number;
  /** Reads and checks the pages of what is read (pages.ts): a walk's nodes, or every page before a pass over the whole trie. */
  readonly #pages: Pages;
  readonly #fail: (reason: string) => never;
  /** Code indices by number, made after DIRECT_AFTER trie walks (see codeIndex). */
  #direct: Int32Array | undefined;
  #trieWalks = 0;
  #shapeChecked = false;
  #codeStrings: string[] | undefined;

  /** Checks nothing yet: a walk checks what it reads, a pass over the whole trie checks its shape first (`checkWhole`). */
  constructor(masks: UintArray, firstChild: UintArray, levelStart: UintArray, codeCount: number, pages: Pages, fail: (reason: string) => never) {
    this.#masks = masks;
    this.#firstChild = firstChild;
    this.#levelStart = levelStart;
    this.#codeCount = codeCount;
    this.#pages = pages;
    this.#fail = fail;
  }

  /**
   * Every page read and checked, and the trie's shape, from its levels alone: each level's
   * children end where the next level (or the codes) does; once, before a pass over the whole
   * trie (or for a process that checks the whole artifact at once). A node's own first child is
   * checked where a lookup reads it.
   */
  checkWhole(): void {
    if (this.#shapeChecked) return;
    this.#pages.all();
    const levels = this.#levelStart;
    const nodes = this.#masks.length;
    if (!(levels.length === CODE_LENGTH + 1 && levels[0] === 0 && levels[CODE_LENGTH] === nodes && this.#firstChild.length === nodes)) this.#fail('trie is truncated');
    for (let depth = 0; depth < CODE_LENGTH; depth++) {
      const first = levels[depth]!;
      const last = levels[depth + 1]! - 1;
      const next = depth + 1 < CODE_LENGTH ? levels[depth + 1]! : 0;
      const end = depth + 1 < CODE_LENGTH ? levels[depth + 2]! : this.#codeCount;
      if (!(last >= first && this.#firstChild[first] === next && this.#firstChild[last]! + POPCOUNT[this.#masks[last]! & 0x3ff]! === end)) this.#fail('trie does not match the code count');
    }
    this.#shapeChecked = true;
  }

  /** Node `node`'s mask and first child read and checked (a node outside the trie reads as undefined, and is refused by its reader). */
  #read(node: number): void {
    if (node >= 0 && node < this.#masks.length) {
      this.#pages.view(this.#masks, node, node + 1);
      this.#pages.view(this.#firstChild, node, node + 1);
    }
  }

  /** The end of the ids of depth `depth + 1` (the code count below depth 4): a first child of depth `depth` is below it. */
  #levelEnd(depth: number): number {
    return depth + 1 < CODE_LENGTH ? this.#levelStart[depth + 2]! : this.#codeCount;
  }

  /** The first child of node `node` of depth `depth`, checked to lie in the next level. */
  #firstChildOf(node: number, depth: number): number {
    const child = this.#firstChild[node]!;
    if (!(child >= (depth + 1 < CODE_LENGTH ? this.#levelStart[depth + 1]! : 0) && child < this.#levelEnd(depth))) this.#fail('the trie names a node outside its level');
    return child;
  }

  /** The trie child of `node` (of depth `depth`) for `digit`, or -1. */
  #child(node: number, digit: number, depth: number): number {
    const mask = this.#masks[node]! & 0x3ff;
    if (!(mask & (1 << digit))) return -1;
    const child = this.#firstChildOf(node, depth) + POPCOUNT[mask & ((1 << digit) - 1)]!;
    return child < this.#levelEnd(depth) ? child : this.#fail('the trie names a node outside its level');
  }

  /**
   * Index of a postal code, or -1 when `postalCode` is not exactly 5 ASCII digits or the catalog
   * has no such code: the hot path of every lookup. An index found is therefore a well-formed
   * code, which lets the library's info_cp shortcut (router.infoCpBody) skip a check of its own.
   * The first DIRECT_AFTER lookups walk the trie; then a table of every number from 00000 to
   * 99999 is made (400 KB, outside the JavaScript heap, 0.3 ms), so that a long-lived process
   * finds a code with one read, and a short-lived one never pays for it.
   */
  codeIndex(postalCode: string): number {
    // The walk reads digits with `1 << digit`, which wraps: a code unit such as `P` (digit 32)
    // would read as 0. Checked here once, so no caller can forget it.
    const number = postalCodeNumber(postalCode);
    if (number < 0) return -1;
    const direct = this.#direct;
    if (direct !== undefined) return direct[number]!;
    if (++this.#trieWalks === DIRECT_AFTER) this.#direct = this.#directTable();
    return this.#walk(postalCode);
  }

  /** Whether codeIndex has made its table of every code number: the process has looked up many codes. */
  get directTableMade(): boolean {
    return this.#direct !== undefined;
  }

  /**
   * The trie walk. It checks only its result: a forged first child reads `undefined` past the
   * trie, which no mask bit matches (-1), and a code index is checked against the code count.
   */
  #walk(postalCode: string): number {
    const masks = this.#masks;
    const firstChild = this.#firstChild;
    const unchecked = !this.#pages.complete;
    let node = 0;
    for (let depth = 0; depth < CODE_LENGTH; depth++) {
      if (unchecked) this.#read(node);
      const digit = postalCode.charCodeAt(depth) - 48;
      const mask = masks[node]! & 0x3ff;
      if (!(mask & (1 << digit))) return -1;
      node = firstChild[node]! + POPCOUNT[mask & ((1 << digit) - 1)]!;
    }
    return node < this.#codeCount ? node : this.#fail('the trie names a code beyond the code count');
  }

  /**
   * Each code's index by its number, -1 where there is no code: the trie read level by level
   * (children in order, so each node's number is its parent's and its digit), every first
   * child checked against the count of children before it.
   */
  #directTable(): Int32Array {
    this.checkWhole();
    const masks = this.#masks;
    const levels = this.#levelStart;
    let numbers = new Int32Array(1);
    for (let depth = 0; depth < CODE_LENGTH; depth++) {
      const first = levels[depth]!;
      const end = this.#levelEnd(depth);
      const next = new Int32Array(end - (depth + 1 < CODE_LENGTH ? levels[depth + 1]! : 0));
      const childBase = depth + 1 < CODE_LENGTH ? levels[depth + 1]! : 0;
      let child = 0;
      for (let node = first; node < levels[depth + 1]!; node++) {
        // Every first child checked on the way, so that the table and the trie walk agree.
        if (this.#firstChild[node] !== childBase + child) this.#fail('the trie names a node outside its level');
        const mask = masks[node]! & 0x3ff;
        for (let digit = 0; digit < 10; digit++) if (mask & (1 << digit)) next[child++] = numbers[node - first]! * 10 + digit;
      }
      if (child !== next.length) this.#fail('the trie does not list every code once');
      numbers = next;
    }
    const table = new Int32Array(10 ** CODE_LENGTH).fill(-1);
    for (let code = 0; code < numbers.length; code++) table[numbers[code]!] = code;
    return table;
  }

  /** The first code index under internal node `node` of depth `depth`. */
  #firstCodeUnder(node: number, depth: number): number {
    for (; depth < CODE_LENGTH; depth++) node = this.#firstChildOf(node, depth);
    return node;
  }

  /** The postal codes starting with `digits` (1 to 5 ASCII digits), ascending. */
  codesStartingWith(digits: string): string[] {
    this.checkWhole();
    let node = 0;
    for (let i = 0; i < digits.length && node >= 0; i++) node = this.#child(node, digits.charCodeAt(i) - 48, i);
    if (node < 0) return [];
    const codes = this.postalCodes();
    const depth = digits.length;
    if (depth === CODE_LENGTH) return [codes[node]!];
    // Nodes of one depth are in code order: the range ends where the next node's begins.
    const end = node + 1 < this.#levelStart[depth + 1]! ? this.#firstCodeUnder(node + 1, depth) : this.#codeCount;
    return codes.slice(this.#firstCodeUnder(node, depth), end);
  }

  /** Every code as a 5-character string, ascending: made once, on the first search. */
  #listCodes(): string[] {
    this.checkWhole();
    const codes = new Array<string>(this.#codeCount);
    let listed = 0;
    const walk = (node: number, depth: number, prefix: string) => {
      const mask = this.#masks[node]! & 0x3ff;
      for (let digit = 0; digit < 10; digit++) {
        if (!(mask & (1 << digit))) continue;
        const child = this.#child(node, digit, depth);
        if (depth < CODE_LENGTH - 1) walk(child, depth + 1, prefix + digit);
        else if (codes[child] === undefined) {
          codes[child] = prefix + digit;
          listed++;
        }
      }
    };
    walk(0, 0, '');
    // A forged trie could name one code twice and leave another out.
    if (listed !== this.#codeCount) this.#fail('the trie does not list every code once');
    return codes;
  }

  /** Every postal code as a 5-character string, ascending (shared: callers copy before handing it out). */
  postalCodes(): readonly string[] {
    return (this.#codeStrings ??= this.#listCodes()) as readonly string[];
  }
}
