/**
 * Places named by names: the codes whose settlement, municipality and state are the ones a
 * record or a one-line address gives. One rule, used by `cpmx parse` for a line without a
 * code and by validation for a record whose code is missing, impossible or disagrees with its
 * names (which field is wrong). Every settlement of the catalog is indexed by its key (folded,
 * shortenings expanded; settlement-index.ts) once per catalog and thread, at the first record
 * that needs it, never for records whose code agrees with their names.
 */
import type { Catalog } from '../core/catalog.js';
import { afterDe, findMunicipalities, findState, mayDropType, municipalitiesOfKey, nameKey, settlementKey, settlementMatcherOf, splitSettlementType, typeMovedFront, writtenDowntownKey } from '../core/names.js';
import { cityNames, DOWNTOWN, namedByPartAlone, withoutPlaceAfter } from '../core/settlement-other-keys.js';
import { ownCopy } from '../core/own-copy.js';
import { shortenedMunicipality } from '../core/shortened-municipalities.js';
import { Remembered } from './remembered.js';
import { LooseNames } from './loose-names.js';
import { SettlementIndex, type SettlementIndexData } from './settlement-index.js';

/** At most this many codes are listed when names fit several (a line without a code, a record whose code is in doubt). */
export const MAX_CODES = 10;

/** The most municipalities whose undivided towns are read for a downtown (a name names one or a few). */
const MAX_TOWN_MUNICIPALITIES = 4;

/** Longer texts than any catalog name (128 characters) name no place: not looked up, never remembered. */
const MAX_NAME_CHARS = 160;

/** Codes of one key read for their own names at most (`ownFirst`): more are a common name's (`Centro` in a state), judged by other rules. */
const MAX_OWN_READ = MAX_CODES;

/**
 * The places a catalog's names name, for one catalog: the rule of codes from names, with the
 * readings of names as written remembered (states, settlement keys) and the places of a key
 * found in the settlement index (a binary search: nothing kept per answer).
 */
export class PlaceFinder {
  /** Every settlement by its key, made at the first name that needs it. */
  private settlementIndex: SettlementIndex | undefined;
  private readonly states = new Map<string, number>();
  /** Settlement keys of texts as written (they repeat far more than they vary). */
  private readonly keys = new Remembered(settlementKey);
  /** A text's name without its type (its key) and that type; null when no type leads it (read once per text, as its key is). */
  private readonly restKeys = new Remembered((text: string): { key: string; type: string | null } | null => {
    const { type, name } = splitSettlementType(text);
    return name && name !== text ? { key: settlementKey(name), type } : null;
  });

  constructor(readonly catalog: Catalog) {}

  /** The state a name names (a final dot set aside when needed: `Nuevo Leon.`), or -1. */
  state(name: string): number {
    let state = this.states.get(name);
    if (state === undefined) {
      state = findState(this.catalog, name);
      if (state < 0 && name.endsWith('.')) state = findState(this.catalog, name.slice(0, -1));
      if (name.length <= MAX_NAME_CHARS) {
        if (this.states.size >= 50_000) this.states.clear();
        this.states.set(ownCopy(name), state);
      }
    }
    return state;
  }

  /**
   * The municipalities a name names (in `state` when one is given; a final dot set aside when
   * needed), else with only its spaces or punctuation changed (`GUSTAVO A MADERO`), else the
   * one it names written short (`Ecatepec`, `Tlaquepaque`; see core/shortened-municipalities).
   */
  municipalities(name: string, state: number): readonly number[] {
    const found = findMunicipalities(this.catalog, name, state);
    if (found.length) return found;
    const bare = name.endsWith('.') ? findMunicipalities(this.catalog, name.slice(0, -1), state) : found;
    if (bare.length) return bare;
    const respaced = this.respaced.get(name).filter((m) => state < 0 || this.catalog.stateOfMunicipality(m) === state);
    return respaced.length ? respaced : shortenedMunicipality(this.catalog, name, state);
  }

  /**
   * The municipality a city written names when the city lies in that one alone, as people write
   * a municipality by its seat's name (`Toluca de Lerdo` for Toluca, `Ciudad Adolfo López
   * Mateos` for Atizapán de Zaragoza); -1 for a city of several (Ciudad de México) or no city.
   */
  cityMunicipality(name: string, state: number): number {
    const municipalities = this.cityMunicipalities(name, state);
    return municipalities.length === 1 ? municipalities[0]! : -1;
  }

  /** The municipalities a record's `municipio` names (`municipalities`), else the one whose city it names (`cityMunicipality`). */
  recordMunicipalities(municipio: string, state: number): readonly number[] {
    return this.readMunicipio(municipio, state).municipalities;
  }

  /** A record's `municipio` read: the municipalities it names, and whether it names them as a city. */
  private readMunicipio(municipio: string, state: number): { municipalities: readonly number[]; asCity: boolean } {
    if (!municipio.trim() || municipio.length > MAX_NAME_CHARS) return { municipalities: NONE, asCity: false };
    const found = this.municipalities(municipio, state);
    if (found.length) return { municipalities: found, asCity: false };
    const byCity = this.cityMunicipality(municipio, state);
    return byCity < 0 ? { municipalities: NONE, asCity: false } : { municipalities: [byCity], asCity: true };
  }

  /** Every state's municipalities a name names with only its spaces or punctuation changed (`GUSTAVO A MADERO`), read once per name. */
  private readonly respaced = new Remembered((name: string) => municipalitiesOfKey(this.catalog, nameKey(name)));

  /** The municipalities of each city, by the city's settlement key, with their states; made at the first city asked. */
  private cityPlaces: Map<string, { state: number; municipality: number }[]> | undefined;

  /**
   * The municipalities whose codes have the city a name names (in `state` when one is given):
   * `Los Mochis` is Ahome's, `Ciudad de México` every alcaldía's; [] for a name that names no
   * city. Read as the catalog writes its cities (`settlementKey`: folded, shortenings expanded).
   */
  cityMunicipalities(name: string, state: number): readonly number[] {
    if (name.length > MAX_NAME_CHARS) return NONE;
    const places = (this.cityPlaces ??= this.cities()).get(this.keys.get(name));
    if (!places) return NONE;
    return places.filter((place) => state < 0 || place.state === state).map((place) => place.municipality);
  }

  /**
   * The codes of a settlement (or, without one, of the places) within a city, given the
   * municipalities it is in (`cityMunicipalities`): only codes of that city (`Col. Centro, Los
   * Mochis` is not *Ahome Centro*, in the city Ahome); [] when none.
   */
  codesInCity(settlement: string | null, city: string, municipalities: readonly number[], state: number): readonly number[] {
    if (municipalities.length === 0) return NONE;
    const key = this.keys.get(city);
    return this.codesNamed(settlement, municipalities, state).filter((code) => this.isCityKey(this.catalog.cityOf(code), key));
  }

  /** The keys of the names a catalog city is known by (`cityNames`: `Juchitán de Zaragoza` for *Juchitán (Juchitán de Zaragoza)*). */
  private cityKeys(city: string): string[] {
    return cityNames(city).map((name) => this.keys.get(name));
  }

  /** Whether a catalog city is named by the key of a city written. */
  private isCityKey(city: string, key: string): boolean {
    return this.keys.get(city) === key || (city.includes('(') && this.cityKeys(city).includes(key));
  }

  private cities(): Map<string, { state: number; municipality: number }[]> {
    const catalog = this.catalog;
    const places = new Map<string, { state: number; municipality: number }[]>();
    for (let code = 0; code < catalog.codeCount; code++) {
      const city = catalog.cityOf(code);
      if (!city.trim()) continue;
      const municipality = catalog.municipalityIndexOf(code);
      for (const key of this.cityKeys(city)) {
        let list = places.get(key);
        if (!list) places.set(key, (list = []));
        // A city's municipalities are few (16 at most): a list is enough.
        if (!list.some((place) => place.municipality === municipality)) list.push({ state: catalog.stateOfMunicipality(municipality), municipality });
      }
    }
    return places;
  }

  /** Whether a settlement key names a place within the municipalities (any, when empty) or the state (any, when -1). */
  hasPlaces(key: string, municipalities: readonly number[], state: number): boolean {
    return this.codesOfKey(key, municipalities, state).length > 0;
  }

  /**
   * The code indices named by a settlement (as written, then without its type) within the
   * municipalities or the state named, else by the one municipality named; [] when the names
   * name no code. `limit` bounds the municipality's codes listed.
   */
  codesNamed(settlement: string | null, municipalities: readonly number[], state: number, limit = MAX_CODES + 1): readonly number[] {
    if (settlement && (municipalities.length || state >= 0)) {
      const codes = this.settlementCodes(settlement, municipalities, state, true, true);
      if (codes.length) return codes;
    }
    if (municipalities.length === 1) return this.catalog.codesOfMunicipalities(municipalities, limit).map((cp) => this.catalog.codeIndex(cp));
    return [];
  }

  /** The code indices (ascending) with a settlement of the very name written (its key: no type set aside, no other reading) within the municipalities. */
  codesOfName(settlement: string, municipalities: readonly number[]): readonly number[] {
    // Keyed afresh, not remembered: asked once per record read in another form (`Col. ...`), whose texts vary more than they repeat.
    return settlement.length > MAX_NAME_CHARS ? NONE : this.codesOfKey(settlementKey(settlement), municipalities, -1);
  }

  /**
   * The code indices of a settlement (its key as written, else without its type and a `de`
   * after it, else as a downtown: `writtenDowntownKey`, else as a town, else read loosely as
   * parse/loose-names reads it, unless `loosely` is false; else, if `misspelt`, as a
   * misspelling of one settlement of the municipalities) within the municipalities, else the
   * state.
   */
  settlementCodes(settlement: string, municipalities: readonly number[], state: number, loosely = true, misspelt = false): readonly number[] {
    if (settlement.length > MAX_NAME_CHARS) return NONE;
    // The key as written, its type word and all.
    const typed = this.keys.get(settlement);
    const whole = this.codesOfKey(typed, municipalities, state);
    if (whole.length) return this.ownFirst(whole, typed);
    const rested = this.restKeys.get(settlement);
    const rest = rested?.key ?? null;
    // The type set aside as the settlement matcher sets it aside (`mayDropType`): one that names
    // another place (`Ampliación Granada`) only before a settlement the catalog types so.
    const type = rested?.type ?? null;
    let byRest = rest === null ? whole : this.ownFirst(this.typedAs(this.codesOfKey(rest, municipalities, state), rest, type), rest);
    // The type written with `de` after it (`Barrio de San Martín`).
    const after = rest === null ? undefined : afterDe(rest);
    if (!byRest.length && after) byRest = this.ownFirst(this.typedAs(this.codesOfKey(after, municipalities, state), after, type), after);
    if (byRest.length) return byRest;
    // A downtown as people write it (`Zona Centro`, `Centro Histórico`): where the catalog has a Centro.
    // The name after a type that names another place is no name of its own: read with its type.
    const written = rest !== null && mayDropType(type, undefined) ? rest : typed;
    const downtown = writtenDowntownKey(written) ?? this.downtownOf(written, municipalities);
    const byDowntown = downtown ? this.codesOfKey(downtown, municipalities, state) : byRest;
    if (byDowntown.length) return byDowntown;
    // The name with its municipality written after it (`Santa Bárbara Ixtapaluca`).
    for (const m of municipalities) {
      const bare = withoutPlaceAfter(written, this.municipalityKey(m), true);
      const byBare = bare ? this.codesOfKey(bare, municipalities, state) : NONE;
      if (byBare.length) return byBare;
    }
    // A town the catalog does not divide, written as a downtown where the catalog has no Centro
    // (`Centro, Perote` is 91270) or by its municipality's name (`Tepetlaoxtoc` is 56070, the
    // Pueblo *Tepetlaoxtoc de Hidalgo*), by the settlement matcher's rule.
    if (municipalities.length && municipalities.length <= MAX_TOWN_MUNICIPALITIES) {
      const town = written === DOWNTOWN || downtown === DOWNTOWN ? DOWNTOWN : municipalities.some((m) => this.municipalityKey(m) === written) ? written : undefined;
      const towns = town === undefined ? NONE : this.undividedTowns(municipalities, town);
      if (towns.length) return towns;
    }
    // Its type written after it (`JALALPA AMPL.`), read as if in front (once: then a type leads it).
    const moved = rest === null ? typeMovedFront(settlement) : undefined;
    const byMoved = moved ? this.settlementCodes(moved, municipalities, state, loosely) : NONE;
    if (byMoved.length) return byMoved;
    // Last, the name with or without its joining words (`Granjas San Antonio` is *Granjas de San
    // Antonio*), its section or a title, as the settlement matcher reads it: where no code has it as
    // written, and unless the caller knows the name for a misspelling (`loosely` false).
    // Then, for names without a code (`misspelt`), a misspelling of one settlement of the
    // municipalities written (`Corpus Cristy`); a code written beside it is judged, not replaced.
    if (!loosely) return NONE;
    const loose = (this.looseNames ??= new LooseNames(this.catalog, (s) => this.index().keyOfSettlement(s)));
    // The type word may be the name's own (`EXHACIENDA DE COAPA` is *Ex-Hacienda Coapa*): read with it too.
    const byLoose = loose.codes(written, municipalities, state);
    const byLooseTyped = byLoose.length || typed === written ? byLoose : loose.codes(typed, municipalities, state);
    if (byLooseTyped.length || !misspelt) return byLooseTyped;
    // As written first: a type word may be the name's own (`Villa Verdum` for *Villa Verdún*).
    const byTyped = typed === written ? NONE : loose.misspelt(typed, municipalities);
    return byTyped.length ? byTyped : loose.misspelt(written, municipalities);
  }

  /**
   * Of a few codes a key names, those that are not named by a part in parentheses alone
   * (`namedByPartAlone`), when some are: a settlement's other name yields to another's own
   * (`La Purísima` in Valle de Santiago is 38426's Granja *La Purísima*, not 38425's *Familia
   * Sosa Balderas (La Purísima)*). Two own names stay two codes (*Guadalupe* and *Guadalupe (Las
   * Flores)* of Las Margaritas).
   */
  private ownFirst(codes: readonly number[], key: string): readonly number[] {
    if (codes.length < 2 || codes.length > MAX_OWN_READ) return codes;
    const keyOf = (text: string) => this.keys.get(text);
    const own = codes.filter((code) => !namedByPartAlone(this.catalog.settlementNamesOf(code), key, keyOf));
    return own.length === 0 ? codes : own;
  }

  /** The municipalities' names as settlement keys, by municipality, each made at its first use. */
  private readonly municipalityKeys: (string | undefined)[] = [];

  /** Of `codes`, those with a settlement of key `key` before which the type written may be set aside (`mayDropType`): all, but for a type that names another place. */
  private typedAs(codes: readonly number[], key: string, type: string | null): readonly number[] {
    if (codes.length === 0 || mayDropType(type, undefined)) return codes;
    const catalog = this.catalog;
    const index = this.index();
    return codes.filter((code) => {
      for (let s = catalog.settlementStartOf(code), end = catalog.settlementEndOf(code); s < end; s++) if (index.keyOfSettlement(s) === key && mayDropType(type, catalog.settlementType(s))) return true;
      return false;
    });
  }

  /** A municipality's name as a settlement key (found by its number: not among the 50,000 texts' keys remembered). */
  private municipalityKey(m: number): string {
    return (this.municipalityKeys[m] ??= settlementKey(this.catalog.nameOfMunicipality(m)));
  }

  /** `centro` when a written key is the downtown of one of the municipalities, written with its place after (`Centro de Tlalnepantla de Baz`); else undefined. */
  private downtownOf(written: string, municipalities: readonly number[]): string | undefined {
    if (!written.startsWith(DOWNTOWN)) return undefined;
    return municipalities.some((m) => writtenDowntownKey(written, this.municipalityKey(m)) === DOWNTOWN) ? DOWNTOWN : undefined;
  }

  /** The codes of the municipalities whose town `town` names (`Centro`, the municipality's name): towns the catalog does not divide (core/settlement-names). */
  private undividedTowns(municipalities: readonly number[], town: string): readonly number[] {
    const catalog = this.catalog;
    const codes: number[] = [];
    for (const m of municipalities) {
      const runs = catalog.codeRunsOfMunicipality(m);
      for (let r = 0; r < runs.length; r += 2) for (let code = runs[r]!; code < runs[r + 1]!; code++) if (settlementMatcherOf(catalog, code).townNamed(town) >= 0) codes.push(code);
    }
    return codes.length ? codes.sort((a, b) => a - b) : NONE;
  }

  /** The codes (ascending, each once) of the settlements with key `key` within the municipalities (any, when empty) or the state (any, when -1). */
  private codesOfKey(key: string, municipalities: readonly number[], state: number): readonly number[] {
    return this.index().codesOf(key, municipalities, state);
  }

  private index(): SettlementIndex {
    return (this.settlementIndex ??= SettlementIndex.build(this.catalog));
  }

  /** Settlements read loosely, by municipality, made at the first name read so. */
  private looseNames: LooseNames | undefined;

  /** The settlement index as data for the other threads of a run, once this thread has made it (undefined before). */
  settlementIndexData(): SettlementIndexData | undefined {
    return this.settlementIndex?.toData();
  }

  /** Takes the settlement index another thread made of the same build of the catalog, unless this thread has one. */
  takeSettlementIndex(data: SettlementIndexData): void {
    this.settlementIndex ??= SettlementIndex.fromData(this.catalog, data);
  }

  /**
   * The codes a record's names name: its settlement within its municipality and state (or any
   * two of them), else its municipality in its state; [] unless two names agree. A name that
   * names nothing is set aside; a municipality of another state than the one written names none.
   * Without a municipality, the city written stands for one, as records write it: a
   * municipality's name (`Zapopan`), else a city's (`Los Mochis`: Ahome), when the names then
   * name codes (a city that names none of them is set aside).
   */
  codesOfRecord(asentamiento: string, municipio: string, estado: string, ciudad = ''): readonly number[] {
    const state = estado.trim() && estado.length <= MAX_NAME_CHARS ? this.state(estado) : -1;
    const { municipalities, asCity } = this.readMunicipio(municipio, state);
    // A municipality written by its city's name (`Toluca de Lerdo`): the city is one more name (below).
    if (asCity && !ciudad.trim()) ciudad = municipio;
    // A municipality written beside a state it is not in: the two disagree, so neither names a place with the other.
    if (municipalities.length === 0 && state >= 0 && municipio.trim()) return NONE;
    const settlement = asentamiento.trim() ? asentamiento : null;
    if (!municipio.trim() && ciudad.trim() && ciudad.length <= MAX_NAME_CHARS) {
      const named = this.municipalities(ciudad, state);
      if (named.length) {
        const byMunicipality = this.namedBy(settlement, named, state);
        if (byMunicipality.length) return byMunicipality;
      } else if (settlement || state >= 0) {
        // The city stands for the municipality: with the settlement or the state, two names agree.
        const byCity = this.codesInCity(settlement, ciudad, this.cityMunicipalities(ciudad, state), state);
        if (byCity.length) return byCity;
      }
    }
    const named = this.namedBy(settlement, municipalities, state);
    // A city of the municipality written is one more name: only codes of that city are taken
    // (`Centro, Ahome, Sinaloa, Los Mochis` is Los Mochis' downtown, not Ahome's or
    // Topolobampo's). Any other city (often a locality) says nothing.
    if (named.length && municipalities.length && ciudad.trim() && this.cityMunicipalities(ciudad, state).some((m) => municipalities.includes(m))) {
      return this.ofCity(named, ciudad);
    }
    return named;
  }

  /**
   * Of `codes`, those whose city is the one written (as the catalog writes its cities:
   * `settlementKey`), else those that have none (which no city written can contradict: a
   * ranchería near the town); [] when none is. `Rosarito, Los Cabos, San José del Cabo` is
   * the city's Colonia (23407), not the Ranchería without a city (23587). A name that is no
   * city of the catalog's but a municipality (in `state` when one is given), as INEGI writes
   * an alcaldía for Ciudad de México's city (`Benito Juárez`) and people a city short
   * (`Escobedo` for General Escobedo), keeps the codes of that municipality.
   */
  ofCity(codes: readonly number[], city: string, state = -1): readonly number[] {
    if (city.length > MAX_NAME_CHARS) return NONE;
    const key = this.keys.get(city);
    const catalog = this.catalog;
    const inCity = codes.filter((code) => this.isCityKey(catalog.cityOf(code), key));
    if (inCity.length) return inCity;
    if (this.cityMunicipalities(city, -1).length === 0) {
      const municipalities = this.municipalities(city, state);
      const inMunicipality = codes.filter((code) => municipalities.includes(catalog.municipalityIndexOf(code)));
      if (inMunicipality.length) return inMunicipality;
    }
    return codes.filter((code) => !catalog.cityOf(code).trim());
  }

  /** The codes of a settlement, municipalities and state read from a record; [] unless two of them are given. */
  private namedBy(settlement: string | null, municipalities: readonly number[], state: number): readonly number[] {
    // One name alone names no code: two of them must agree.
    if ((settlement ? 1 : 0) + (municipalities.length ? 1 : 0) + (state >= 0 ? 1 : 0) < 2) return NONE;
    return this.codesNamed(settlement, municipalities, state);
  }
}

const NONE: readonly number[] = [];

const finders = new WeakMap<Catalog, PlaceFinder>();

/** The one finder of a catalog (its caches shared by validation and parsing in a thread). */
export function placeFinderOf(catalog: Catalog): PlaceFinder {
  let finder = finders.get(catalog);
  if (!finder) finders.set(catalog, (finder = new PlaceFinder(catalog)));
  return finder;
}
