/**
 * Places named by names: the codes whose settlement, municipality and state are the ones a
 * record or a one-line address gives. One rule, used by `cpmx parse` for a line without a
 * code and by validation for a record whose code is missing, impossible or disagrees with its
 * names (which field is wrong). Every settlement of the catalog is indexed by its key (folded,
 * shortenings expanded) once per catalog, at the first record that needs it (some tens of
 * milliseconds), never for records whose code agrees with their names.
 */
import type { Catalog } from '../core/catalog.js';
import { findMunicipalities, findState, settlementKey, splitSettlementType } from '../core/names.js';
import { ownCopy } from '../core/own-copy.js';
import { Remembered } from './remembered.js';

export interface SettlementPlace {
  /** The code index. */
  code: number;
  /** The settlement index. */
  settlement: number;
}

const indexes = new WeakMap<Catalog, Map<string, SettlementPlace[]>>();

function indexOf(catalog: Catalog): Map<string, SettlementPlace[]> {
  let index = indexes.get(catalog);
  if (!index) {
    index = new Map();
    const codes = catalog.postalCodes().length;
    for (let code = 0; code < codes; code++) {
      for (let settlement = catalog.settlementStartOf(code); settlement < catalog.settlementEndOf(code); settlement++) {
        const key = settlementKey(catalog.settlementName(settlement));
        const places = index.get(key);
        if (places) places.push({ code, settlement });
        else index.set(key, [{ code, settlement }]);
      }
    }
    indexes.set(catalog, index);
  }
  return index;
}

/**
 * The places (code and settlement) whose settlement has the key `key` (`settlementKey`), within the municipalities
 * given (any, when empty) and the state given (any, when -1), in catalog order.
 */
export function settlementPlaces(catalog: Catalog, key: string, municipalities: readonly number[], state: number): SettlementPlace[] {
  const places = indexOf(catalog).get(key);
  if (!places) return [];
  return places.filter(({ code }) => {
    const municipality = catalog.municipalityIndexOf(code);
    if (municipalities.length) return municipalities.includes(municipality);
    return state < 0 || catalog.stateOfMunicipality(municipality) === state;
  });
}

/** At most this many codes are listed when names fit several (a line without a code, a record whose code is in doubt). */
export const MAX_CODES = 10;

/** Longer texts than any catalog name (128 characters) name no place: not looked up, never remembered. */
const MAX_NAME_CHARS = 160;

/**
 * A value of a cache keyed by structure: by state, then municipality, then text. Bounded: a
 * level is forgotten whole when it holds too many entries, so memory does not grow with the input.
 */
class PlaceCache<T> {
  private readonly byState = new Map<number, Map<number, Map<string, T>>>();
  private size = 0;

  get(state: number, municipality: number, text: string, make: () => T): T {
    let byMunicipality = this.byState.get(state);
    if (!byMunicipality) this.byState.set(state, (byMunicipality = new Map()));
    let byText = byMunicipality.get(municipality);
    if (!byText) byMunicipality.set(municipality, (byText = new Map()));
    let value = byText.get(text);
    if (value === undefined) {
      value = make();
      if (this.size >= 50_000) {
        this.byState.clear();
        this.size = 0;
      }
      byText.set(text, value);
      this.size++;
    }
    return value;
  }
}

/**
 * The places a catalog's names name, for one catalog: the rule of codes from names, with its
 * answers remembered by structure (a state, a municipality, a text), never by joined strings.
 */
export class PlaceFinder {
  private readonly places = new PlaceCache<SettlementPlace[]>();
  private readonly states = new Map<string, number>();
  /** Settlement keys of texts as written (they repeat far more than they vary). */
  private readonly keys = new Remembered(settlementKey);

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

  /** The municipalities a name names (in `state` when one is given; a final dot set aside when needed). */
  municipalities(name: string, state: number): readonly number[] {
    const found = findMunicipalities(this.catalog, name, state);
    return found.length || !name.endsWith('.') ? found : findMunicipalities(this.catalog, name.slice(0, -1), state);
  }

  /** The places of a settlement key within the municipalities (any, when empty) or the state (any, when -1). */
  placesOf(key: string, municipalities: readonly number[], state: number): SettlementPlace[] {
    // A list of several municipalities (one name in several states) is filtered afresh: rare, and no key of one.
    if (municipalities.length > 1) return settlementPlaces(this.catalog, key, municipalities, state);
    return this.places.get(state, municipalities.length ? municipalities[0]! : -1, key, () => settlementPlaces(this.catalog, key, municipalities, state));
  }

  /**
   * The code indices named by a settlement (as written, then without its type) within the
   * municipalities or the state named, else by the one municipality named; [] when the names
   * name no code. `limit` bounds the municipality's codes listed.
   */
  codesNamed(settlement: string | null, municipalities: readonly number[], state: number, limit = MAX_CODES + 1): readonly number[] {
    if (settlement && (municipalities.length || state >= 0)) {
      const codes = this.settlementCodes(settlement, municipalities, state);
      if (codes.length) return codes;
    }
    if (municipalities.length === 1) return this.catalog.codesOfMunicipalities(municipalities, limit).map((cp) => this.catalog.codeIndex(cp));
    return [];
  }

  /** The code indices of a settlement (its key as written, else without its type) within the municipalities, else the state. */
  settlementCodes(settlement: string, municipalities: readonly number[], state: number): readonly number[] {
    if (settlement.length > MAX_NAME_CHARS) return NONE;
    const whole = this.codesOfKey(this.keys.get(settlement), municipalities, state);
    if (whole.length) return whole;
    const { name } = splitSettlementType(settlement);
    return name && name !== settlement ? this.codesOfKey(this.keys.get(name), municipalities, state) : whole;
  }

  /** The codes (ascending, each once) of the settlements with key `key` within the municipalities (any, when empty) or the state (any, when -1). */
  private codesOfKey(key: string, municipalities: readonly number[], state: number): readonly number[] {
    const grouped = this.groupedOf(key);
    if (!grouped) return NONE;
    if (municipalities.length === 1) return grouped.byMunicipality.get(municipalities[0]!) ?? NONE;
    if (municipalities.length === 0) return state < 0 ? grouped.all : (grouped.byState.get(state) ?? NONE);
    const codes: number[] = [];
    for (const municipality of municipalities) for (const code of grouped.byMunicipality.get(municipality) ?? NONE) codes.push(code);
    return codes.sort((x, y) => x - y);
  }

  /**
   * The codes of a settlement key grouped by municipality and by state, made at its first
   * use: bounded by the catalog (only its keys are kept), so a common name (Centro, thousands
   * of places) is never filtered again.
   */
  private groupedOf(key: string): GroupedCodes | undefined {
    let grouped = this.grouped.get(key);
    if (grouped === undefined) {
      const places = indexOf(this.catalog).get(key);
      if (!places) return undefined;
      grouped = { all: [], byMunicipality: new Map(), byState: new Map() };
      const catalog = this.catalog;
      for (const { code } of places) {
        // The index is in code order: a code listed twice (two settlements of one name) follows itself.
        if (grouped.all.at(-1) === code) continue;
        grouped.all.push(code);
        const municipality = catalog.municipalityIndexOf(code);
        const state = catalog.stateOfMunicipality(municipality);
        const inMunicipality = grouped.byMunicipality.get(municipality);
        if (inMunicipality) inMunicipality.push(code);
        else grouped.byMunicipality.set(municipality, [code]);
        const inState = grouped.byState.get(state);
        if (inState) inState.push(code);
        else grouped.byState.set(state, [code]);
      }
      this.grouped.set(key, grouped);
    }
    return grouped;
  }

  private readonly grouped = new Map<string, GroupedCodes>();

  /**
   * The codes a record's names name: its settlement within its municipality and state (or any
   * two of them), else its municipality in its state; [] unless two names agree. A name that
   * names nothing is set aside; a municipality of another state than the one written names none.
   */
  codesOfRecord(asentamiento: string, municipio: string, estado: string): readonly number[] {
    const state = estado.trim() && estado.length <= MAX_NAME_CHARS ? this.state(estado) : -1;
    const municipalities = municipio.trim() && municipio.length <= MAX_NAME_CHARS ? this.municipalities(municipio, state) : NONE;
    // A municipality written beside a state it is not in: the two disagree, so neither names a place with the other.
    if (municipalities.length === 0 && state >= 0 && municipio.trim()) return NONE;
    const settlement = asentamiento.trim() ? asentamiento : null;
    // One name alone names no code: two of them must agree.
    if ((settlement ? 1 : 0) + (municipalities.length ? 1 : 0) + (state >= 0 ? 1 : 0) < 2) return NONE;
    return this.codesNamed(settlement, municipalities, state);
  }
}

const NONE: readonly number[] = [];

/** A settlement key's codes, ascending, all and by municipality and state. */
interface GroupedCodes {
  all: number[];
  byMunicipality: Map<number, number[]>;
  byState: Map<number, number[]>;
}

const finders = new WeakMap<Catalog, PlaceFinder>();

/** The one finder of a catalog (its caches shared by validation and parsing in a thread). */
export function placeFinderOf(catalog: Catalog): PlaceFinder {
  let finder = finders.get(catalog);
  if (!finder) finders.set(catalog, (finder = new PlaceFinder(catalog)));
  return finder;
}
