/**
 * The catalog model: rows in, artifact out. Settlements are grouped by postal code keeping
 * catalog order, strings are interned per kind in order of first use (so the same input
 * always gives the same tables), and the codes become a prefix trie.
 */
import {
  CODE_LENGTH,
  FORMAT_NAME,
  FORMAT_VERSION,
  MAX_SETTLEMENT_NAMES,
  MAX_SETTLEMENT_TYPES,
  SETTLEMENT_BYTES,
  SETTLEMENT_NAME_BITS,
  compactUints,
  toStringTable,
  type Artifact,
  type ArtifactHeader,
} from '../src/core/format.js';
import { foldStateName } from '../src/core/names.js';
import { CatalogError } from './errors.js';
import { SHAPE_LIMITS } from './limits.js';
import type { CatalogRow } from './reader.js';

interface CodeEntry {
  /** `c_estado * 1000 + c_mnpio` of the code's first row. */
  municipality: number;
  /** First non-empty city of the code in catalog order. */
  city: string;
  /** `rank`: the settlement's place among its municipality's settlements, in catalog order. */
  settlements: { name: string; type: string; rank: number }[];
}

interface Named {
  name: string;
  line: number;
  /** The source it was read from. */
  where: string;
}

/** Where the catalog came from, as the artifact's header records it (see build/provenance.ts). */
export type Provenance = Pick<ArtifactHeader, 'source' | 'notice' | 'sources' | 'builtAt'>;

/** Interns strings in order of first use. */
class Interner {
  readonly entries: string[] = [];
  private readonly index = new Map<string, number>();
  constructor(seed: string[] = []) {
    for (const entry of seed) this.id(entry);
  }
  id(entry: string): number {
    let id = this.index.get(entry);
    if (id === undefined) {
      id = this.entries.push(entry) - 1;
      this.index.set(entry, id);
    }
    return id;
  }
}

export class CatalogModel {
  rows = 0;
  private readonly codes = new Map<string, CodeEntry>();
  private readonly states = new Map<number, Named>();
  private readonly municipalities = new Map<number, Named>();
  /** Per state key: each city name (in catalog order of first use) with the lowest `c_cve_ciudad` it has. */
  private readonly cities = new Map<number, Map<string, number>>();
  /** Settlements counted so far per folded municipality name, for SHAPE_LIMITS. */
  private readonly settlementsByMunicipalityName = new Map<string, number>();
  /** Each municipality name's fold, made once (names are bounded by SHAPE_LIMITS, their number by the keys). */
  private readonly foldedMunicipalities = new Map<string, string>();
  /** Settlements counted so far per municipality (of their code), for their ranks. */
  private readonly municipalitySettlements = new Map<number, number>();

  /** `where` names the source in errors; `readingFrom` changes it when several sources are read. */
  constructor(private where: string) {}

  /** The rows that follow come from `where`. */
  readingFrom(where: string): void {
    this.where = where;
  }

  get codeCount(): number {
    return this.codes.size;
  }

  add(row: CatalogRow): void {
    this.checkShape(row);
    this.rows++;
    this.agree(this.states, row.stateKey, row.state, row.line, 'c_estado', String(row.stateKey).padStart(2, '0'));
    const municipality = row.stateKey * 1000 + row.municipalityKey;
    this.agree(
      this.municipalities,
      municipality,
      row.municipality,
      row.line,
      'c_mnpio',
      `${String(row.municipalityKey).padStart(3, '0')} of c_estado ${String(row.stateKey).padStart(2, '0')}`,
    );
    if (row.city) this.addCity(row);
    let code = this.codes.get(row.postalCode);
    if (!code) {
      code = { municipality, city: row.city, settlements: [] };
      this.codes.set(row.postalCode, code);
    } else if (!code.city) {
      code.city = row.city;
    }
    const rank = this.municipalitySettlements.get(code.municipality) ?? 0;
    this.municipalitySettlements.set(code.municipality, rank + 1);
    code.settlements.push({ name: row.settlement, type: row.settlementType, rank });
  }

  /** Refuses a row past SHAPE_LIMITS (a name too long, a code or a municipality name with too many settlements, a state with too many cities). */
  private checkShape(row: CatalogRow): void {
    const { maxNameChars, maxSettlementsPerCode, maxSettlementsPerMunicipalityName, maxCitiesPerState } = SHAPE_LIMITS;
    for (const [column, name] of [
      ['d_asenta', row.settlement],
      ['d_tipo_asenta', row.settlementType],
      ['D_mnpio', row.municipality],
      ['d_estado', row.state],
      ['d_ciudad', row.city],
    ] as const) {
      if (name.length > maxNameChars) throw new CatalogError(this.where, `${column} is ${name.length} characters long, more than a name may be (${maxNameChars})`, row.line);
    }
    if ((this.codes.get(row.postalCode)?.settlements.length ?? 0) >= maxSettlementsPerCode) {
      throw new CatalogError(this.where, `postal code ${row.postalCode} has more than ${maxSettlementsPerCode} settlements, more than a code may have`, row.line);
    }
    // Counted by the name lookups fold, as a lookup by municipality name gathers them.
    let folded = this.foldedMunicipalities.get(row.municipality);
    if (folded === undefined) this.foldedMunicipalities.set(row.municipality, (folded = foldStateName(row.municipality)));
    const inName = (this.settlementsByMunicipalityName.get(folded) ?? 0) + 1;
    if (inName > maxSettlementsPerMunicipalityName) {
      throw new CatalogError(this.where, `the municipalities named "${row.municipality}" have more than ${maxSettlementsPerMunicipalityName} settlements together, more than a municipality name may have`, row.line);
    }
    this.settlementsByMunicipalityName.set(folded, inName);
    const cities = this.cities.get(row.stateKey);
    if (row.city && cities && !cities.has(row.city) && cities.size >= maxCitiesPerState) {
      throw new CatalogError(this.where, `c_estado ${String(row.stateKey).padStart(2, '0')} has more than ${maxCitiesPerState} cities, more than a state may have`, row.line);
    }
  }

  /**
   * Cities are listed by key, each name once at its lowest key; a city without a key comes
   * after the keyed ones. Nothing here is refused: the key only orders a list, so a key that
   * names two cities lists both there, in catalog order.
   */
  private addCity(row: CatalogRow): void {
    let cities = this.cities.get(row.stateKey);
    if (!cities) this.cities.set(row.stateKey, (cities = new Map()));
    const key = row.cityKey ?? Number.POSITIVE_INFINITY;
    const known = cities.get(row.city);
    if (known === undefined || key < known) cities.set(row.city, key);
  }

  /** A key must carry one name throughout the catalog, or lookups would depend on row order. */
  private agree(names: Map<number, Named>, key: number, name: string, line: number, column: string, label: string) {
    const known = names.get(key);
    if (!known) names.set(key, { name, line, where: this.where });
    else if (known.name !== name) {
      const there = known.where === this.where ? `on line ${known.line}` : `in ${known.where}, line ${known.line}`;
      throw new CatalogError(this.where, `${column} ${label} is named "${name}" here but "${known.name}" ${there}`, line);
    }
  }

  toArtifact(provenance: Provenance): Artifact {
    if (this.rows === 0) throw new CatalogError(this.where, 'has a header but no data rows');
    const postalCodes = [...this.codes.keys()].sort();
    const stateKeys = [...this.states.keys()].sort((a, b) => a - b);
    const stateIndex = new Map(stateKeys.map((key, i) => [key, i]));
    const municipalityIds = [...this.municipalities.keys()].sort((a, b) => a - b);
    const municipalityIndex = new Map(municipalityIds.map((id, i) => [id, i]));
    const municipalityNames = new Interner();
    const municipalityName = municipalityIds.map((id) => municipalityNames.id(this.municipalities.get(id)!.name));
    const cities = new Interner(['']);
    const types = new Interner();
    const names = new Interner();

    const codeMunicipality: number[] = [];
    const codeCity: number[] = [];
    const codeSettlements: number[] = [];
    const settlements = new Uint8Array(this.rows * SETTLEMENT_BYTES);
    // Each settlement's rank in its municipality, kept only if some municipality's settlements
    // are not in catalog order once grouped by code (never in a catalog sorted by code).
    const settlementRanks: number[] = [];
    const lastRank = new Map<number, number>();
    let inCatalogOrder = true;
    let at = 0;
    for (const postalCode of postalCodes) {
      const code = this.codes.get(postalCode)!;
      codeMunicipality.push(municipalityIndex.get(code.municipality)!);
      codeCity.push(cities.id(code.city));
      codeSettlements.push(code.settlements.length);
      for (const { name, type, rank } of code.settlements) {
        if (rank !== (lastRank.get(code.municipality) ?? -1) + 1) inCatalogOrder = false;
        lastRank.set(code.municipality, rank);
        settlementRanks.push(rank);
        const packed = names.id(name) | (types.id(type) << SETTLEMENT_NAME_BITS);
        settlements[at++] = packed & 0xff;
        settlements[at++] = (packed >>> 8) & 0xff;
        settlements[at++] = (packed >>> 16) & 0xff;
      }
    }
    if (names.entries.length > MAX_SETTLEMENT_NAMES || types.entries.length > MAX_SETTLEMENT_TYPES) {
      throw new CatalogError(
        this.where,
        `has ${names.entries.length} distinct settlement names and ${types.entries.length} types; ` +
          `format ${FORMAT_VERSION} holds at most ${MAX_SETTLEMENT_NAMES} and ${MAX_SETTLEMENT_TYPES}`,
      );
    }

    // Each state's cities by key (each name once, at its lowest key), then those without a key.
    const stateCityCounts: number[] = [];
    const stateCities: number[] = [];
    for (const stateKey of stateKeys) {
      // A stable sort: cities of one key stay in catalog order.
      const names = [...(this.cities.get(stateKey) ?? [])].sort(([, a], [, b]) => (a === b ? 0 : a < b ? -1 : 1)).map(([name]) => name);
      stateCityCounts.push(names.length);
      for (const name of names) stateCities.push(cities.id(name));
    }

    return {
      header: {
        format: FORMAT_NAME,
        version: FORMAT_VERSION,
        rows: this.rows,
        codes: postalCodes.length,
        states: stateKeys.length,
        municipalities: municipalityIds.length,
        ...provenance,
      },
      strings: {
        states: toStringTable(stateKeys.map((key) => this.states.get(key)!.name)),
        municipalities: toStringTable(municipalityNames.entries),
        cities: toStringTable(cities.entries),
        types: toStringTable(types.entries),
        settlements: toStringTable(names.entries),
      },
      stateKeys: compactUints(stateKeys),
      municipalityState: compactUints(municipalityIds.map((id) => stateIndex.get(Math.floor(id / 1000))!)),
      municipalityKey: compactUints(municipalityIds.map((id) => id % 1000)),
      municipalityName: compactUints(municipalityName),
      trie: buildTrie(postalCodes),
      codeMunicipality: compactUints(codeMunicipality),
      codeCity: compactUints(codeCity),
      codeSettlements: compactUints(codeSettlements),
      settlements,
      ...(inCatalogOrder ? {} : { settlementRanks: compactUints(settlementRanks) }),
      stateCityCounts: compactUints(stateCityCounts),
      stateCities: compactUints(stateCities),
    };
  }
}

/**
 * Child masks of the trie's internal nodes, breadth first. Sorted codes make each depth's
 * prefixes come out sorted, which is the order the runtime numbers the nodes in.
 */
export function buildTrie(sortedCodes: readonly string[]): Uint16Array {
  const masks: number[] = [];
  for (let depth = 0; depth < CODE_LENGTH; depth++) {
    let parent: string | undefined;
    let previous: string | undefined;
    for (const code of sortedCodes) {
      const prefix = code.slice(0, depth + 1);
      if (prefix === previous) continue;
      previous = prefix;
      if (prefix.slice(0, depth) !== parent) {
        parent = prefix.slice(0, depth);
        masks.push(0);
      }
      masks[masks.length - 1]! |= 1 << Number(prefix[depth]);
    }
  }
  return Uint16Array.from(masks);
}
