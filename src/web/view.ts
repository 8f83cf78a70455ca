/**
 * The catalog as the core's router reads it, made of the web tree's files that have arrived.
 * It is a `CatalogReader` (core/catalog-reader.ts), as the catalog read in place is: each method
 * returns what the catalog's own returns (the files hold exactly that).
 * A method whose file has not arrived throws `Missing` with the files to fetch; the client
 * fetches them and asks the router again. So answers are made by the core alone, and the web
 * client cannot answer differently from the Node client.
 *
 * Indices: a state is its place in the state list, as in the catalog; a code is its number
 * (`09810` is 9810); a settlement is its code's number × 4096 plus its place in the code; a
 * municipality is its place among the municipalities this view knows (`scope`), which lie in
 * catalog order, so the router's ascending lists stay in the catalog's order.
 */
import type { CatalogReader } from '../core/catalog-reader.js';
import { findState } from '../core/names.js';
import { SETTLEMENTS_PER_CODE, type CodeListFile, type DigitFile, type MunicipalityFile, type ShardCode, type ShardFile, type ShardGeo, type StateFile, type StateKeysFile, type StatesFile, type WebManifest } from './format.js';
import { extra } from './lazy-extra.js';
import { Missing } from './missing.js';

/** The files that have arrived, by part name (`e`, `s09`, `c098`, ...). */
export interface Arrived {
  manifest: WebManifest;
  files: Map<string, unknown>;
}

/**
 * Which municipalities `findMunicipalities` may see: those of the state a request names
 * (`estado`, read as the core reads it), or every state's (a municipality asked for in
 * every state).
 */
export type MunicipalityScope = { estado: string } | 'all' | undefined;

interface ViewMunicipality {
  state: number;
  name: string;
  part: string;
}

export class TreeView implements CatalogReader {
  private municipalities: ViewMunicipality[] | undefined;

  constructor(
    private readonly arrived: Arrived,
    private readonly scope: MunicipalityScope,
  ) {}

  /** A file that has arrived, or `Missing` for it. */
  private file<T>(part: string): T {
    const file = this.arrived.files.get(part);
    if (file === undefined) throw new Missing([part]);
    return file as T;
  }

  /** `Missing` for every one of `parts` still to come, all at once (a reader that needs many files asks for them together). */
  need(parts: readonly string[]): void {
    const missing = parts.filter((part) => !this.arrived.files.has(part));
    if (missing.length) throw new Missing(missing);
  }

  private states(): StatesFile {
    return this.file<StatesFile>('e');
  }

  private clave(state: number): string {
    return String(this.states().claves[state]).padStart(2, '0');
  }

  private stateFile(state: number): StateFile {
    return this.file<StateFile>(`s${this.clave(state)}`);
  }

  private stateKeys(state: number): StateKeysFile {
    return this.file<StateKeysFile>(`x${this.clave(state)}`);
  }

  stateNames(): readonly string[] {
    return this.states().estado;
  }

  get stateCount(): number {
    return this.states().estado.length;
  }

  stateWithKey(key: number): number {
    return this.states().claves.indexOf(key);
  }

  stateKeysByName(): Record<string, string> {
    return { ...this.states().estado_clave };
  }

  municipalitiesOf(state: number): readonly string[] {
    return this.stateFile(state).municipios;
  }

  municipalityKeysOf(state: number): Record<string, string> {
    return { ...this.stateKeys(state).municipio_clave };
  }

  citiesOf(state: number): string[] {
    return this.stateKeys(state).ciudad.slice();
  }

  /** The municipalities in scope, in catalog order; `Missing` for every state file still to come. */
  private known(): ViewMunicipality[] {
    if (this.municipalities) return this.municipalities;
    let states: number[] = [];
    if (this.scope === 'all') states = this.states().estado.map((_, state) => state);
    else if (this.scope) {
      const state = findState(this, this.scope.estado);
      if (state >= 0) states = [state];
    }
    this.need(states.map((state) => `s${this.clave(state)}`));
    const list: ViewMunicipality[] = [];
    for (const state of states) {
      const { municipios, entries } = this.stateFile(state);
      for (const [name, key] of entries) list.push({ state, name: municipios[name]!, part: `m${this.clave(state)}-${String(key).padStart(3, '0')}` });
    }
    return (this.municipalities = list);
  }

  get municipalityCount(): number {
    return this.known().length;
  }

  nameOfMunicipality(municipality: number): string {
    return this.known()[municipality]!.name;
  }

  stateOfMunicipality(municipality: number): number {
    return this.known()[municipality]!.state;
  }

  codesOfState(state: number, limit = Number.POSITIVE_INFINITY): string[] {
    return this.file<CodeListFile>(`p${this.clave(state)}`).cp.slice(0, limit);
  }

  /** The files of some municipalities, all at once: `Missing` lists every one still to come. */
  private municipalityFiles(municipalities: readonly number[]): MunicipalityFile[] {
    const parts = municipalities.map((m) => this.known()[m]!.part);
    this.need(parts);
    return parts.map((part) => this.file<MunicipalityFile>(part));
  }

  codesOfMunicipalities(municipalities: readonly number[], limit = Number.POSITIVE_INFINITY): string[] {
    const files = this.municipalityFiles(municipalities);
    // No code lies in two municipalities: the union is the concatenation, put in order.
    const codes = files.length === 1 ? files[0]!.cp.slice() : files.flatMap((file) => file.cp).sort();
    return codes.slice(0, limit);
  }

  /** The catalog's rule, over each municipality's own list: by lowest code, each name once. */
  settlementNamesOfMunicipalities(municipalities: readonly number[]): string[] {
    const files = this.municipalityFiles(municipalities);
    if (files.length === 1) return files[0]!.colonia.slice();
    const byFirstCode = files.slice().sort((a, b) => (a.cp[0]! < b.cp[0]! ? -1 : 1));
    return [...new Set(byFirstCode.flatMap((file) => file.colonia))];
  }

  private digit(digit: string): DigitFile | undefined {
    if (this.arrived.manifest.digits[digit] === undefined) return undefined;
    return this.file<DigitFile>(`d${digit}`);
  }

  /** The shard of a three-digit prefix; undefined when no code has it. */
  private shard(prefix: string): ShardFile | undefined {
    if (this.digit(prefix[0]!)?.shards[prefix] === undefined) return undefined;
    return this.file<ShardFile>(`c${prefix}`);
  }

  /** A code's geodata in its shard ([point, centroid, box, area]: format.ts), undefined when it has none; `Missing` for the shard. */
  geoFacts(cp: string): ShardGeo | undefined {
    return this.shard(cp.slice(0, 3))?.geo?.[cp.slice(3)];
  }

  /** A code's entry in its shard, with the shard. */
  private entry(code: number): [ShardCode, ShardFile] {
    const cp = this.postalCode(code);
    const shard = this.shard(cp.slice(0, 3))!;
    return [shard.cp.find((entry) => entry[0] === cp.slice(3))!, shard];
  }

  codeIndex(postalCode: string): number {
    const shard = this.shard(postalCode.slice(0, 3));
    const suffix = postalCode.slice(3);
    return shard?.cp.some((entry) => entry[0] === suffix) ? Number(postalCode) : -1;
  }

  codesStartingWith(digits: string): string[] {
    let codes: readonly string[] = [];
    if (digits.length < 3) {
      const digit = this.digit(digits[0]!);
      if (digit) codes = this.file<CodeListFile>(`k${digits[0]}`).cp;
    } else {
      const prefix = digits.slice(0, 3);
      codes = this.shard(prefix)?.cp.map((entry) => prefix + entry[0]) ?? [];
    }
    return codes.filter((code) => code.startsWith(digits));
  }

  postalCode(code: number): string {
    return String(code).padStart(5, '0');
  }

  municipalityOf(code: number): string {
    const [entry, shard] = this.entry(code);
    return shard.municipios[entry[1]]![1];
  }

  stateOf(code: number): string {
    const [entry, shard] = this.entry(code);
    return shard.municipios[entry[1]]![0];
  }

  cityOf(code: number): string {
    const [entry, shard] = this.entry(code);
    return shard.ciudades[entry[2]]!;
  }

  settlementStartOf(code: number): number {
    return code * SETTLEMENTS_PER_CODE;
  }

  settlementEndOf(code: number): number {
    return code * SETTLEMENTS_PER_CODE + this.entry(code)[0][3].length / 2;
  }

  /** A settlement's name and type index, with its shard. */
  private settlement(settlement: number): [string, number, ShardFile] {
    const [entry, shard] = this.entry(Math.floor(settlement / SETTLEMENTS_PER_CODE));
    const at = (settlement % SETTLEMENTS_PER_CODE) * 2;
    return [entry[3][at] as string, entry[3][at + 1] as number, shard];
  }

  settlementName(settlement: number): string {
    return this.settlement(settlement)[0];
  }

  settlementType(settlement: number): string {
    const [, type, shard] = this.settlement(settlement);
    return shard.tipos[type]!;
  }

  /** A code's answer parts as the catalog gathers them (see CodeEntry in core/catalog.ts), made from this view's reads. */
  codeEntry(code: number): readonly string[] {
    const start = this.settlementStartOf(code);
    const end = this.settlementEndOf(code);
    const entry = [this.municipalityOf(code), this.stateOf(code), this.cityOf(code)];
    for (let s = start; s < end; s++) entry.push(this.settlementName(s));
    for (let s = start; s < end; s++) entry.push(this.settlementType(s));
    return entry;
  }

  postalCodeEntry(cp: string): readonly string[] | undefined {
    const code = this.codeIndex(cp);
    return code < 0 ? undefined : this.codeEntry(code);
  }

  settlementNamesOf(code: number): string[] {
    const settlements = this.entry(code)[0][3];
    const names: string[] = [];
    for (let at = 0; at < settlements.length; at += 2) names.push(settlements[at] as string);
    return names;
  }

  // The colonia filter's reads: only its search (in web-extra.js) calls them, so their code is there (view-search.ts).
  codeRunsOfState(state: number): readonly number[] {
    return extra().codeRunsOfState(this, state);
  }

  municipalityIndexOf(code: number): number {
    return extra().municipalityIndexOf(this, code);
  }

  /** Settlements stand for their own names: the search folds each once per view either way. */
  settlementNameIndex(settlement: number): number {
    return settlement;
  }

  settlementNameAt(name: number): string {
    return this.settlementName(name);
  }
}
