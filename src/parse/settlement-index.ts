/**
 * Every settlement of a catalog by its key (`settlementKey`: folded, shortenings expanded),
 * each key with the codes that have a settlement of that key. Made once per catalog, at the
 * first record that needs it, in a few typed arrays: one key per distinct settlement name
 * (the catalog's name table already shares a name among its settlements, so a name is read
 * once), and each key's codes in one run, ordered by municipality and then by code, so a
 * municipality's or a state's codes of a key are found by binary search. No object is kept
 * per settlement or per key: the keys are one text with a table (parse/key-table), each
 * distinct name's key number one more typed array (what reads a settlement's key reads it
 * here: parse/loose-names), the index a few MB in each thread, and the collector never walks it.
 */
import { buildIdOf, type Catalog } from '../core/catalog.js';
import { otherKeys, readsText, settlementKey } from '../core/names.js';
import { KeyTable, KeyTableBuilder } from './key-table.js';

const NONE: readonly number[] = [];
/** A key's run of codes this short is read in turn rather than searched. */
const SHORT_RUN = 8;

/**
 * An index as plain data, for a thread of the same catalog (`--jobs`: the thread that made it
 * hands it to the others, which then read it instead of keying every settlement again).
 */
export interface SettlementIndexData {
  /** The catalog's build id: an index is taken only by a thread of the same build. */
  build: string;
  /** The keys in the order of their numbers, each ended by a line feed (no key holds one). */
  keys: string;
  start: Int32Array;
  codes: Int32Array;
  /** Each distinct settlement name's key number (`settlementNameIndex` → key). */
  keyOfName: Int32Array;
}

export class SettlementIndex {
  private constructor(
    private readonly catalog: Catalog,
    /** The keys, by their numbers. */
    private readonly keys: KeyTable,
    /** The codes of key `k` are `codes[start[k]]` to `codes[start[k + 1] - 1]`. */
    private readonly start: Int32Array,
    /** Code indices, by key, then municipality, then code; a code once per key. */
    private readonly codes: Int32Array,
    /** The key number of each of the catalog's distinct settlement names (`settlementNameIndex`). */
    private readonly keyOfName: Int32Array,
  ) {}

  /**
   * Keys every settlement of the catalog (once per distinct name), each also by its other keys
   * (`otherKeys`: `Monterrey Centro` in Monterrey and `Centro (Área 1)` by `centro`), so that a
   * record that writes `Centro` names them too.
   */
  static build(catalog: Catalog): SettlementIndex {
    const keys = new KeyTableBuilder();
    const municipalities = catalog.municipalityCount;
    // The keys of the catalog's distinct names, each read once; per settlement, its key's number
    // (-1: a code's second settlement of one key), and the numbers of its other keys.
    let names = 0;
    const rows = catalog.codeCount ? catalog.settlementEndOf(catalog.codeCount - 1) : 0;
    for (let s = 0; s < rows; s++) names = Math.max(names, catalog.settlementNameIndex(s) + 1);
    const keyOfName = new Int32Array(names).fill(-1);
    const readAgain = new Uint8Array(names);
    const keyOfRow = new Int32Array(rows).fill(-1);
    const counts: number[] = [];
    const lastCode: number[] = [];
    // Rows known by other keys too, with each such key's number, in the order of the walk.
    const otherRows: number[] = [];
    const otherNumbers: number[] = [];
    const cityKeys = new Map<string, string>();
    /** A key's number, the next one for a key not seen before. */
    const numberOf = (key: string): number => {
      const k = keys.numberOf(key);
      if (k === counts.length) {
        counts.push(0);
        lastCode.push(-1);
      }
      return k;
    };
    for (let m = 0; m < municipalities; m++) {
      const runs = catalog.codeRunsOfMunicipality(m);
      const municipalityKey = settlementKey(catalog.nameOfMunicipality(m));
      for (let r = 0; r < runs.length; r += 2) {
        for (let code = runs[r]!; code < runs[r + 1]!; code++) {
          const city = catalog.cityOf(code);
          let cityKey = cityKeys.get(city);
          if (cityKey === undefined) cityKeys.set(city, (cityKey = settlementKey(city)));
          for (let s = catalog.settlementStartOf(code), end = catalog.settlementEndOf(code); s < end; s++) {
            const name = catalog.settlementNameIndex(s);
            let k = keyOfName[name]!;
            if (k < 0) {
              const text = catalog.settlementNameAt(name);
              keyOfName[name] = k = numberOf(settlementKey(text));
              if (readsText(text)) readAgain[name] = 1;
            }
            if (lastCode[k] !== code) {
              lastCode[k] = code;
              counts[k]!++;
              keyOfRow[s] = k;
            }
            // The name's text is read again only for the few whose other keys it gives (`readsText`).
            const others = otherKeys(readAgain[name] ? catalog.settlementNameAt(name) : '', keys.keyAt(k), municipalityKey, cityKey);
            for (let i = 0; i < others.length; i++) {
              const o = numberOf(others[i]!);
              if (lastCode[o] === code) continue;
              lastCode[o] = code;
              counts[o]!++;
              otherRows.push(s);
              otherNumbers.push(o);
            }
          }
        }
      }
    }
    const start = new Int32Array(counts.length + 1);
    for (let k = 0; k < counts.length; k++) start[k + 1] = start[k]! + counts[k]!;
    const codes = new Int32Array(start[counts.length]!);
    const next = start.slice(0, counts.length);
    // The same walk again: each key's codes come out by municipality, then by code.
    let other = 0;
    for (let m = 0; m < municipalities; m++) {
      const runs = catalog.codeRunsOfMunicipality(m);
      for (let r = 0; r < runs.length; r += 2) {
        for (let code = runs[r]!; code < runs[r + 1]!; code++) {
          for (let s = catalog.settlementStartOf(code), end = catalog.settlementEndOf(code); s < end; s++) {
            const k = keyOfRow[s]!;
            if (k >= 0) codes[next[k]!++] = code;
            for (; other < otherRows.length && otherRows[other] === s; other++) codes[next[otherNumbers[other]!]!++] = code;
          }
        }
      }
    }
    // Settlement keys are words of letters and digits between single spaces: none holds a line feed.
    const table = keys.table();
    if (!table) throw new Error('a settlement key holds a line feed');
    return new SettlementIndex(catalog, table, start, codes, keyOfName);
  }

  /** The index another thread made of the same build of the catalog; undefined for another build (or a catalog without one). */
  static fromData(catalog: Catalog, data: SettlementIndexData): SettlementIndex | undefined {
    const build = buildIdOf(catalog);
    if (build === undefined || build !== data.build) return undefined;
    const keys = KeyTable.fromText(data.keys);
    return keys && keys.size + 1 === data.start.length ? new SettlementIndex(catalog, keys, data.start, data.codes, data.keyOfName) : undefined;
  }

  /** This index as plain data (undefined for a catalog without a build id, which no other thread could check). */
  toData(): SettlementIndexData | undefined {
    const build = buildIdOf(this.catalog);
    if (build === undefined) return undefined;
    return { build, keys: this.keys.text, start: this.start, codes: this.codes, keyOfName: this.keyOfName };
  }

  /**
   * The key of settlement (row) `s`, as the index holds it: read, not made again, by what keys
   * the catalog's names by municipality (parse/loose-names).
   */
  keyOfSettlement(s: number): string {
    return this.keys.keyAt(this.keyOfName[this.catalog.settlementNameIndex(s)]!);
  }

  /**
   * The codes (ascending, each once) that have a settlement of key `key` within the
   * municipalities given (any, when empty) or the state given (any, when -1); a fresh array,
   * or a shared empty one.
   */
  codesOf(key: string, municipalities: readonly number[], state: number): readonly number[] {
    const k = this.keys.numberOf(key);
    if (k < 0) return NONE;
    const from = this.start[k]!;
    const to = this.start[k + 1]!;
    const catalog = this.catalog;
    if (municipalities.length === 1) {
      const m = municipalities[0]!;
      // Most keys have a code or a few: read them in turn; a common name's run is searched.
      const at = to - from <= SHORT_RUN ? from : this.first(from, to, (code) => catalog.municipalityIndexOf(code) >= m);
      let codes: number[] | undefined;
      for (let i = at; i < to; i++) {
        const own = catalog.municipalityIndexOf(this.codes[i]!);
        if (own === m) (codes ??= []).push(this.codes[i]!);
        else if (own > m) break;
      }
      return codes ?? NONE;
    }
    if (municipalities.length) {
      const codes: number[] = [];
      for (const m of municipalities) {
        const at = this.first(from, to, (code) => catalog.municipalityIndexOf(code) >= m);
        for (let i = at; i < to && catalog.municipalityIndexOf(this.codes[i]!) === m; i++) codes.push(this.codes[i]!);
      }
      return codes.length ? codes.sort(ascending) : NONE;
    }
    if (state < 0) return this.collect(from, to);
    // A state's municipalities are numbered one after the other (by `c_estado`, then `c_mnpio`).
    const stateOf = (code: number) => catalog.stateOfMunicipality(catalog.municipalityIndexOf(code));
    return this.collect(this.first(from, to, (code) => stateOf(code) >= state), this.first(from, to, (code) => stateOf(code) > state));
  }

  /** The first place in [from, to) whose code `after` accepts (`after` is false, then true, along the run), else `to`. */
  private first(from: number, to: number, after: (code: number) => boolean): number {
    let low = from;
    let high = to;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (after(this.codes[middle]!)) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  /** The codes of [from, to), in a fresh array, sorted (they span municipalities). */
  private collect(from: number, to: number): readonly number[] {
    if (from >= to) return NONE;
    const codes: number[] = [];
    for (let i = from; i < to; i++) codes.push(this.codes[i]!);
    return codes.sort(ascending);
  }
}

function ascending(a: number, b: number): number {
  return a - b;
}
