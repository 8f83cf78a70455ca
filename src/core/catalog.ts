/**
 * The loaded catalog: the artifact decoded into flat typed arrays, and pure lookups over it.
 * Lookups never touch the disk; strings are sliced out of their table the first time they
 * are asked for and kept, so loading stays cheap and repeated answers allocate only
 * the answer itself.
 */
import { Unpackr } from 'msgpackr/unpack';
import { crc32 } from './crc32.js';
import {
  CODE_LENGTH,
  FORMAT_NAME,
  FORMAT_VERSION,
  SETTLEMENT_BYTES,
  SETTLEMENT_NAME_BITS,
  SETTLEMENT_NAME_MASK,
  MSGPACK_OPTIONS,
  stringTableText,
  type Artifact,
  type ArtifactFile,
  type ArtifactHeader,
  type StringTable,
  type UintArray,
} from './format.js';
import { copyStateMembers } from './copy-members.js';

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

/** The official catalog's download page (format TXT, all states: CPdescargatxt.zip). */
export const CATALOG_URL = 'https://www.correosdemexico.gob.mx/SSLServicios/ConsultaCP/CodigoPostal_Exportar.aspx';
export const REBUILD = `run \`cpmx build\` to compile the catalog (\`npx cpmx download --out CPdescargatxt.zip\` fetches it from ${CATALOG_URL}; then \`npx cpmx build --source CPdescargatxt.zip --out FILE\` and CPMX_DATA=FILE keep the artifact outside node_modules)`;

// The unpacker alone (bundled into dist/, see scripts/bundle.mjs): no packer, streams or native add-on.
const unpackr = new Unpackr(MSGPACK_OPTIONS);

/** A string table whose entries are materialised on first use. */
class Strings {
  readonly size: number;
  private readonly starts: Uint32Array;
  private readonly cache: (string | undefined)[];
  private readonly text: string;

  constructor(table: StringTable) {
    this.text = stringTableText(table);
    const lengths = scanColumn(table.lengths, 'a string table');
    this.size = table.lengths.length;
    this.starts = lengths.sums;
    expect(lengths.total === this.text.length, 'a string table does not match its lengths');
    this.cache = new Array<string | undefined>(this.size);
  }

  get(i: number): string {
    return this.cache[i] ?? (this.cache[i] = this.text.slice(this.starts[i], this.starts[i + 1]));
  }

  all(): string[] {
    return Array.from({ length: this.size }, (_, i) => this.get(i));
  }
}

/** Set bits of every 10-bit mask, for walking the trie by rank. */
const POPCOUNT = new Uint8Array(1 << 10);
for (let mask = 1; mask < POPCOUNT.length; mask++) POPCOUNT[mask] = (mask & 1) + POPCOUNT[mask >>> 1]!;

export class Catalog {
  readonly header: ArtifactHeader;
  /** Number of postal codes; code indices run from 0 to `codeCount - 1`, ascending. */
  readonly codeCount: number;
  private readonly states: Strings;
  private readonly municipalityNames: Strings;
  private readonly cities: Strings;
  private readonly types: Strings;
  private readonly names: Strings;
  private readonly stateKeys: UintArray;
  private readonly municipalityState: UintArray;
  private readonly municipalityKey: UintArray;
  private readonly municipalityName: UintArray;
  private readonly codeMunicipality: UintArray;
  private readonly codeCity: UintArray;
  /** Settlements of code `i` are `settlementStart[i]` to `settlementStart[i + 1]`. */
  private readonly settlementStart: Uint32Array;
  /** 3 bytes per settlement, little-endian `name | type << 18`, read in place. */
  private readonly settlements: Uint8Array;
  /** Child masks of the trie's internal nodes, breadth first. */
  private readonly masks: UintArray;
  /**
   * Id of each internal node's first child: the child for digit `d` is
   * `firstChild + popcount(mask & ((1 << d) - 1))`. Depth-4 nodes' children are code indices.
   */
  private readonly firstChild: Uint32Array;
  /** First internal node id of each depth 0 to 4, and the node count after them. */
  private readonly levelStart: number[] = [];
  /** Each settlement's rank in its municipality's catalog order; undefined when settlements are already in that order. */
  private readonly settlementRanks: UintArray | undefined;
  /** Where each state's cities start in `stateCities` (one more entry than states). */
  private readonly stateCityStart: Uint32Array;
  private readonly stateCities: UintArray;
  private codeStrings: string[] | undefined;
  private stateNameList: string[] | undefined;
  private stateMunicipalities: string[][] | undefined;
  /** Built on first need: code runs `[start, end, start, end, ...]` per municipality and per state. */
  private municipalityRuns: number[][] | undefined;
  private stateRuns: number[][] | undefined;
  /** Distinct settlement names per municipality (by index) and per group of them (by key), kept once made. */
  private readonly settlementNameLists = new Map<number | string, string[]>();
  /** Merged code runs of groups of municipalities (by key), kept once made. */
  private readonly groupRuns = new Map<string, number[]>();
  /**
   * Answers that are objects, made once by Object.fromEntries and copied by spreading: V8 keeps
   * such an object in fast mode, so a copy of 570 members costs about 1 µs, where building one
   * member by member costs some 50 times that (see copy-members.ts).
   */
  private stateKeyObject: Record<string, string> | undefined;
  private readonly municipalityKeyObjects: Record<string, string>[] = [];
  private readonly stateCityLists: string[][] = [];

  /** Throws when the parts of the artifact do not fit together. */
  constructor(artifact: Artifact) {
    this.header = artifact.header;
    this.codeCount = artifact.header.codes;
    const strings = artifact.strings;
    this.states = new Strings(strings.states);
    this.municipalityNames = new Strings(strings.municipalities);
    this.cities = new Strings(strings.cities);
    this.types = new Strings(strings.types);
    this.names = new Strings(strings.settlements);
    this.stateKeys = artifact.stateKeys;
    this.municipalityState = artifact.municipalityState;
    this.municipalityKey = artifact.municipalityKey;
    this.municipalityName = artifact.municipalityName;
    this.codeMunicipality = artifact.codeMunicipality;
    this.codeCity = artifact.codeCity;

    const counts = artifact.codeSettlements;
    expect(counts.length === this.codeCount, 'settlement counts do not match the code count');
    const settlementCounts = scanColumn(counts, 'settlement counts');
    this.settlementStart = settlementCounts.sums;
    const rows = settlementCounts.total;
    expect(rows === artifact.header.rows, 'settlement counts do not add up to the row count');
    this.settlements = artifact.settlements;
    expect(this.settlements.length === rows * SETTLEMENT_BYTES, 'settlement table has the wrong size');

    this.masks = artifact.trie;
    const nodes = this.masks.length;
    this.firstChild = new Uint32Array(nodes);
    let levelEnd = 1;
    let next = 1;
    for (let depth = 0, node = 0; depth < CODE_LENGTH; depth++) {
      this.levelStart.push(node);
      if (depth === CODE_LENGTH - 1) next = 0; // the children of the last level are codes
      for (; node < levelEnd; node++) {
        expect(node < nodes, 'trie is truncated');
        this.firstChild[node] = next;
        next += POPCOUNT[this.masks[node]! & 0x3ff]!;
      }
      if (depth < CODE_LENGTH - 1) levelEnd = next;
    }
    this.levelStart.push(levelEnd);
    expect(levelEnd === nodes && next === this.codeCount, 'trie does not match the code count');

    expect(this.codeMunicipality.length === this.codeCount && this.codeCity.length === this.codeCount, 'code columns have the wrong length');
    expect(
      this.municipalityState.length === artifact.header.municipalities &&
        this.municipalityKey.length === artifact.header.municipalities &&
        this.municipalityName.length === artifact.header.municipalities,
      'municipality columns have the wrong length',
    );
    expect(this.states.size === artifact.header.states && this.stateKeys.length === artifact.header.states, 'state table has the wrong size');

    this.settlementRanks = artifact.settlementRanks;
    expect(this.settlementRanks === undefined || (ArrayBuffer.isView(this.settlementRanks) && this.settlementRanks.length === rows), 'settlement ranks have the wrong length');
    const cityCounts = artifact.stateCityCounts;
    this.stateCities = artifact.stateCities;
    expect(ArrayBuffer.isView(cityCounts) && ArrayBuffer.isView(this.stateCities) && cityCounts.length === this.states.size, 'state cities are missing');
    const stateCityCounts = scanColumn(cityCounts, 'state city counts');
    this.stateCityStart = stateCityCounts.sums;
    expect(stateCityCounts.total === this.stateCities.length, 'state cities do not add up');

    // Every index must point inside what it indexes: a lookup never reads past a table,
    // whatever the file says (the checksum catches damage; this catches a forged file).
    expectBelow(this.municipalityState, this.states.size, 'a municipality names a state');
    expectBelow(this.municipalityName, this.municipalityNames.size, 'a municipality names a name');
    expectBelow(this.codeMunicipality, this.municipalityState.length, 'a code names a municipality');
    expectBelow(this.codeCity, this.cities.size, 'a code names a city');
    expectBelow(this.stateCities, this.cities.size, 'a state names a city');
    if (this.settlementRanks) expectBelow(this.settlementRanks, rows, 'a settlement ranks');
    expect(settlementsWithin(this.settlements, this.names.size, this.types.size), 'a settlement names a name or type that is not in its table');
  }

  /** The trie child of `node` for `digit`, or -1. */
  private child(node: number, digit: number): number {
    const mask = this.masks[node]!;
    if (!(mask & (1 << digit))) return -1;
    return this.firstChild[node]! + POPCOUNT[mask & ((1 << digit) - 1)]!;
  }

  /** Index of a 5-digit ASCII code, or -1 when the catalog has no such code. */
  codeIndex(postalCode: string): number {
    let node = 0;
    for (let i = 0; i < CODE_LENGTH && node >= 0; i++) node = this.child(node, postalCode.charCodeAt(i) - 48);
    return node;
  }

  /** The first code index under internal node `node` of depth `depth`. */
  private firstCodeUnder(node: number, depth: number): number {
    for (; depth < CODE_LENGTH; depth++) node = this.firstChild[node]!;
    return node;
  }

  /** The postal codes starting with `digits` (1 to 5 ASCII digits), ascending. */
  codesStartingWith(digits: string): string[] {
    let node = 0;
    for (let i = 0; i < digits.length && node >= 0; i++) node = this.child(node, digits.charCodeAt(i) - 48);
    if (node < 0) return [];
    const codes = this.postalCodes();
    const depth = digits.length;
    if (depth === CODE_LENGTH) return [codes[node]!];
    // Nodes of one depth are in code order: the range ends where the next node's begins.
    const end = node + 1 < this.levelStart[depth + 1]! ? this.firstCodeUnder(node + 1, depth) : this.codeCount;
    return codes.slice(this.firstCodeUnder(node, depth), end);
  }

  /** Every code as a 5-character string, ascending: made once, on the first search. */
  private listCodes(): string[] {
    const codes = new Array<string>(this.codeCount);
    const walk = (node: number, depth: number, prefix: string) => {
      const mask = this.masks[node]!;
      let child = this.firstChild[node]!;
      for (let digit = 0; digit < 10; digit++) {
        if (!(mask & (1 << digit))) continue;
        if (depth === CODE_LENGTH - 1) codes[child] = prefix + digit;
        else walk(child, depth + 1, prefix + digit);
        child++;
      }
    };
    walk(0, 0, '');
    return codes;
  }

  /** Every postal code as a 5-character string, ascending (shared: callers copy before handing it out). */
  postalCodes(): readonly string[] {
    return (this.codeStrings ??= this.listCodes()) as readonly string[];
  }

  /** Number of municipalities; indices run from 0, ordered by (`c_estado`, `c_mnpio`). */
  get municipalityCount(): number {
    return this.municipalityState.length;
  }

  /** Municipality index of the code's first row. */
  municipalityIndexOf(code: number): number {
    return this.codeMunicipality[code]!;
  }

  /** Municipality `m`: its keys (`c_estado`, `c_mnpio`), its name and its state's. */
  municipalityEntry(m: number): { stateKey: number; key: number; name: string; state: string } {
    const state = this.municipalityState[m]!;
    return { stateKey: this.stateKeys[state]!, key: this.municipalityKey[m]!, name: this.municipalityNames.get(this.municipalityName[m]!), state: this.states.get(state) };
  }

  settlementStartOf(code: number): number {
    return this.settlementStart[code]!;
  }

  settlementEndOf(code: number): number {
    return this.settlementStart[code + 1]!;
  }

  private settlement(settlement: number): number {
    const at = settlement * SETTLEMENT_BYTES;
    const bytes = this.settlements;
    return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
  }

  settlementName(settlement: number): string {
    return this.names.get(this.settlement(settlement) & SETTLEMENT_NAME_MASK);
  }

  settlementType(settlement: number): string {
    return this.types.get(this.settlement(settlement) >>> SETTLEMENT_NAME_BITS);
  }

  /** Municipality of the code's first row. */
  municipalityOf(code: number): string {
    return this.municipalityNames.get(this.municipalityName[this.codeMunicipality[code]!]!);
  }

  /** State of the code's first row. */
  stateOf(code: number): string {
    return this.states.get(this.municipalityState[this.codeMunicipality[code]!]!);
  }

  /** First non-empty city of the code, or `""`. */
  cityOf(code: number): string {
    return this.cities.get(this.codeCity[code]!);
  }

  /** State names ordered by `c_estado` (shared: callers copy before handing it out). */
  stateNames(): readonly string[] {
    return (this.stateNameList ??= this.states.all());
  }

  /** Municipality names of state `state` (its index), each once, ordered by `c_mnpio`. */
  municipalitiesOf(state: number): readonly string[] {
    if (!this.stateMunicipalities) {
      const byState: string[][] = Array.from({ length: this.states.size }, () => []);
      for (let m = 0; m < this.municipalityState.length; m++) {
        const names = byState[this.municipalityState[m]!]!;
        const name = this.municipalityNames.get(this.municipalityName[m]!);
        if (!names.includes(name)) names.push(name);
      }
      this.stateMunicipalities = byState;
    }
    return this.stateMunicipalities[state] ?? [];
  }

  /** The number of states; state indices run from 0, ordered by `c_estado`. */
  get stateCount(): number {
    return this.states.size;
  }

  /** The state whose `c_estado` is `key`, or -1. */
  stateWithKey(key: number): number {
    for (let state = 0; state < this.stateKeys.length; state++) if (this.stateKeys[state] === key) return state;
    return -1;
  }

  /** Every state's name to its two-digit key, in key order (a fresh object). */
  stateKeysByName(): Record<string, string> {
    this.stateKeyObject ??= Object.fromEntries(this.stateNames().map((name, state) => [name, twoDigits(this.stateKeys[state]!)]));
    return { ...this.stateKeyObject };
  }

  nameOfMunicipality(municipality: number): string {
    return this.municipalityNames.get(this.municipalityName[municipality]!);
  }

  /** The state index of a municipality. */
  stateOfMunicipality(municipality: number): number {
    return this.municipalityState[municipality]!;
  }

  /** A state's municipality names to their three-digit keys, ordered by key (a fresh object). */
  municipalityKeysOf(state: number): Record<string, string> {
    let keys = this.municipalityKeyObjects[state];
    if (!keys) {
      const entries: [string, string][] = [];
      const seen = new Set<string>();
      for (let m = 0; m < this.municipalityState.length; m++) {
        if (this.municipalityState[m] !== state) continue;
        const name = this.nameOfMunicipality(m);
        // Should one state ever name two municipalities alike, the first key keeps the name.
        if (seen.has(name)) continue;
        seen.add(name);
        entries.push([name, String(this.municipalityKey[m]!).padStart(3, '0')]);
      }
      keys = this.municipalityKeyObjects[state] = Object.fromEntries(entries);
    }
    return copyStateMembers(state, keys);
  }

  /** A state's city names, each once, ordered by `c_cve_ciudad` (a fresh array). */
  citiesOf(state: number): string[] {
    let cities = this.stateCityLists[state];
    if (!cities) {
      const start = this.stateCityStart[state]!;
      cities = this.stateCityLists[state] = Array.from({ length: this.stateCityStart[state + 1]! - start }, (_, i) => this.cities.get(this.stateCities[start + i]!));
    }
    return cities.slice();
  }

  /** Code `code` as a 5-character string. */
  postalCode(code: number): string {
    return this.postalCodes()[code]!;
  }

  /** The settlement names of a code in catalog order, as simplified `info_cp` lists them (a fresh array). */
  settlementNamesOf(code: number): string[] {
    const start = this.settlementStart[code]!;
    const names = new Array<string>(this.settlementStart[code + 1]! - start);
    for (let i = 0; i < names.length; i++) names[i] = this.settlementName(start + i);
    return names;
  }

  /** Runs of consecutive code indices `[start, end, ...]` of a state, ascending. */
  codeRunsOfState(state: number): readonly number[] {
    if (!this.stateRuns) {
      const municipalityRuns = this.codeRunsByMunicipality();
      this.stateRuns = Array.from({ length: this.states.size }, () => []);
      // Municipalities are ordered by state, so each state's runs come out ascending once merged.
      for (let m = 0; m < municipalityRuns.length; m++) this.stateRuns[this.municipalityState[m]!]!.push(...municipalityRuns[m]!);
      this.stateRuns = this.stateRuns.map(mergeRuns);
    }
    return this.stateRuns[state] ?? [];
  }

  /** Runs of consecutive code indices `[start, end, ...]` of a municipality, ascending. */
  codeRunsOfMunicipality(municipality: number): readonly number[] {
    return this.codeRunsByMunicipality()[municipality] ?? [];
  }

  private codeRunsByMunicipality(): number[][] {
    if (!this.municipalityRuns) {
      const runs: number[][] = Array.from({ length: this.municipalityState.length }, () => []);
      for (let code = 0; code < this.codeCount; code++) {
        const own = runs[this.codeMunicipality[code]!]!;
        if (own.length && own[own.length - 1] === code) own[own.length - 1] = code + 1;
        else own.push(code, code + 1);
      }
      this.municipalityRuns = runs;
    }
    return this.municipalityRuns;
  }

  /** The codes of a state, ascending, at most `limit` of them (a fresh array). */
  codesOfState(state: number, limit = Number.POSITIVE_INFINITY): string[] {
    return this.codesOfRuns(this.codeRunsOfState(state), limit);
  }

  /** The codes of some municipalities (indices ascending), ascending, at most `limit` (a fresh array). */
  codesOfMunicipalities(municipalities: readonly number[], limit = Number.POSITIVE_INFINITY): string[] {
    return this.codesOfRuns(this.codeRunsOfMunicipalities(municipalities), limit);
  }

  /** Runs of consecutive code indices of some municipalities (indices ascending), merged, ascending. */
  private codeRunsOfMunicipalities(municipalities: readonly number[]): readonly number[] {
    if (municipalities.length === 1) return this.codeRunsOfMunicipality(municipalities[0]!);
    const key = municipalities.join(',');
    let runs = this.groupRuns.get(key);
    if (!runs) this.groupRuns.set(key, (runs = mergeRuns(municipalities.flatMap((m) => this.codeRunsOfMunicipality(m)))));
    return runs;
  }

  private codesOfRuns(runs: readonly number[], limit: number): string[] {
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
    let names = this.settlementNameLists.get(key);
    if (!names) {
      const byFirstCode = [...municipalities].sort((a, b) => this.codeRunsOfMunicipality(a)[0]! - this.codeRunsOfMunicipality(b)[0]!);
      const seen = new Set<number>();
      names = [];
      for (const m of byFirstCode) {
        const runs = this.codeRunsOfMunicipality(m);
        const settlements: number[] = [];
        for (let r = 0; r < runs.length; r += 2) {
          for (let s = this.settlementStart[runs[r]!]!; s < this.settlementStart[runs[r + 1]!]!; s++) settlements.push(s);
        }
        const ranks = this.settlementRanks;
        if (ranks) settlements.sort((a, b) => ranks[a]! - ranks[b]!);
        for (const s of settlements) {
          const name = this.settlement(s) & SETTLEMENT_NAME_MASK;
          if (seen.has(name)) continue;
          seen.add(name);
          names.push(this.names.get(name));
        }
      }
      this.settlementNameLists.set(key, names);
    }
    return names.slice();
  }

  /** The settlements of a code: indices from `settlementStartOf` to `settlementEndOf`. Names by index: */
  settlementNameIndex(settlement: number): number {
    return this.settlement(settlement) & SETTLEMENT_NAME_MASK;
  }

  /** The name of settlement-name index `name` (see `settlementNameIndex`). */
  settlementNameAt(name: number): string {
    return this.names.get(name);
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

/**
 * Whether every packed settlement names an existing name and type. A function of its own,
 * small, so that V8 compiles its loop at once instead of interpreting 145,000 rounds of it.
 */
function settlementsWithin(bytes: Uint8Array, names: number, types: number): boolean {
  let bad = 0;
  for (let at = 0; at < bytes.length; at += 3) {
    const packed = bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
    bad |= ((packed & SETTLEMENT_NAME_MASK) >= names ? 1 : 0) | (packed >>> SETTLEMENT_NAME_BITS >= types ? 1 : 0);
  }
  return bad === 0;
}

/** Every value of an index column is below `size` (the length of what it indexes). */
function expectBelow(column: UintArray, size: number, what: string): void {
  const { max } = scanColumn(column, what);
  expect(column.length === 0 || max < size, `${what} beyond its table (${max} of ${size})`);
}

/**
 * One pass over an integer column: its running sums (`sums[i]` is the total of the entries
 * before `i`, for columns of lengths and counts) and its largest entry (for index columns).
 * Every such pass at load is this one function, always over a Uint32Array copy: V8 interprets
 * a loop for about a millisecond before compiling it, once per function and element type, so
 * one shared pass pays that once where a loop per column paid it per column.
 */
function scanColumn(column: UintArray, what: string): { sums: Uint32Array; total: number; max: number } {
  expect(column instanceof Uint8Array || column instanceof Uint16Array || column instanceof Uint32Array, `${what}: the column is not an unsigned integer column`);
  return sumAndMax(column instanceof Uint32Array ? column : new Uint32Array(column));
}

function sumAndMax(values: Uint32Array): { sums: Uint32Array; total: number; max: number } {
  const sums = new Uint32Array(values.length + 1);
  let total = 0;
  let max = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    sums[i + 1] = total += value;
    if (value > max) max = value;
  }
  return { sums, total, max };
}

/**
 * One MessagePack value filling `bytes` exactly. msgpackr's own check for bytes left over
 * builds a JSON view of the whole value for its message: over a 2 MB payload that takes a
 * second, so a file with one byte too many is measured here instead.
 */
function unpackOne(bytes: Uint8Array): unknown {
  let value: unknown;
  let end = 0;
  unpackr.unpackMultiple(bytes, (first: unknown, _start: number, stop: number) => {
    value = first;
    end = stop;
    return false;
  });
  if (end !== bytes.length) throw new Error(`${bytes.length - end} bytes after its end`);
  return value;
}

/** The MessagePack layer alone: a file's bytes to its envelope, unchecked. */
export function readArtifactFile(bytes: Uint8Array): ArtifactFile {
  return unpackOne(bytes) as ArtifactFile;
}

/** The MessagePack layer alone: a file's bytes to the artifact's fields, unchecked. */
export function readArtifact(bytes: Uint8Array): Artifact {
  return unpackOne(readArtifactFile(bytes).payload) as Artifact;
}

export interface DecodeOptions {
  /** The CRC-32 to check the payload with; Node's zlib.crc32 is faster than the portable one. */
  crc32?: ((bytes: Uint8Array) => number) | undefined;
}

/** Decodes an artifact from its bytes; `path` names it in errors. */
export function decodeCatalog(bytes: Uint8Array, path: string, options: DecodeOptions = {}): Catalog {
  let file: Partial<ArtifactFile> & { header?: Partial<ArtifactHeader> };
  try {
    file = readArtifactFile(bytes);
  } catch {
    throw new ArtifactError(path, `is truncated or not a cpmx artifact; ${REBUILD}`);
  }
  // Files of format version 2 and before had no envelope: their header was at the top.
  const named = file !== null && typeof file === 'object' ? (file.format !== undefined ? file : file.header) : undefined;
  if (!named || typeof named !== 'object' || named.format !== FORMAT_NAME) {
    throw new ArtifactError(path, `is not a cpmx artifact; ${REBUILD}`);
  }
  if (named.version !== FORMAT_VERSION) {
    throw new ArtifactError(
      path,
      `is an artifact of format version ${String(named.version)}, and this cpmx reads version ${FORMAT_VERSION}; ${REBUILD}`,
    );
  }
  const { payload } = file;
  if (!(payload instanceof Uint8Array) || (options.crc32 ?? crc32)(payload) !== file.crc32) {
    throw new ArtifactError(path, `is damaged (its checksum does not match: it changed after it was built); ${REBUILD}`);
  }
  const damaged = (error: unknown) => new ArtifactError(path, `is damaged (${(error as Error).message}); ${REBUILD}`);
  let artifact: Artifact;
  try {
    artifact = unpackOne(payload) as Artifact;
  } catch (error) {
    throw damaged(error);
  }
  const header = (artifact as Partial<Artifact> | null)?.header as Partial<ArtifactHeader> | undefined;
  if (header?.format !== FORMAT_NAME) throw new ArtifactError(path, `is not a cpmx artifact; ${REBUILD}`);
  try {
    expect(header.version === FORMAT_VERSION, 'its header does not match its envelope');
    return new Catalog(artifact);
  } catch (error) {
    throw damaged(error);
  }
}
