/**
 * Cities that span several municipalities. In the catalog only one does: *Ciudad de México*,
 * the city of all 16 alcaldías (every other city lies in one municipality). There the city is
 * written as the alcaldía by INEGI itself (each alcaldía's locality bears its name: 09007-0001
 * is *Iztapalapa*), and so by shops, carriers and geodata (`city: "Cuauhtémoc"`, `state:
 * "Ciudad de México"`, `06700`): validation reads a code's municipality written as its city
 * when the city is one of these. Found from the catalog's structure, not from a list of names.
 */
import type { Catalog } from './catalog.js';

/** The cities whose codes lie in more than one municipality, by `cityOfState` (a name alone would join *Guadalupe*, N.L., with *Guadalupe*, Zac.). */
export function citiesOfSeveralMunicipalities(catalog: Catalog): ReadonlySet<string> {
  const municipalityOf = new Map<string, number>();
  const shared = new Set<string>();
  for (let code = 0; code < catalog.codeCount; code++) {
    const name = catalog.cityOf(code);
    if (!name) continue;
    const city = cityOfState(catalog.stateOf(code), name);
    if (shared.has(city)) continue;
    const municipality = catalog.municipalityIndexOf(code);
    const first = municipalityOf.get(city);
    if (first === undefined) municipalityOf.set(city, municipality);
    else if (first !== municipality) shared.add(city);
  }
  return shared;
}

/** A city named within its state, as the catalog writes both. */
export function cityOfState(estado: string, ciudad: string): string {
  return `${estado}\u0001${ciudad}`;
}
