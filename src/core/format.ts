/**
 * The artifact's model: what the compiler (`build/`) makes and what `readArtifact` gives back,
 * the one module both sides import, so they cannot drift apart. How the model is laid out in
 * the file (format 6, read in place) is layout.ts.
 *
 * Strings are interned per kind into string tables (one concatenated text plus the UTF-16
 * length of each entry). Integer columns are typed arrays of the narrowest unsigned width.
 */
import type { CorrectionsRecord, HistorySummary } from './catalog-history.js';

/** Identifies a cpmx artifact; a file whose header lacks it is foreign. */
export const FORMAT_NAME = 'cpmx-catalog';
/**
 * Bumped whenever the layout changes; the runtime refuses any other version. 3: the
 * checksummed envelope; 4: each state's cities and the settlement ranks (contract version 2);
 * 5: the payload read in place (aligned columns, UTF-8 string tables, sums made by the compiler);
 * 6: a checksum per page, checked where a page is first read, instead of one over the whole payload.
 */
export const FORMAT_VERSION = 6;

/** Settlement entries pack the name index into the low bits and the type index above it. */
export const SETTLEMENT_NAME_BITS = 18;
export const SETTLEMENT_NAME_MASK = (1 << SETTLEMENT_NAME_BITS) - 1;
/** Three bytes per settlement: 18 bits of name, 6 bits of type. */
export const SETTLEMENT_BYTES = 3;
export const MAX_SETTLEMENT_TYPES = 1 << (8 * SETTLEMENT_BYTES - SETTLEMENT_NAME_BITS);
export const MAX_SETTLEMENT_NAMES = 1 << SETTLEMENT_NAME_BITS;

/** Digits in a Mexican postal code, and so the depth of the trie. */
export const CODE_LENGTH = 5;

/**
 * Strings of one kind, each stored once, concatenated in one of two forms: `latin1` bytes when
 * every character fits (the official catalog is Latin-1; these decode with a plain copy), else
 * `text`. Entry `i` is `lengths[i]` characters long, starting where entry `i - 1` ends.
 */
export interface StringTable {
  latin1?: Uint8Array;
  text?: string;
  lengths: UintArray;
}

/** Integer columns are stored in the narrowest unsigned typed array that holds them. */
export type UintArray = Uint8Array | Uint16Array | Uint32Array;

/** The smallest unsigned typed array that holds every value of `values`. */
export function compactUints(values: ArrayLike<number>): UintArray {
  let max = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! > max) max = values[i]!;
  if (max <= 0xff) return Uint8Array.from(values);
  if (max <= 0xffff) return Uint16Array.from(values);
  return Uint32Array.from(values);
}

export interface SourceInfo {
  /** File name (no directory) of the catalog the artifact was compiled from; `a.txt + b.txt` for several. */
  file: string;
  /** Hex sha256 of that file's bytes, as given (the zip itself for a zip); for several, of their sha256s, one a line. */
  sha256: string;
  bytes: number;
  /** Encoding the text was read as; `mixed` when several sources differ. */
  encoding: 'latin1' | 'utf8' | 'mixed';
  /**
   * The catalog's own date (optional: artifacts built before cpmx recorded it lack it): the zip
   * member's timestamp (no time zone: the zip records none) or the text file's modification
   * time (UTC). For several sources, the oldest of theirs, or none if any lacks one.
   */
  date?: string;
  dateFrom?: 'zip-entry' | 'file-mtime';
}

export interface ArtifactHeader {
  format: typeof FORMAT_NAME;
  version: number;
  /** Settlement rows read from the catalog. */
  rows: number;
  /** Distinct postal codes. */
  codes: number;
  states: number;
  /** Distinct (c_estado, c_mnpio) pairs. */
  municipalities: number;
  source: SourceInfo;
  /** The free-text first line of the catalog: Correos de México's terms of use. */
  notice: string;
  /** Each source, when the artifact was built from several (per-state files); `source` then describes them together. */
  sources?: SourceInfo[];
  /** When the artifact was built, ISO 8601 UTC (optional, as `source.date`). */
  builtAt?: string;
  /** The corrections applied to the catalog (`cpmx build --corrections`), when any were. */
  corrections?: CorrectionsRecord;
  /** The earlier catalogs compared with (`cpmx build --previous`), and what the history section holds. */
  history?: HistorySummary;
}

/** How old the catalog is, for status reports (the header has the build time); null where the artifact does not record it. */
export interface CatalogAge {
  /** `source.date`: the catalog's own date. */
  catalogDate: string | null;
  /** Whole days from the catalog's date to `now`. */
  catalogAgeDays: number | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A recorded date as epoch milliseconds (NaN when unreadable); one without a zone (a zip's) is read as UTC. */
export function recordedTime(date: string): number {
  return Date.parse(/Z$|[+-]\d\d:\d\d$/.test(date) ? date : `${date}Z`);
}

/** The catalog's date and age at `now` (epoch milliseconds). */
export function catalogAge(header: { source?: Pick<SourceInfo, 'date'> | undefined }, now: number): CatalogAge {
  const date = header.source?.date;
  const time = date === undefined ? Number.NaN : recordedTime(date);
  return {
    catalogDate: date ?? null,
    catalogAgeDays: Number.isNaN(time) ? null : Math.max(0, Math.floor((now - time) / DAY_MS)),
  };
}

export interface Artifact {
  header: ArtifactHeader;
  strings: {
    states: StringTable;
    municipalities: StringTable;
    /** Entry 0 is always the empty string (a code with no city); then every city a row names. */
    cities: StringTable;
    types: StringTable;
    settlements: StringTable;
  };
  /** `c_estado` of each state, ascending; state `i` is named by `strings.states` entry `i`. */
  stateKeys: UintArray;
  /** Municipalities ordered by (`c_estado`, `c_mnpio`): their state index, key and name index. */
  municipalityState: UintArray;
  municipalityKey: UintArray;
  municipalityName: UintArray;
  /**
   * The prefix trie over the postal codes: one 10-bit child mask per internal node (depths 0
   * to 4) in breadth-first order, children in digit order. Its leaves, in order, are the codes
   * ascending: the trie is the only place the codes themselves are stored.
   */
  trie: Uint16Array;
  /** Per code (ascending): municipality index, city index, number of settlements. */
  codeMunicipality: UintArray;
  codeCity: UintArray;
  codeSettlements: UintArray;
  /** Per settlement, grouped by code in catalog order: `name | type << 18`, 3 bytes little-endian. */
  settlements: Uint8Array;
  /**
   * Each settlement's place among the settlements of its municipality (its code's) in catalog
   * order, in the order of `settlements`. Absent when that order already is the catalog's (a
   * catalog sorted by code, as the official one is), so that it costs nothing there. Ranks
   * within a municipality, not rows of a file, so that a catalog built from per-state files
   * is the same whatever order the files are given in.
   */
  settlementRanks?: UintArray;
  /**
   * The cities of each state (`d_ciudad`, each name once) ordered by their key `c_cve_ciudad`:
   * state `i` has `stateCityCounts[i]` entries of `stateCities` (indices into `strings.cities`),
   * after those of the states before it.
   */
  stateCityCounts: UintArray;
  stateCities: UintArray;
  /** The history section (catalog-history.ts): UTF-8 JSON of the codes earlier catalogs had; absent unless built with `--previous`. */
  history?: Uint8Array;
}

/** Packs strings into one table, entries in the order given. */
export function toStringTable(entries: readonly string[]): StringTable {
  const text = entries.join('');
  const lengths = compactUints(entries.map((entry) => entry.length));
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is every Latin-1 character, controls included
  return /^[\u0000-\u00ff]*$/.test(text) ? { latin1: Uint8Array.from(text, (c) => c.charCodeAt(0)), lengths } : { text, lengths };
}

/** The characters of a table, whichever form it was stored in. */
export function stringTableText(table: StringTable): string {
  if (table.text !== undefined) return table.text;
  return latin1Text(table.latin1 ?? new Uint8Array(0));
}

/**
 * Latin-1 bytes as text. Node's Buffer does it in one native call; elsewhere (browsers, edge
 * runtimes) code units are made in chunks: TextDecoder's "latin1" is really windows-1252,
 * which would turn bytes 0x80 to 0x9F into other characters.
 */
function latin1Text(bytes: Uint8Array): string {
  const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
  let text = '';
  for (let at = 0; at < bytes.length; at += 8192) text += String.fromCharCode(...bytes.subarray(at, at + 8192));
  return text;
}

/**
 * A whole number with its thousands grouped (`2500` → `2,500`), for texts built at import:
 * `toLocaleString` there loads ICU's locale data, which costs a cold start ~15 ms.
 */
export function groupDigits(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
