/**
 * The loaded catalog: the artifact's columns viewed in place (layout.ts), and pure lookups over
 * them. Lookups never touch the disk. Strings are decoded the first time they are asked for,
 * and each postal code's answer parts (names, municipality, state, city) are gathered once, on
 * its first lookup, and kept: an answer then costs only the objects handed to the caller.
 *
 * What is checked when. At load: the checksum, every section's size and kind, and each total
 * (string tables, settlement starts, state cities, the trie's levels); the small municipality
 * and state-city columns against their tables. At first use: the per-code columns (a code's
 * municipality, city, settlements and their names and types) when that code is first read,
 * and each string-table entry when first decoded. A damaged index there throws the
 * ArtifactError that says to rebuild (never a wrong or undefined answer); checking 300,000
 * indices at load instead would cost more than the rest of loading.
 */
import { crc32 } from './crc32.js';
import {
  CODE_LENGTH,
  FORMAT_NAME,
  FORMAT_VERSION,
  SETTLEMENT_BYTES,
  SETTLEMENT_NAME_BITS,
  SETTLEMENT_NAME_MASK,
  type ArtifactHeader,
  type UintArray,
} from './format.js';
import { parseHistory, type HistoryData } from './catalog-history.js';
import { COLUMNS, STRING_TABLES, openEnvelope, peekFormat, readPayload, utf8Reader, type ColumnName, type Section, type StringTableName } from './layout.js';
import { CodeTrie, postalCodeNumber } from './code-trie.js';
import { Strings } from './strings.js';
import { copyStateMembers } from './copy-members.js';

export { readArtifact } from './artifact-read.js';

/** The artifact at `path` is missing, unreadable, foreign, truncated or of another version. */
export class ArtifactError extends Error {
  override readonly name = 'ArtifactError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/**
 * Whether `error` is an ArtifactError of any copy of this module: the library's HTTP side is a
 * file of its own loaded at first use (dist/cpmx-http.js), with its own copy of the class, while
 * its source is the library's.
 */
export const isArtifactError = (error: unknown): error is ArtifactError => error instanceof Error && error.name === 'ArtifactError';

/** The official catalog's download page (format TXT, all states: CPdescargatxt.zip). */
export const CATALOG_URL = 'https://www.correosdemexico.gob.mx/SSLServicios/ConsultaCP/CodigoPostal_Exportar.aspx';
// Built by a call marked pure, so that a bundle which never uses it (cpmx/web) drops it and the URL:
// bundlers keep an unused template literal with a substitution, as if it might call a toString.
export const REBUILD = /* @__PURE__ */ (() => `run \`cpmx build\` to compile the catalog (\`npx cpmx download --out CPdescargatxt.zip\` fetches it from ${CATALOG_URL}; then \`npx cpmx build --source CPdescargatxt.zip --out FILE\` and CPMX_DATA=FILE keep the artifact outside node_modules)`)();

/**
 * A code's answer parts, gathered on its first lookup, in one array so that an answer reads one
 * object: `[municipio, estado, ciudad, ...names, ...types]`, its `n` settlements' names and
 * types in catalog order (`n` is `(length - 3) / 2`). Shared: answers copy out of it.
 */
export type CodeEntry = readonly string[];
export const ENTRY_MUNICIPIO = 0;
export const ENTRY_ESTADO = 1;
export const ENTRY_CIUDAD = 2;
/** Where the names start; the types start `n` after. */
export const ENTRY_NAMES = 3;

/** The number of settlements of a code entry. */
export function entrySettlements(entry: CodeEntry): number {
  return (entry.length - ENTRY_NAMES) >>> 1;
}

/** The artifact's header and sections as read from a file (see layout.ts). */
export interface ArtifactSections {
  header: ArtifactHeader;
  sections: Section[];
}

export class Catalog {
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
   * such an object in fast mode, so a copy of 570 members costs about 1 µs, where building one
   * member by member costs some 50 times that (see copy-members.ts).
   */
  #stateKeyObject: Record<string, string> | undefined;
  readonly #municipalityKeyObjects: Record<string, string>[] = [];
  readonly #stateCityLists: string[][] = [];

  /** Throws an Error saying what does not fit when the parts of the artifact do not fit together. */
  constructor({ header, sections }: ArtifactSections, path = 'the artifact') {
    this.header = header;
    this.path = path;
    expect(header !== null && typeof header === 'object', 'its header is not an object');
    expect(header.format === FORMAT_NAME && header.version === FORMAT_VERSION, 'its header does not match its envelope');
    const { codes, rows, states, municipalities } = header;
    for (const count of [codes, rows, states, municipalities]) expect(Number.isInteger(count) && count >= 0, 'its header does not count its parts');
    this.codeCount = codes;
    this.#rows = rows;
    const fail = (reason: string): never => this.#damaged(reason);
    const table = (name: StringTableName) => {
      const at = STRING_TABLES.indexOf(name) * 3;
      const [bytes, lengths, starts] = [sections[at]!, sections[at + 1]!, sections[at + 2]!];
      expect(bytes.kind === 1 && bytes.column instanceof Uint8Array, 'a string table is not bytes');
      return new Strings(bytes.column, unsigned(lengths, 'a string table'), unsigned(starts, 'a string table'), fail);
    };
    const column = (name: ColumnName, what: string) => unsigned(sections[STRING_TABLES.length * 3 + COLUMNS.indexOf(name)]!, what);
    const optional = (name: ColumnName, what: string) => {
      const section = sections[STRING_TABLES.length * 3 + COLUMNS.indexOf(name)]!;
      return section.kind === 0 ? undefined : unsigned(section, what);
    };
    this.#states = table('states');
    this.#municipalityNames = table('municipalities');
    this.#cities = table('cities');
    this.#types = table('types');
    this.#names = table('settlements');

    this.#stateKeys = column('stateKeys', 'the state keys');
    this.#municipalityState = column('municipalityState', 'a municipality names a state');
    this.#municipalityKey = column('municipalityKey', 'the municipality keys');
    this.#municipalityName = column('municipalityName', 'a municipality names a name');
    this.#codeMunicipality = column('codeMunicipality', 'a code names a municipality');
    this.#codeCity = column('codeCity', 'a code names a city');
    this.#settlementStart = column('settlementStart', 'settlement counts');
    this.#settlements = column('settlements', 'the settlements') as Uint8Array;
    this.#settlementRanks = optional('settlementRanks', 'a settlement ranks');
    this.#stateCityStart = column('stateCityStart', 'state cities are missing');
    this.#stateCities = column('stateCities', 'state cities are missing');
    const history = optional('history', 'the history section');
    expect(history === undefined || history instanceof Uint8Array, 'the history section is not bytes');
    this.#historyBytes = history;

    expect(this.#settlementStart.length === codes + 1 && this.#settlementStart[0] === 0, 'settlement counts do not match the code count');
    expect(this.#settlementStart[codes] === rows, 'settlement counts do not add up to the row count');
    expect(this.#settlements instanceof Uint8Array && this.#settlements.length === rows * SETTLEMENT_BYTES, 'settlement table has the wrong size');
    expect(this.#codeMunicipality.length === codes && this.#codeCity.length === codes, 'code columns have the wrong length');
    expect(
      this.#municipalityState.length === municipalities && this.#municipalityKey.length === municipalities && this.#municipalityName.length === municipalities,
      'municipality columns have the wrong length',
    );
    expect(this.#states.size === states && this.#stateKeys.length === states, 'state table has the wrong size');
    expect(this.#settlementRanks === undefined || this.#settlementRanks.length === rows, 'settlement ranks have the wrong length');
    expect(this.#stateCityStart.length === states + 1 && this.#stateCityStart[0] === 0, 'state cities are missing');
    expect(this.#stateCityStart[states] === this.#stateCities.length, 'state cities do not add up');
    this.#trie = new CodeTrie(column('trie', 'the trie'), column('trieFirstChild', 'the trie'), column('trieLevels', 'the trie'), codes, fail);

    // The small columns are checked whole; the per-code ones when a code is first read (codeEntry).
    expectBelow(this.#municipalityState, this.#states.size, 'a municipality names a state');
    expectBelow(this.#municipalityName, this.#municipalityNames.size, 'a municipality names a name');
    expectBelow(this.#stateCities, this.#cities.size, 'a state names a city');
    expectAscending(this.#stateCityStart, 'state cities do not add up');
    if (this.#settlementRanks) expectBelow(this.#settlementRanks, rows, 'a settlement ranks');
  }

  /** Throws the ArtifactError of a damaged artifact (a check made at first use failed). */
  #damaged(reason: string): never {
    throw new ArtifactError(this.path, `is damaged (${reason}); ${REBUILD}`);
  }

  /** The history section (codes of earlier catalogs), read on first use; undefined when the artifact has none. */
  history(): HistoryData | undefined {
    if (!this.#historyBytes) return undefined;
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
    const municipality = this.#codeMunicipality[code]!;
    return municipality < this.#municipalityState.length ? municipality : this.#damaged(`a code names a municipality beyond its table (${municipality} of ${this.#municipalityState.length})`);
  }

  /** Municipality `m`: its keys (`c_estado`, `c_mnpio`), its name and its state's. */
  municipalityEntry(m: number): { stateKey: number; key: number; name: string; state: string } {
    const state = this.#municipalityState[m]!;
    return { stateKey: this.#stateKeys[state]!, key: this.#municipalityKey[m]!, name: this.#municipalityNames.get(this.#municipalityName[m]!), state: this.#states.get(state) };
  }

  /** The first settlement of code `code`; its settlements end at `settlementEndOf(code)`, after at least one. */
  settlementStartOf(code: number): number {
    const start = this.#settlementStart[code]!;
    if (!(start < this.#settlementStart[code + 1]! && this.#settlementStart[code + 1]! <= this.#rows)) this.#damaged('settlement counts do not add up');
    return start;
  }

  settlementEndOf(code: number): number {
    const end = this.#settlementStart[code + 1]!;
    if (!(this.#settlementStart[code]! < end && end <= this.#rows)) this.#damaged('settlement counts do not add up');
    return end;
  }

  #settlement(settlement: number): number {
    const at = settlement * SETTLEMENT_BYTES;
    const bytes = this.#settlements;
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
    const city = this.#codeCity[code]!;
    if (city >= this.#cities.size) this.#damaged(`a code names a city beyond its table (${city} of ${this.#cities.size})`);
    const start = this.settlementStartOf(code);
    const count = this.settlementEndOf(code) - start;
    // Made at its exact size: an array grown by push keeps spare room, a third more memory.
    const entry = new Array<string>(ENTRY_NAMES + 2 * count);
    entry[ENTRY_MUNICIPIO] = this.#municipalityNames.get(this.#municipalityName[municipality]!);
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
    for (let state = 0; state < this.#stateKeys.length; state++) if (this.#stateKeys[state] === key) return state;
    return -1;
  }

  /** Every state's name to its two-digit key, in key order (a fresh object). */
  stateKeysByName(): Record<string, string> {
    this.#stateKeyObject ??= Object.fromEntries(this.stateNames().map((name, state) => [name, twoDigits(this.#stateKeys[state]!)]));
    return { ...this.#stateKeyObject };
  }

  nameOfMunicipality(municipality: number): string {
    return this.#municipalityNames.get(this.#municipalityName[municipality]!);
  }

  /** The state index of a municipality. */
  stateOfMunicipality(municipality: number): number {
    return this.#municipalityState[municipality]!;
  }

  /** A state's municipality names to their three-digit keys, ordered by key (a fresh object). */
  municipalityKeysOf(state: number): Record<string, string> {
    let keys = this.#municipalityKeyObjects[state];
    if (!keys) {
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
    return this.#codesOfRuns(this.codeRunsOfState(state), limit);
  }

  /** The codes of some municipalities (indices ascending), ascending, at most `limit` (a fresh array). */
  codesOfMunicipalities(municipalities: readonly number[], limit = Number.POSITIVE_INFINITY): string[] {
    return this.#codesOfRuns(this.#codeRunsOfMunicipalities(municipalities), limit);
  }

  /** Runs of consecutive code indices of some municipalities (indices ascending), merged, ascending. */
  #codeRunsOfMunicipalities(municipalities: readonly number[]): readonly number[] {
    if (municipalities.length === 1) return this.codeRunsOfMunicipality(municipalities[0]!);
    const key = municipalities.join(',');
    let runs = this.#groupRuns.get(key);
    if (!runs) this.#groupRuns.set(key, (runs = mergeRuns(municipalities.flatMap((m) => this.codeRunsOfMunicipality(m)))));
    return runs;
  }

  #codesOfRuns(runs: readonly number[], limit: number): string[] {
    const codes = this.postalCodes();
    if (runs.length === 2) return codes.slice(runs[0], Math.min(runs[1]!, runs[0]! + limit));
    const out: string[] = [];
    for (let r = 0; r < runs.length && out.length < limit; r += 2) {
      for (let code = runs[r]!; code < runs[r + 1]! && out.length < limit; code++) out.push(codes[code]!);
    }
    return out;
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

/** Sorts runs `[start, end, ...]` by start and joins the ones that touch. */
function mergeRuns(runs: readonly number[]): number[] {
  const pairs: [number, number][] = [];
  for (let r = 0; r < runs.length; r += 2) pairs.push([runs[r]!, runs[r + 1]!]);
  pairs.sort((a, b) => a[0] - b[0]);
  const merged: number[] = [];
  for (const [start, end] of pairs) {
    if (merged.length && merged[merged.length - 1] === start) merged[merged.length - 1] = end;
    else merged.push(start, end);
  }
  return merged;
}

function twoDigits(key: number): string {
  return key < 10 ? `0${key}` : String(key);
}

function expect(condition: boolean, reason: string): asserts condition {
  if (!condition) throw new Error(reason);
}

/** A section that must be an unsigned integer column. */
function unsigned(section: Section, what: string): UintArray {
  if (!section.column) throw new Error(`${what}: the column is ${section.kind === 0 ? 'missing' : 'not an unsigned integer column'}`);
  return section.column;
}

/** Every value of an index column is below `size` (the length of what it indexes). */
function expectBelow(column: UintArray, size: number, what: string): void {
  let max = 0;
  for (let i = 0; i < column.length; i++) if (column[i]! > max) max = column[i]!;
  expect(column.length === 0 || max < size, `${what} beyond its table (${max} of ${size})`);
}

function expectAscending(column: UintArray, what: string): void {
  for (let i = 1; i < column.length; i++) expect(column[i - 1]! <= column[i]!, what);
}

/**
 * The payload checksum of a catalog decoded from a file's bytes (its envelope's CRC-32), kept on
 * the catalog under a registered symbol rather than in this module: the library's HTTP side is a
 * file of its own with its own copy of this module (scripts/bundle.mjs), and reads it too.
 */
const CHECKSUM = Symbol.for('cpmx.catalogChecksum');

/**
 * The build id of a decoded catalog: its artifact's CRC-32 (over everything but the envelope,
 * the header with its build time included), as 8 hex digits. Every build that changes a byte
 * gets another; undefined for a catalog not decoded from bytes.
 */
export function buildIdOf(catalog: Catalog): string | undefined {
  const checksum = (catalog as unknown as Record<symbol, number | undefined>)[CHECKSUM];
  return checksum === undefined ? undefined : checksum.toString(16).padStart(8, '0');
}

export interface DecodeOptions {
  /** The CRC-32 to check the payload with; Node's zlib.crc32 is faster than the portable one. */
  crc32?: ((bytes: Uint8Array) => number) | undefined;
}

/**
 * Opens an artifact from its bytes, reading them in place (they must not change after); `path`
 * names it in errors. The version is read first, so another version gets its own message; the
 * checksum is checked before anything else is read, so a damaged file is refused.
 */
export function decodeCatalog(bytes: Uint8Array, path: string, options: DecodeOptions = {}): Catalog {
  const named = peekFormat(bytes);
  if (!named) throw new ArtifactError(path, `is truncated or not a cpmx artifact; ${REBUILD}`);
  if (named.format !== FORMAT_NAME) throw new ArtifactError(path, `is not a cpmx artifact; ${REBUILD}`);
  if (named.version !== FORMAT_VERSION) {
    throw new ArtifactError(path, `is an artifact of format version ${String(named.version)}, and this cpmx reads version ${FORMAT_VERSION}; ${REBUILD}`);
  }
  const envelope = openEnvelope(bytes);
  if (!envelope) throw new ArtifactError(path, `is truncated or not a cpmx artifact; ${REBUILD}`);
  if ((options.crc32 ?? crc32)(envelope.payload) !== envelope.crc32) {
    throw new ArtifactError(path, `is damaged (its checksum does not match: it changed after it was built); ${REBUILD}`);
  }
  // Columns are viewed in place at offsets aligned from the file's first byte: bytes that do not
  // start at a multiple of 4 in their buffer (a slice of a larger one) are copied once.
  const file = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  try {
    const catalog = new Catalog(readPayload(file), path);
    Object.defineProperty(catalog, CHECKSUM, { value: envelope.crc32 });
    return catalog;
  } catch (error) {
    if (error instanceof ArtifactError) throw error;
    throw new ArtifactError(path, `is damaged (${(error as Error).message}); ${REBUILD}`);
  }
}
