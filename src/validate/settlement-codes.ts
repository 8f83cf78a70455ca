/**
 * The codes of a settlement name, for one-line addresses written without a code: every
 * settlement of the catalog by its key (folded, shortenings expanded), each with its code.
 * Made once per catalog at the first address that needs it (some tens of milliseconds), never
 * for addresses that carry their code.
 */
import type { Catalog } from '../core/catalog.js';
import { settlementKey } from '../core/names.js';

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
