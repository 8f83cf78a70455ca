/**
 * Names past their catalog spellings, read only when the catalog's spelling (folded as the
 * contract says) matched nothing: the state a written form names (`N.L.`, `Edo. Méx.`, `NLE`,
 * `MX-NLE`, `19`) and the municipalities a written name may name (`Alc. Iztapalapa`, `Gral.
 * Escobedo`), with the tables of `name-forms.ts` through `name-keys.ts`. Apart from names.ts,
 * which asks here, so that cpmx/web's module leaves all of it to its extra chunk
 * (web/written-names.web.ts).
 */
import type { CatalogReader } from './catalog-reader.js';
import { stateSpellings } from './name-forms.js';
import { compact, isListedStateForm, municipalityKeys, nameKey, stateKeyOf } from './name-keys.js';

/** The catalog's state of the INEGI key a written form names, when the catalog's state of that key is that state; else -1. */
export function stateOfForm(catalog: CatalogReader, name: string): number {
  const key = stateKeyOf(name);
  if (key < 0) return -1;
  const state = catalog.stateWithKey(key);
  // A catalog whose state of that key is another (a made-up fixture) is not read by the table.
  if (state < 0 || stateKeyOf(catalog.stateNames()[state]!) !== key) return -1;
  // The contract's own spellings keep the contract's answer: `Ciudad de  México` and
  // `Quintana+Roo` (a literal +) name no state, as the contract's fold says.
  return respaced(name, stateSpellings(catalog.stateNames()[state]!)) && !isListedStateForm(name) ? -1 : state;
}

/**
 * What a municipality's name may name past its catalog spelling, most literal first: each
 * reading of `municipalityKeys`, looked up among the municipalities by the `nameKey` of their
 * names (`indexBy(nameKey)`: names.ts makes that index once per catalog and keeps it).
 */
export function municipalityReadings(
  catalog: CatalogReader,
  name: string,
  indexBy: (keyOf: (name: string) => string) => ReadonlyMap<string, readonly number[]>,
): (readonly number[])[] {
  const byKey = indexBy(nameKey);
  const candidates: (readonly number[])[] = [];
  for (const key of municipalityKeys(name)) {
    // A catalog name with only its spaces or punctuation changed keeps the contract's answer
    // (`Alvaro  Obregon` names none); a title or a shortened word is a reading.
    const found = byKey.get(key)?.filter((m) => !respaced(name, [catalog.nameOfMunicipality(m)]));
    if (found?.length) candidates.push(found);
  }
  return candidates;
}

/** Whether `text` is one of `spellings` with only its spaces and punctuation changed. */
function respaced(text: string, spellings: readonly string[]): boolean {
  const written = compact(text);
  return spellings.some((spelling) => compact(spelling) === written);
}
