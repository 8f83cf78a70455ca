/**
 * The loaded catalog: the artifact decoded into flat typed arrays, and pure lookups over it.
 * Lookups never touch the disk; strings are sliced out of their table the first time they
 * are asked for and kept, so loading stays cheap and repeated answers allocate only
 * the answer itself.
 */
import { readFileSync } from 'node:fs';
import {
  CODE_LENGTH,
  FORMAT_NAME,
  FORMAT_VERSION,
  SETTLEMENT_BYTES,
  SETTLEMENT_NAME_BITS,
  SETTLEMENT_NAME_MASK,
  packr,
  type Artifact,
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

const REBUILD = 'run `cpmx build` to compile the catalog';

/** A string table whose entries are materialised on first use. */
class Strings {
  readonly size: number;
  private readonly starts: Uint32Array;
  private readonly cache: (string | undefined)[] = [];

  constructor(private readonly table: StringTable) {
    this.size = table.lengths.length;
    this.starts = new Uint32Array(this.size + 1);
    for (let i = 0; i < this.size; i++) {
      this.starts[i + 1] = this.starts[i]! + table.lengths[i]!;
      this.cache.push(undefined);
    }
  }

  get(i: number): string {
    return this.cache[i] ?? (this.cache[i] = this.table.text.slice(this.starts[i], this.starts[i + 1]));
  }

  all(): string[] {
    return Array.from({ length: this.size }, (_, i) => this.get(i));
  }
}

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
  private readonly codeMunicipality: UintArray;
  private readonly codeCity: UintArray;
  /** Settlements of code `i` are `settlementStart[i]` to `settlementStart[i + 1]`. */
  private readonly settlementStart: Uint32Array;
  /** `name | type << 18` per settlement. */
  private readonly settlements: Uint32Array;
  /**
   * Trie children, ten per internal node, -1 for none. Children of depth-4 nodes are code
   * indices; of other nodes, node ids.
   */
  private readonly children: Int32Array;
  /** Code-index range `[rangeStart, rangeEnd)` under each internal node. */
  private readonly rangeStart: Int32Array;
  private readonly rangeEnd: Int32Array;
  private readonly codeNumbers: Int32Array;
  private readonly codeStrings: (string | undefined)[] = [];
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
    this.codeMunicipality = artifact.codeMunicipality;
    this.codeCity = artifact.codeCity;

    const counts = artifact.codeSettlements;
    expect(counts.length === this.codeCount, 'settlement counts do not match the code count');
    this.settlementStart = new Uint32Array(this.codeCount + 1);
    for (let i = 0; i < this.codeCount; i++) this.settlementStart[i + 1] = this.settlementStart[i]! + counts[i]!;
    const rows = artifact.header.rows;
    expect(this.settlementStart[this.codeCount] === rows, 'settlement counts do not add up to the row count');
    const packed = artifact.settlements;
    expect(packed.length === rows * SETTLEMENT_BYTES, 'settlement table has the wrong size');
    this.settlements = new Uint32Array(rows);
    for (let i = 0, at = 0; i < rows; i++, at += SETTLEMENT_BYTES) {
      this.settlements[i] = packed[at]! | (packed[at + 1]! << 8) | (packed[at + 2]! << 16);
    }

    const masks = artifact.trie;
    const nodes = masks.length;
    this.children = new Int32Array(nodes * 10).fill(-1);
    this.rangeStart = new Int32Array(nodes);
    this.rangeEnd = new Int32Array(nodes);
    this.codeNumbers = new Int32Array(this.codeCount);
    const prefix = new Int32Array(nodes);
    let levelStart = 0;
    let levelEnd = 1;
    let leafParents = 0;
    for (let depth = 0; depth < CODE_LENGTH; depth++) {
      const leaves = depth === CODE_LENGTH - 1;
      if (leaves) leafParents = levelStart;
      let next = leaves ? 0 : levelEnd;
      for (let node = levelStart; node < levelEnd; node++) {
        expect(node < nodes, 'trie is truncated');
        for (let digit = 0; digit < 10; digit++) {
          if (!(masks[node]! & (1 << digit))) continue;
          if (leaves) {
            expect(next < this.codeCount, 'trie holds more codes than the header');
            this.codeNumbers[next] = prefix[node]! * 10 + digit;
          } else {
            expect(next < nodes, 'trie is truncated');
            prefix[next] = prefix[node]! * 10 + digit;
          }
          this.children[node * 10 + digit] = next++;
        }
      }
      if (leaves) expect(next === this.codeCount && levelEnd === nodes, 'trie does not match the code count');
      levelStart = levelEnd;
      levelEnd = next;
    }
    // Deeper nodes have larger ids, so walking ids downwards sees children before parents.
    for (let node = nodes - 1; node >= 0; node--) {
      const leaves = node >= leafParents;
      let first = -1;
      let last = -1;
      for (let digit = 0; digit < 10; digit++) {
        const child = this.children[node * 10 + digit]!;
        if (child < 0) continue;
        if (first < 0) first = leaves ? child : this.rangeStart[child]!;
        last = leaves ? child + 1 : this.rangeEnd[child]!;
      }
      this.rangeStart[node] = first;
      this.rangeEnd[node] = last;
    }
    for (let i = 0; i < this.codeCount; i++) this.codeStrings.push(undefined);

    expect(this.codeMunicipality.length === this.codeCount && this.codeCity.length === this.codeCount, 'code columns have the wrong length');
    expect(this.municipalityState.length === artifact.header.municipalities, 'municipality columns have the wrong length');
    expect(this.states.size === artifact.header.states, 'state table has the wrong size');
  }

  /** Index of a 5-digit ASCII code, or -1 when the catalog has no such code. */
  codeIndex(postalCode: string): number {
    const children = this.children;
    let node = 0;
    for (let i = 0; i < CODE_LENGTH; i++) {
      node = children[node * 10 + postalCode.charCodeAt(i) - 48]!;
      if (node < 0) return -1;
    }
    return node;
  }

  /** The postal codes starting with `digits` (1 to 5 ASCII digits), ascending. */
  codesStartingWith(digits: string): string[] {
    const children = this.children;
    let node = 0;
    for (let i = 0; i < digits.length; i++) {
      node = children[node * 10 + digits.charCodeAt(i) - 48]!;
      if (node < 0) return [];
    }
    if (digits.length === CODE_LENGTH) return [this.postalCode(node)];
    const end = this.rangeEnd[node]!;
    const codes = new Array<string>(end - this.rangeStart[node]!);
    for (let i = this.rangeStart[node]!, k = 0; i < end; i++, k++) codes[k] = this.postalCode(i);
    return codes;
  }

  /** The 5-character string of code `index`. */
  postalCode(index: number): string {
    return this.codeStrings[index] ?? (this.codeStrings[index] = String(this.codeNumbers[index]! + 100_000).slice(1));
  }

  settlementStartOf(code: number): number {
    return this.settlementStart[code]!;
  }

  settlementEndOf(code: number): number {
    return this.settlementStart[code + 1]!;
  }

  settlementName(settlement: number): string {
    return this.names.get(this.settlements[settlement]! & SETTLEMENT_NAME_MASK);
  }

  settlementType(settlement: number): string {
    return this.types.get(this.settlements[settlement]! >>> SETTLEMENT_NAME_BITS);
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

  /** State names ordered by `c_estado`. */
  stateNames(): string[] {
    return this.states.all();
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

/** Decodes an artifact from its bytes; `path` names it in errors. */
export function decodeCatalog(bytes: Uint8Array, path: string): Catalog {
  let artifact: Artifact;
  try {
    artifact = packr.unpack(bytes) as Artifact;
  } catch {
    throw new ArtifactError(path, `is truncated or not a cpmx artifact; ${REBUILD}`);
  }
  const header = (artifact as Partial<Artifact> | null)?.header;
  if (!header || typeof header !== 'object' || header.format !== FORMAT_NAME) {
    throw new ArtifactError(path, `is not a cpmx artifact; ${REBUILD}`);
  }
  if (header.version !== FORMAT_VERSION) {
    throw new ArtifactError(
      path,
      `is an artifact of format version ${String(header.version)}, and this cpmx reads version ${FORMAT_VERSION}; ${REBUILD}`,
    );
  }
  try {
    return new Catalog(artifact);
  } catch (error) {
    throw new ArtifactError(path, `is damaged (${(error as Error).message}); ${REBUILD}`);
  }
}

/** Reads and decodes the artifact at `path`. */
export function loadCatalog(path: string): Catalog {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ArtifactError(path, code === 'ENOENT' ? `no artifact here; ${REBUILD}` : `cannot be read (${code}); ${REBUILD}`);
  }
  return decodeCatalog(bytes, path);
}
