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
    const lengths = table.lengths;
    this.size = lengths.length;
    this.starts = new Uint32Array(this.size + 1);
    let at = 0;
    for (let i = 0; i < this.size; i++) this.starts[i + 1] = at += lengths[i]!;
    expect(at === this.text.length, 'a string table does not match its lengths');
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
  private readonly municipalityState: UintArray;
  private readonly municipalityName: UintArray;
  private readonly municipalityKey: UintArray;
  private readonly stateKeys: UintArray;
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
  private codeStrings: string[] | undefined;
  private stateNameList: string[] | undefined;
  private stateMunicipalities: string[][] | undefined;

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
    this.municipalityState = artifact.municipalityState;
    this.municipalityName = artifact.municipalityName;
    this.municipalityKey = artifact.municipalityKey;
    this.stateKeys = artifact.stateKeys;
    this.codeMunicipality = artifact.codeMunicipality;
    this.codeCity = artifact.codeCity;

    const counts = artifact.codeSettlements;
    expect(counts.length === this.codeCount, 'settlement counts do not match the code count');
    this.settlementStart = new Uint32Array(this.codeCount + 1);
    let rows = 0;
    for (let i = 0; i < this.codeCount; i++) this.settlementStart[i + 1] = rows += counts[i]!;
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
    expect(this.municipalityState.length === artifact.header.municipalities, 'municipality columns have the wrong length');
    expect(this.states.size === artifact.header.states, 'state table has the wrong size');

    // Every index must point inside what it indexes: a lookup never reads past a table,
    // whatever the file says (the checksum catches damage; this catches a forged file).
    expect(this.municipalityName.length === this.municipalityState.length, 'municipality columns have the wrong length');
    expectBelow(this.municipalityState, this.states.size, 'a municipality names a state');
    expectBelow(this.municipalityName, this.municipalityNames.size, 'a municipality names a name');
    expectBelow(this.codeMunicipality, this.municipalityState.length, 'a code names a municipality');
    expectBelow(this.codeCity, this.cities.size, 'a code names a city');
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
    const codes = (this.codeStrings ??= this.listCodes());
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
    return (this.codeStrings ??= this.listCodes());
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
  expect(ArrayBuffer.isView(column), `${what}: the column is not an integer column`);
  let max = 0;
  for (let i = 0; i < column.length; i++) if (column[i]! > max) max = column[i]!;
  expect(column.length === 0 || max < size, `${what} beyond its table (${max} of ${size})`);
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
