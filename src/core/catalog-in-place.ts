/**
 * The catalog read in place: the artifact's columns (catalog-columns.ts) viewed where they lie,
 * and pure lookups over them. Lookups never touch the disk. Strings are decoded the first time
 * they are asked for, and each postal code's answer parts (names, municipality, state, city)
 * are gathered once, on its first lookup, and kept: an answer then costs only the objects
 * handed to the caller.
 *
 * What is checked when. At load: the head's checksum and what catalog-columns.ts checks. At
 * first use: each page's checksum where a page is first read (pages.ts), the per-code columns
 * (a code's municipality, city, settlements and their names and types) when that code is first
 * read, and each string-table entry when first decoded. A code's first lookup reads and checks
 * only its own pages; every other method has every page read and checked, and the whole small
 * columns, before its first read (`#whole`). A damaged page or index throws the ArtifactError
 * that says to rebuild (never a wrong or undefined answer).
 */
import { ArtifactError, REBUILD } from './artifact-error.js';
import { parseHistory, type HistoryData } from './catalog-history.js';
import { checkedColumns, type ArtifactSections } from './catalog-columns.js';
import type { CatalogReader } from './catalog-reader.js';
import { ENTRY_CIUDAD, ENTRY_ESTADO, ENTRY_MUNICIPIO, ENTRY_NAMES, entrySettlements, type CodeEntry } from './code-entry.js';
import { type CodeTrie, postalCodeNumber } from './code-trie.js';
import { codesOfRuns, mergeRuns } from './code-runs.js';
import { copyStateMembers } from './copy-members.js';
import { CODE_LENGTH, SETTLEMENT_BYTES, SETTLEMENT_NAME_BITS, SETTLEMENT_NAME_MASK, type ArtifactHeader, type UintArray } from './format.js';
import { utf8Reader } from './layout.js';
import { Pages, type Fill } from './pages.js';
import type { Strings } from './strings.js';

export class Catalog implements CatalogReader {
  readonly header: ArtifactHeader;
  /** Number of postal codes; code indices run from 0 to `codeCount - 1`, ascending. */
  readonly codeCount: number;
  /** Names the artifact in the errors of checks made at first use. */
  readonly path: string;
  readonly #states: Strings;
  readonly #municipalityNames: Strings;
  readonly #cities: Strings;
  readonly #types: Strings;
  readonly #names: Strings;
  readonly #stateKeys: UintArray;
  readonly #municipalityState: UintArray;
  readonly #municipalityKey: UintArray;
  readonly #municipalityName: UintArray;
  readonly #codeMunicipality: UintArray;
  readonly #codeCity: UintArray;
  /** Settlements of code `i` are `settlementStart[i]` to `settlementStart[i + 1]`. */
  readonly #settlementStart: UintArray;
  readonly #rows: number;
  /** 3 bytes per settlement, little-endian `name | type << 18`, read in place. */
  readonly #settlements: Uint8Array;
  /** The codes (code-trie.ts). */
  readonly #trie: CodeTrie;
  /** Which pages are read and checked. */
  readonly #pages: Pages;
  /** The checks of whole columns, run once with every page checked (undefined once run). */
  #wholeChecks: (() => void) | undefined;
  #settlementTotalChecked = false;
  /** Each settlement's rank in its municipality's catalog order; undefined when settlements are already in that order. */
  readonly #settlementRanks: UintArray | undefined;
  /** Where each state's cities start in `stateCities` (one more entry than states). */
  readonly #stateCityStart: UintArray;
  readonly #stateCities: UintArray;
  /** The history section's bytes, parsed on the first `history()`. */
  readonly #historyBytes: Uint8Array | undefined;
  #historyData: HistoryData | undefined;
  /** Each code's entry once gathered (the array itself made on the first lookup). */
  #entries: (CodeEntry | undefined)[] | undefined;
  /** The same entries by code number (`"09810"` at 9810), each set by postalCodeEntry; made with the trie's direct table. */
  #entriesByNumber: (CodeEntry | undefined)[] | undefined;
  #stateNameList: string[] | undefined;
  #stateMunicipalities: string[][] | undefined;
  /** Built on first need: code runs `[start, end, start, end, ...]` per municipality and per state. */
  #municipalityRuns: number[][] | undefined;
  #stateRuns: number[][] | undefined;
  /** Distinct settlement names per municipality (by index) and per group of them (by key), kept once made. */
  readonly #settlementNameLists = new Map<number | string, string[]>();
  /** Merged code runs of groups of municipalities (by key), kept once made. */
  readonly #groupRuns = new Map<string, number[]>();
  /**
   * Answers that are objects, made once by Object.fromEntries and copied by spreading: V8 keeps
   * such an object in fast mode, so a copy of 570 members costs about 1 microsecond, where building one
   * member by member costs some 50 times that (see copy-members.ts).
   */
  #stateKeyObject: Record<string, string> | undefined;
  readonly #municipalityKeyObjects: Record<string, string>[] = [];
  readonly #stateCityLists: string[][] = [];

  /**
   * Throws an Error saying what does not fit when the parts of the artifact do not fit together.
   * `file` is the buffer the artifact's sections view; `fill` reads its bytes where a lazily read
   * source has not yet (pages.ts).
   */
  constructor(artifact: ArtifactSections, path: string, file: Uint8Array, fill?: Fill) {
    this.header = artifact.header;
    this.path = path;
    const fail = (reason: string) => this.#damaged(reason);
    this.#pages = new Pages(file, artifact.pages, fill, fail);
    const c = checkedColumns(artifact, this.#pages, fail);
    this.#wholeChecks = c.wholeChecks;
    this.codeCount = c.codes;
    this.#rows = c.rows;
    this.#states = c.states;
    this.#municipalityNames = c.municipalityNames;
    this.#cities = c.cities;
    this.#types = c.types;
    this.#names = c.names;
    this.#stateKeys = c.stateKeys;
    this.#municipalityState = c.municipalityState;
    this.#municipalityKey = c.municipalityKey;
    this.#municipalityName = c.municipalityName;
    this.#codeMunicipality = c.codeMunicipality;
    this.#codeCity = c.codeCity;
    this.#settlementStart = c.settlementStart;
    this.#settlements = c.settlements;
    this.#settlementRanks = c.settlementRanks;
    this.#stateCityStart = c.stateCityStart;
    this.#stateCities = c.stateCities;
    this.#historyBytes = c.history;
    this.#trie = c.trie;
  }

  /**
   * Reads and checks the whole artifact now (every page, every whole-column check), as loading
   * did before pages: for a process that must refuse a damaged file before serving it (a server
   * swapping catalogs). Throws the ArtifactError of a damaged artifact.
   */
  checkWhole(): void {
    this.#whole();
    this.#trie.checkWhole();
  }

  /** Every page read and checked, and the whole small columns: before any read but a code's first lookup's. */
  #whole(): void {
    if (this.#wholeChecks === undefined) return;
    this.#pages.all();
    if (!this.#settlementTotalChecked) this.#checkSettlementTotal();
    this.#wholeChecks();
    this.#wholeChecks = undefined;
  }

  /** Throws the ArtifactError of a damaged artifact (a check made at first use failed). */
  #damaged(reason: string): never {
    throw new ArtifactError(this.path, `is damaged (${reason}); ${REBUILD}`);
  }

  /** The history section (codes of earlier catalogs), read on first use; undefined when the artifact has none. */
  history(): HistoryData | undefined {
    if (!this.#historyBytes) return undefined;
    this.#whole();
    try {
      return (this.#historyData ??= parseHistory(this.#historyBytes, utf8Reader(this.#historyBytes)));
    } catch (error) {
      return this.#damaged((error as Error).message === 'the history section is not one' ? 'the history section is not one' : 'the history section is not JSON');
    }
  }

  /** Index of a 5-digit ASCII code, or -1 when the catalog has no such code. */
  codeIndex(postalCode: string): number {
    return this.#trie.codeIndex(postalCode);
  }

  /** The postal codes starting with `digits` (1 to 5 ASCII digits), ascending. */
  codesStartingWith(digits: string): string[] {
    return this.#trie.codesStartingWith(digits);
  }

  /** Every postal code as a 5-character string, ascending (shared: callers copy before handing it out). */
  postalCodes(): readonly string[] {
    return this.#trie.postalCodes();
  }

  /** Number of municipalities; indices run from 0, ordered by (`c_estado`, `c_mnpio`). */
  get municipalityCount(): number {
    return this.#municipalityState.length;
  }

  /** Municipality index of the code's first row. */
  municipalityIndexOf(code: number): number {
    this.#pages.view(this.#codeMunicipality, code, code + 1);
    const municipality = this.#codeMunicipality[code]!;
    return municipality < this.#municipalityState.length ? municipality : this.#damaged(`a code names a municipality beyond its table (${municipality} of ${this.#municipalityState.length})`);
  }

  /** Municipality `m`: its keys (`c_estado`, `c_mnpio`), its name and its state's. */
  municipalityEntry(m: number): { stateKey: number; key: number; name: string; state: string } {
    const pages = this.#pages;
    pages.view(this.#municipalityState, m, m + 1);
    pages.view(this.#municipalityKey, m, m + 1);
    const stateIndex = this.#municipalityState[m]!;
    // The state's name first: it refuses an index beyond the table, before the key is read by it.
    const state = this.#states.get(stateIndex);
    pages.view(this.#stateKeys, stateIndex, stateIndex + 1);
    return { stateKey: this.#stateKeys[stateIndex]!, key: this.#municipalityKey[m]!, name: this.nameOfMunicipality(m), state };
  }

  /** The first settlement of code `code`; its settlements end at `settlementEndOf(code)`, after at least one. */
  settlementStartOf(code: number): number {
    if (!this.#settlementTotalChecked) this.#checkSettlementTotal();
    this.#pages.view(this.#settlementStart, code, code + 2);
    const start = this.#settlementStart[code]!;
    if (!(start < this.#settlementStart[code + 1]! && this.#settlementStart[code + 1]! <= this.#rows)) this.#damaged('settlement counts do not add up');
    return start;
  }

  settlementEndOf(code: number): number {
    if (!this.#settlementTotalChecked) this.#checkSettlementTotal();
    this.#pages.view(this.#settlementStart, code, code + 2);
    const end = this.#settlementStart[code + 1]!;
    if (!(this.#settlementStart[code]! < end && end <= this.#rows)) this.#damaged('settlement counts do not add up');
    return end;
  }

  /** The settlement starts' first and last: counts that do not add up would hand one code's settlements to another. */
  #checkSettlementTotal(): void {
    const starts = this.#settlementStart;
    this.#pages.view(starts, 0, 1);
    this.#pages.view(starts, this.codeCount, this.codeCount + 1);
    if (starts[0] !== 0 || starts[this.codeCount] !== this.#rows) this.#damaged('settlement counts do not add up to the row count');
    this.#settlementTotalChecked = true;
  }

  #settlement(settlement: number): number {
    const at = settlement * SETTLEMENT_BYTES;
    const bytes = this.#settlements;
    this.#pages.view(bytes, at, at + SETTLEMENT_BYTES);
    return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
  }

  settlementName(settlement: number): string {
    return this.#names.get(this.#settlement(settlement) & SETTLEMENT_NAME_MASK);
  }

  settlementType(settlement: number): string {
    return this.#types.get(this.#settlement(settlement) >>> SETTLEMENT_NAME_BITS);
  }

  /**
   * A code's answer parts (see CodeEntry), gathered on its first lookup and kept: about 250
   * bytes a code with its decoded strings, 8 MB of heap once every code has been asked for.
   * Its columns are checked here, where they are first read.
   */
  codeEntry(code: number): CodeEntry {
    return (this.#entries ??= new Array<CodeEntry | undefined>(this.codeCount))[code] ?? this.#makeEntry(code);
  }

  /**
   * `codeEntry(codeIndex(cp))`, or undefined when `cp` is not a code of the catalog (not 5 ASCII
   * digits, or unknown): info_cp's path. Once the process has looked up many codes (the trie's
   * direct table is made), a code already asked for is found with one read of a table by code
   * number (800 KB of heap) instead of two (the direct table, then the entries).
   */
  postalCodeEntry(cp: string): CodeEntry | undefined {
    const number = postalCodeNumber(cp);
    if (number < 0) return undefined;
    return this.#entriesByNumber?.[number] ?? this.#firstPostalCodeEntry(cp, number);
  }

  #firstPostalCodeEntry(cp: string, number: number): CodeEntry | undefined {
    const code = this.#trie.codeIndex(cp);
    if (code < 0) return undefined;
    const entry = this.codeEntry(code);
    if (this.#entriesByNumber === undefined && this.#trie.directTableMade) this.#entriesByNumber = new Array<CodeEntry | undefined>(10 ** CODE_LENGTH);
    if (this.#entriesByNumber !== undefined) this.#entriesByNumber[number] = entry;
    return entry;
  }

  #makeEntry(code: number): CodeEntry {
    if (!(code >= 0 && code < this.codeCount)) throw new RangeError(`no code ${code} in the catalog`);
    const municipality = this.municipalityIndexOf(code);
    this.#pages.view(this.#codeCity, code, code + 1);
    const city = this.#codeCity[code]!;
    if (city >= this.#cities.size) this.#damaged(`a code names a city beyond its table (${city} of ${this.#cities.size})`);
    const start = this.settlementStartOf(code);
    const count = this.settlementEndOf(code) - start;
    // Made at its exact size: an array grown by push keeps spare room, a third more memory.
    const entry = new Array<string>(ENTRY_NAMES + 2 * count);
    entry[ENTRY_MUNICIPIO] = this.nameOfMunicipality(municipality);
    this.#pages.view(this.#municipalityState, municipality, municipality + 1);
    entry[ENTRY_ESTADO] = this.#states.get(this.#municipalityState[municipality]!);
    entry[ENTRY_CIUDAD] = this.#cities.get(city);
    for (let i = 0; i < count; i++) {
      const packed = this.#settlement(start + i);
      const name = packed & SETTLEMENT_NAME_MASK;
      const type = packed >>> SETTLEMENT_NAME_BITS;
      if (name >= this.#names.size || type >= this.#types.size) this.#damaged('a settlement names a name or type that is not in its table');
      entry[ENTRY_NAMES + i] = this.#names.get(name);
      entry[ENTRY_NAMES + count + i] = this.#types.get(type);
    }
    this.#entries![code] = entry;
    return entry;
  }

  /** Municipality of the code's first row. */
  municipalityOf(code: number): string {
    return this.codeEntry(code)[ENTRY_MUNICIPIO]!;
  }

  /** State of the code's first row. */
  stateOf(code: number): string {
    return this.codeEntry(code)[ENTRY_ESTADO]!;
  }

  /** First non-empty city of the code, or `""`. */
  cityOf(code: number): string {
    return this.codeEntry(code)[ENTRY_CIUDAD]!;
  }

  /** State names ordered by `c_estado` (shared: callers copy before handing it out). */
  stateNames(): readonly string[] {
    return (this.#stateNameList ??= this.#states.all());
  }

  /** Municipality names of state `state` (its index), each once, ordered by `c_mnpio`. */
  municipalitiesOf(state: number): readonly string[] {
    if (!this.#stateMunicipalities) {
      this.#whole();
      const byState: string[][] = Array.from({ length: this.#states.size }, () => []);
      for (let m = 0; m < this.#municipalityState.length; m++) {
        const names = byState[this.#municipalityState[m]!]!;
        const name = this.#municipalityNames.get(this.#municipalityName[m]!);
        if (!names.includes(name)) names.push(name);
      }
      this.#stateMunicipalities = byState;
    }
    return this.#stateMunicipalities[state] ?? [];
  }

  /** The number of states; state indices run from 0, ordered by `c_estado`. */
  get stateCount(): number {
    return this.#states.size;
  }

  /** The state whose `c_estado` is `key`, or -1. */
  stateWithKey(key: number): number {
    this.#pages.view(this.#stateKeys, 0, this.#stateKeys.length);
    for (let state = 0; state < this.#stateKeys.length; state++) if (this.#stateKeys[state] === key) return state;
    return -1;
  }

  /** Every state's name to its two-digit key, in key order (a fresh object). */
  stateKeysByName(): Record<string, string> {
    this.#pages.view(this.#stateKeys, 0, this.#stateKeys.length);
    this.#stateKeyObject ??= Object.fromEntries(this.stateNames().map((name, state) => [name, twoDigits(this.#stateKeys[state]!)]));
    return { ...this.#stateKeyObject };
  }

  nameOfMunicipality(municipality: number): string {
    this.#pages.view(this.#municipalityName, municipality, municipality + 1);
    return this.#municipalityNames.get(this.#municipalityName[municipality]!);
  }

  /** The state index of a municipality. */
  stateOfMunicipality(municipality: number): number {
    this.#whole();
    return this.#municipalityState[municipality]!;
  }

  /** A state's municipality names to their three-digit keys, ordered by key (a fresh object). */
  municipalityKeysOf(state: number): Record<string, string> {
    let keys = this.#municipalityKeyObjects[state];
    if (!keys) {
      this.#whole();
      const entries: [string, string][] = [];
      const seen = new Set<string>();
      for (let m = 0; m < this.#municipalityState.length; m++) {
        if (this.#municipalityState[m] !== state) continue;
        const name = this.nameOfMunicipality(m);
        // Should one state ever name two municipalities alike, the first key keeps the name.
        if (seen.has(name)) continue;
        seen.add(name);
        entries.push([name, String(this.#municipalityKey[m]!).padStart(3, '0')]);
      }
      keys = this.#municipalityKeyObjects[state] = Object.fromEntries(entries);
    }
    return copyStateMembers(state, keys);
  }

  /** A state's city names, each once, ordered by `c_cve_ciudad` (a fresh array). */
  citiesOf(state: number): string[] {
    let cities = this.#stateCityLists[state];
    if (!cities) {
      this.#whole();
      const start = this.#stateCityStart[state]!;
      cities = this.#stateCityLists[state] = Array.from({ length: this.#stateCityStart[state + 1]! - start }, (_, i) => this.#cities.get(this.#stateCities[start + i]!));
    }
    return cities.slice();
  }

  /** Code `code` as a 5-character string. */
  postalCode(code: number): string {
    return this.postalCodes()[code]!;
  }

  /** The settlement names of a code in catalog order, as simplified `info_cp` lists them (a fresh array). */
  settlementNamesOf(code: number): string[] {
    const entry = this.codeEntry(code);
    return entry.slice(ENTRY_NAMES, ENTRY_NAMES + entrySettlements(entry));
  }

  /** Runs of consecutive code indices `[start, end, ...]` of a state, ascending. */
  codeRunsOfState(state: number): readonly number[] {
    if (!this.#stateRuns) {
      this.#whole();
      const municipalityRuns = this.#codeRunsByMunicipality();
      this.#stateRuns = Array.from({ length: this.#states.size }, () => []);
      // Municipalities are ordered by state, so each state's runs come out ascending once merged.
      for (let m = 0; m < municipalityRuns.length; m++) this.#stateRuns[this.#municipalityState[m]!]!.push(...municipalityRuns[m]!);
      this.#stateRuns = this.#stateRuns.map(mergeRuns);
    }
    return this.#stateRuns[state] ?? [];
  }

  /** Runs of consecutive code indices `[start, end, ...]` of a municipality, ascending. */
  codeRunsOfMunicipality(municipality: number): readonly number[] {
    return this.#codeRunsByMunicipality()[municipality] ?? [];
  }

  #codeRunsByMunicipality(): number[][] {
    if (!this.#municipalityRuns) {
      this.#whole();
      const runs: number[][] = Array.from({ length: this.#municipalityState.length }, () => []);
      for (let code = 0; code < this.codeCount; code++) {
        const own = runs[this.municipalityIndexOf(code)]!;
        if (own.length && own[own.length - 1] === code) own[own.length - 1] = code + 1;
        else own.push(code, code + 1);
      }
      this.#municipalityRuns = runs;
    }
    return this.#municipalityRuns;
  }

  /** The codes of a state, ascending, at most `limit` of them (a fresh array). */
  codesOfState(state: number, limit = Number.POSITIVE_INFINITY): string[] {
    return codesOfRuns(this.postalCodes(), this.codeRunsOfState(state), limit);
  }

  /** The codes of some municipalities (indices ascending), ascending, at most `limit` (a fresh array). */
  codesOfMunicipalities(municipalities: readonly number[], limit = Number.POSITIVE_INFINITY): string[] {
    return codesOfRuns(this.postalCodes(), this.#codeRunsOfMunicipalities(municipalities), limit);
  }

  /** Runs of consecutive code indices of some municipalities (indices ascending), merged, ascending. */
  #codeRunsOfMunicipalities(municipalities: readonly number[]): readonly number[] {
    if (municipalities.length === 1) return this.codeRunsOfMunicipality(municipalities[0]!);
    const key = municipalities.join(',');
    let runs = this.#groupRuns.get(key);
    if (!runs) this.#groupRuns.set(key, (runs = mergeRuns(municipalities.flatMap((m) => this.codeRunsOfMunicipality(m)))));
    return runs;
  }

  /**
   * The settlement names of some municipalities (indices ascending), each distinct name once,
   * in catalog order of its first occurrence (a fresh array; the list is made once and kept).
   * Each municipality's settlements come in its catalog order; several municipalities (one name
   * in several states) come one after the other in the order of their lowest code, which is
   * the catalog's in a catalog sorted by code.
   */
  settlementNamesOfMunicipalities(municipalities: readonly number[]): string[] {
    const key = municipalities.length === 1 ? municipalities[0]! : municipalities.join(',');
    let names = this.#settlementNameLists.get(key);
    if (!names) {
      this.#whole();
      const byFirstCode = [...municipalities].sort((a, b) => this.codeRunsOfMunicipality(a)[0]! - this.codeRunsOfMunicipality(b)[0]!);
      const seen = new Set<number>();
      names = [];
      for (const m of byFirstCode) {
        const runs = this.codeRunsOfMunicipality(m);
        const settlements: number[] = [];
        for (let r = 0; r < runs.length; r += 2) {
          for (let s = this.settlementStartOf(runs[r]!); s < this.settlementEndOf(runs[r + 1]! - 1); s++) settlements.push(s);
        }
        const ranks = this.#settlementRanks;
        if (ranks) settlements.sort((a, b) => ranks[a]! - ranks[b]!);
        for (const s of settlements) {
          const name = this.#settlement(s) & SETTLEMENT_NAME_MASK;
          if (seen.has(name)) continue;
          seen.add(name);
          names.push(this.#names.get(name));
        }
      }
      this.#settlementNameLists.set(key, names);
    }
    return names.slice();
  }

  /** The settlements of a code: indices from `settlementStartOf` to `settlementEndOf`. Names by index: */
  settlementNameIndex(settlement: number): number {
    return this.#settlement(settlement) & SETTLEMENT_NAME_MASK;
  }

  /** The name of settlement-name index `name` (see `settlementNameIndex`). */
  settlementNameAt(name: number): string {
    return this.#names.get(name);
  }
}

function twoDigits(key: number): string {
  return key < 10 ? `0${key}` : String(key);
}
