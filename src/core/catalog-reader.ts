/**
 * What the answers read of a catalog: the one interface the router, its answer builders, the
 * name indexes and the settlement search take. Two things implement it: the catalog read in
 * place from the artifact (catalog.ts) and the web client's view of the static tree's files
 * that have arrived (web/view.ts). So the core answers from either without knowing which, and
 * the web client cannot answer differently from the Node client.
 *
 * Indices are the implementation's own (a code's place, a settlement's, a municipality's): a
 * caller passes back only indices the same reader gave it. Lists marked shared must be copied
 * before they are handed out; the others are fresh.
 */
import type { CodeEntry } from './code-entry.js';

export interface CatalogReader {
  /** State names ordered by `c_estado` (shared). */
  stateNames(): readonly string[];
  /** The number of states; state indices run from 0, ordered by `c_estado`. */
  readonly stateCount: number;
  /** The state whose `c_estado` is `key`, or -1. */
  stateWithKey(key: number): number;
  /** Every state's name to its two-digit key, in key order (a fresh object). */
  stateKeysByName(): Record<string, string>;
  /** Municipality names of state `state`, each once, ordered by `c_mnpio` (shared). */
  municipalitiesOf(state: number): readonly string[];
  /** A state's municipality names to their three-digit keys, ordered by key (a fresh object). */
  municipalityKeysOf(state: number): Record<string, string>;
  /** A state's city names, each once, ordered by `c_cve_ciudad` (a fresh array). */
  citiesOf(state: number): string[];
  /** The number of municipalities the reader knows; indices run from 0 in catalog order. */
  readonly municipalityCount: number;
  nameOfMunicipality(municipality: number): string;
  /** The state index of a municipality. */
  stateOfMunicipality(municipality: number): number;
  /** The codes of a state, ascending, at most `limit` of them (a fresh array). */
  codesOfState(state: number, limit?: number): string[];
  /** The codes of some municipalities (indices ascending), ascending, at most `limit` (a fresh array). */
  codesOfMunicipalities(municipalities: readonly number[], limit?: number): string[];
  /** The distinct settlement names of some municipalities, in catalog order of first occurrence (a fresh array). */
  settlementNamesOfMunicipalities(municipalities: readonly number[]): string[];
  /** Index of a 5-digit ASCII code, or -1 when the catalog has no such code. */
  codeIndex(postalCode: string): number;
  /** The postal codes starting with `digits` (1 to 5 ASCII digits), ascending. */
  codesStartingWith(digits: string): string[];
  /** Code `code` as a 5-character string. */
  postalCode(code: number): string;
  /** Municipality of the code's first row. */
  municipalityOf(code: number): string;
  /** State of the code's first row. */
  stateOf(code: number): string;
  /** First non-empty city of the code, or `""`. */
  cityOf(code: number): string;
  /** The first settlement of code `code`; its settlements end at `settlementEndOf(code)`, after at least one. */
  settlementStartOf(code: number): number;
  settlementEndOf(code: number): number;
  settlementName(settlement: number): string;
  settlementType(settlement: number): string;
  /** The settlement names of a code in catalog order, as simplified `info_cp` lists them (a fresh array). */
  settlementNamesOf(code: number): string[];
  /** A code's answer parts (see CodeEntry; shared). */
  codeEntry(code: number): CodeEntry;
  /** `codeEntry(codeIndex(cp))`, or undefined when `cp` is not a code of the catalog (not 5 ASCII digits, or unknown). */
  postalCodeEntry(cp: string): CodeEntry | undefined;
  /** Runs of consecutive code indices `[start, end, ...]` of a state, ascending. */
  codeRunsOfState(state: number): readonly number[];
  /** Municipality index of the code's first row. */
  municipalityIndexOf(code: number): number;
  /** A settlement's name as an index, equal for equal names (see `settlementNameAt`). */
  settlementNameIndex(settlement: number): number;
  /** The name of settlement-name index `name`. */
  settlementNameAt(name: number): string;
}
