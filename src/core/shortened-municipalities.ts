/**
 * Municipalities written short, as people write the long ones: without the words from a `de`
 * on (`Ecatepec` for *Ecatepec de Morelos*, `San Nicolás` for *San Nicolás de los Garza*),
 * without a title or a saint's name in front (`Escobedo` for *General Escobedo*, `Tlaquepaque`
 * for *San Pedro Tlaquepaque*), or both (`Ejutla` for *Heroica Ciudad de Ejutla de Crespo*);
 * without the article in front of a name of two words or more (`Magdalena Contreras` for *La
 * Magdalena Contreras*).
 *
 * A short form names a municipality only when the name names none as written (`Atizapán` is
 * *Atizapán*, never *Atizapán de Zaragoza*; `Cuautitlán` is not *Cuautitlán Izcalli*) and
 * exactly one of the state's municipalities (the country's, without a state) has it:
 * `Cholula` (San Andrés Cholula, San Pedro Cholula) names none. A single word of fewer than
 * five letters is never a short form, nor is a state's name (`Guerrero` for *Villa Guerrero*)
 * where it may be the state: only a field that holds a municipality or a city reads it so
 * (`stateNamedMunicipality`: `Oaxaca` for *Oaxaca de Juárez*, as the city's people write it).
 *
 * Read by validation and `cpmx parse` past the names the router reads (names.ts), so the
 * contract's methods answer as they did.
 */
import type { CatalogReader } from './catalog-reader.js';
import { MUNICIPALITY_LEADING_SAINTS, MUNICIPALITY_LEADING_TITLES, stateSpellings } from './name-forms.js';
import { CONNECTORS, MIN_ONE_WORD, municipalityKeys, nameKey } from './name-keys.js';
import { findMunicipalities, MAX_NAME_CHARS, remembers } from './names.js';
import { ownCopy } from './own-copy.js';

/**
 * The articles a municipality's name may begin with, which people leave out of a name of two
 * words or more (`Magdalena Contreras` for *La Magdalena Contreras*); one word left is no name
 * of its own (`Paz`, `Reforma`, `Salto`).
 */
const LEADING_ARTICLES: ReadonlySet<string> = new Set(['la', 'las', 'los', 'el']);

const NONE: readonly number[] = [];

/**
 * Where a short form of `words` may begin: at the start, after a saint and at least one word
 * of the saint's name, after a leading article (`article`: then with two words at least), or
 * after the leading titles (with a `de` that follows `ciudad` or `villa`), which a short form
 * that begins at the start must then go past.
 */
function starts(words: readonly string[]): { at: number[]; titled: number; article: boolean } {
  if (LEADING_ARTICLES.has(words[0]!)) return { at: [1], titled: 0, article: true };
  const at = [0];
  if (MUNICIPALITY_LEADING_SAINTS.includes(words[0]!)) {
    for (let i = 2; i < words.length; i++) if (!CONNECTORS.has(words[i - 1]!)) at.push(i);
    return { at, titled: 0, article: false };
  }
  let i = 0;
  while (i < words.length - 1 && (MUNICIPALITY_LEADING_TITLES.includes(words[i]!) || (i > 0 && words[i] === 'de' && (words[i - 1] === 'ciudad' || words[i - 1] === 'villa')))) i++;
  if (i > 0) at.push(i);
  return { at, titled: i, article: false };
}

/**
 * The short forms of a municipality's key (`nameKey` of its name), each once: its words from
 * where a short form may begin, to the end or to a `de`/`del` (or a `cuna de`), other than the whole key;
 * those in `never` (the states' keys) left out.
 */
export function shortenedKeys(key: string, never: ReadonlySet<string> = new Set()): string[] {
  const words = key.split(' ');
  const ends: number[] = [words.length];
  // Also before an honour the name was given (`cuna de`, cradle of): `Dolores Hidalgo` for
  // *Dolores Hidalgo Cuna de la Independencia Nacional*, as everyone writes it.
  for (let j = 1; j < words.length; j++) if (words[j] === 'de' || words[j] === 'del' || (words[j] === 'cuna' && words[j + 1] === 'de')) ends.push(j);
  const found = new Set<string>();
  const { at, titled, article } = starts(words);
  for (const i of at) {
    if (CONNECTORS.has(words[i]!)) continue;
    for (const j of ends) {
      // Not the whole name, and not its titles alone (`Villa` of Villa de Álvarez).
      if (j <= i || (i === 0 && (j === words.length || j <= titled))) continue;
      if (j - i === 1 && (article || words[i]!.length < MIN_ONE_WORD)) continue;
      const short = words.slice(i, j).join(' ');
      if (!never.has(short)) found.add(short);
    }
  }
  return [...found];
}

interface ShortenedIndex {
  /** Short form → the municipalities that have it, ascending. */
  byShortKey: Map<string, number[]>;
  /** The same for the short forms that are a state's name (`oaxaca` → Oaxaca de Juárez): four in the whole catalog. */
  byStateName: Map<string, number[]>;
  /** The municipalities (all states) each written name may name short, as asked. */
  seen: Map<string, readonly number[]>;
  /** A list of one municipality, by its index, made once. */
  singles: (readonly number[])[];
}

const indexes = new WeakMap<CatalogReader, ShortenedIndex>();

function shortenedIndex(catalog: CatalogReader): ShortenedIndex {
  let index = indexes.get(catalog);
  if (!index) {
    const never = new Set<string>();
    for (const state of catalog.stateNames()) for (const spelling of stateSpellings(state)) never.add(nameKey(spelling));
    const byShortKey = new Map<string, number[]>();
    const byStateName = new Map<string, number[]>();
    for (let m = 0; m < catalog.municipalityCount; m++) {
      for (const short of shortenedKeys(nameKey(catalog.nameOfMunicipality(m)))) {
        const by = never.has(short) ? byStateName : byShortKey;
        const same = by.get(short);
        if (same) same.push(m);
        else by.set(short, [m]);
      }
    }
    index = { byShortKey, byStateName, seen: new Map(), singles: new Array<readonly number[]>(catalog.municipalityCount) };
    indexes.set(catalog, index);
  }
  return index;
}

/**
 * Every short form of the catalog's municipalities, with the municipalities that have it: a
 * name none of whose readings (`municipalityKeys`) is here names no municipality short, which
 * a caller may ask first.
 */
export function shortForms(catalog: CatalogReader): ReadonlyMap<string, readonly number[]> {
  return shortenedIndex(catalog).byShortKey;
}

/**
 * The municipality `name` names written short, in `state` (any, when -1), as a list of one;
 * empty when it names one as written, or none or several short.
 */
export function shortenedMunicipality(catalog: CatalogReader, name: string, state = -1): readonly number[] {
  if (name.length > MAX_NAME_CHARS || findMunicipalities(catalog, name, state).length) return NONE;
  const index = shortenedIndex(catalog);
  let all = index.seen.get(name);
  if (all === undefined) {
    all = namedShort(index.byShortKey, municipalityKeys(name));
    if (remembers(index.seen, name)) index.seen.set(ownCopy(name), all);
  }
  const one = oneOfState(catalog, all, state);
  return one < 0 ? NONE : (index.singles[one] ??= [one]);
}

/**
 * The municipality of `state` a state's name names written short, where a field holds a
 * municipality or a city and so cannot be the state: `Oaxaca` for *Oaxaca de Juárez*; -1 for
 * any other name, or one that names a municipality as written (`Tlaxcala`) or several short.
 * Never read in a one-line address, where a state's name is the state. `keys` are the name's
 * `municipalityKeys`, for a caller that has them already.
 */
export function stateNamedMunicipality(catalog: CatalogReader, name: string, state: number, keys?: readonly string[]): number {
  if (name.length > MAX_NAME_CHARS) return -1;
  const one = oneOfState(catalog, namedShort(shortenedIndex(catalog).byStateName, keys ?? municipalityKeys(name)), state);
  return one >= 0 && findMunicipalities(catalog, name, state).length === 0 ? one : -1;
}

/** The municipalities a name's keys name short in `byKey`, each once, ascending. */
function namedShort(byKey: ReadonlyMap<string, readonly number[]>, keys: readonly string[]): number[] {
  const found = new Set<number>();
  for (const key of keys) for (const m of byKey.get(key) ?? NONE) found.add(m);
  return [...found].sort((a, b) => a - b);
}

/** The one municipality of `all` in `state` (any, when -1); -1 when none or several are. */
function oneOfState(catalog: CatalogReader, all: readonly number[], state: number): number {
  let one = -1;
  for (const m of all) {
    if (state >= 0 && catalog.stateOfMunicipality(m) !== state) continue;
    if (one >= 0) return -1;
    one = m;
  }
  return one;
}
