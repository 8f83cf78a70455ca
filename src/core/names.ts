/**
 * Names as people type them: the contract's state aliases, and the indexes that find a state
 * by any of its spellings or its key, and the municipalities of a name. Past the contract's
 * spellings, a name is read in the forms people write (`N.L.`, `Edo. Méx.`, `Alc. Iztapalapa`,
 * `Gral. Escobedo`; see `name-forms.ts`), with indexes built only when such a name is first
 * asked. The router, address validation and the benchmark's contestants all fold through here.
 */
import type { CatalogReader } from './catalog-reader.js';
import { foldStateName } from './fold.js';
import { stateSpellings } from './name-forms.js';
import { ownCopy } from './own-copy.js';
import { municipalityReadings, stateOfForm } from './written-names.js';
import { nameKey } from './name-keys.js';

export { STATE_ALIASES, stateSpellings } from './name-forms.js';
export { foldAccents, foldForMatch, foldSettlementName, foldStateName } from './fold.js';
export { municipalityKeys, nameKey, nameWords, sameMunicipality, stateKeyOf, type NameWords } from './name-keys.js';
export { isTypeAlone, matchSettlement, mayDropType, settlementKey, SettlementMatcher, settlementMatcherOf, splitSettlementType, typeMovedFront, type SplitSettlement } from './settlement-names.js';
export { afterDe, isDowntownKey, LOCALITY_TYPES, otherKeys, readsText, writtenDowntownKey } from './settlement-other-keys.js';

interface StateIndex {
  byFoldedName: Map<string, number>;
  /** Answers for names exactly as asked, so folding runs once per distinct spelling. */
  seen: Map<string, number>;
}

const stateIndexes = new WeakMap<CatalogReader, StateIndex>();
/** Distinct spellings remembered per catalog; past this, names are folded every time. */
const SEEN_LIMIT = 4096;
/** The longest name a catalog may hold (the build refuses longer ones). */
export const MAX_NAME_CHARS = 128;
/** Longer spellings than any catalog name are never remembered: memory bounded by characters, not only by count. */
export const remembers = (seen: Map<string, unknown>, name: string) => seen.size < SEEN_LIMIT && name.length <= MAX_NAME_CHARS;

function stateIndex(catalog: CatalogReader): StateIndex {
  let index = stateIndexes.get(catalog);
  if (!index) {
    const byFoldedName = new Map<string, number>();
    const names = catalog.stateNames();
    for (const [i, state] of names.entries()) byFoldedName.set(foldStateName(state), i);
    names.forEach((state, i) => {
      for (const spelling of stateSpellings(state)) {
        const folded = foldStateName(spelling);
        if (!byFoldedName.has(folded)) byFoldedName.set(folded, i);
      }
    });
    index = { byFoldedName, seen: new Map() };
    stateIndexes.set(catalog, index);
  }
  return index;
}

/**
 * Index of the state that `name` names, or -1: its catalog name or a contract alias (folded
 * as the contract says), else any form people write (`N.L.`, `Edo. Méx.`, `NLE`, `MX-NLE`,
 * `19`; `stateKeyOf`), read only when the contract's spellings did not match.
 */
export function findState(catalog: CatalogReader, name: string): number {
  const index = stateIndex(catalog);
  let state = index.seen.get(name);
  if (state === undefined) {
    state = index.byFoldedName.get(foldStateName(name)) ?? stateOfForm(catalog, name);
    if (remembers(index.seen, name)) index.seen.set(ownCopy(name), state);
  }
  return state;
}

/** The index of the state whose `c_estado` is `clave` (1 or 2 ASCII digits, checked before: `9` is `09`), or -1. */
export function findStateByKey(catalog: CatalogReader, clave: string): number {
  return catalog.stateWithKey(Number(clave));
}

interface MunicipalityIndex {
  /** Folded name → the municipalities of that name, ascending (so by state, then key). */
  byFoldedName: Map<string, readonly number[]>;
  /** Read name (`nameKey`) → the municipalities of that key, ascending; built when first needed. */
  byKey: Map<string, readonly number[]> | undefined;
  /** The candidate lists of a name as asked, most literal first. */
  seen: Map<string, readonly (readonly number[])[]>;
  /** A list of one municipality, by its index: the answer within a state, made once (not once per record). */
  singles: (readonly number[])[];
}

const municipalityIndexes = new WeakMap<CatalogReader, MunicipalityIndex>();
const NONE: readonly number[] = [];

function municipalityIndex(catalog: CatalogReader): MunicipalityIndex {
  let index = municipalityIndexes.get(catalog);
  if (!index) {
    index = { byFoldedName: municipalitiesBy(catalog, foldStateName), byKey: undefined, seen: new Map(), singles: new Array<readonly number[]>(catalog.municipalityCount) };
    municipalityIndexes.set(catalog, index);
  }
  return index;
}

/** The municipalities by a key of their names, each list ascending. */
function municipalitiesBy(catalog: CatalogReader, keyOf: (name: string) => string): Map<string, readonly number[]> {
  const byKey = new Map<string, number[]>();
  for (let m = 0; m < catalog.municipalityCount; m++) {
    const key = keyOf(catalog.nameOfMunicipality(m));
    const same = byKey.get(key);
    if (same) same.push(m);
    else byKey.set(key, [m]);
  }
  return byKey;
}

/** What a name may name, most literal first: its catalog spelling, then each reading of `municipalityKeys`. */
function municipalityCandidates(catalog: CatalogReader, index: MunicipalityIndex, name: string): readonly (readonly number[])[] {
  const exact = index.byFoldedName.get(foldStateName(name));
  if (exact) return [exact];
  return municipalityReadings(catalog, name, (keyOf) => (index.byKey ??= municipalitiesBy(catalog, keyOf)));
}

/**
 * The municipalities that `name` names, ascending: every state's municipality of that name,
 * or only the one in `state` when a state index is given. Empty when none. The catalog's
 * spelling (folded as states are) is tried first; past it, the forms people write: a title
 * (`Alc.`, `Mpio. de`, `Delegación`) and shortened words (`Gral.`, `Cd.`, `Sta.`, `Sn.`).
 * With a state, the first reading that names a municipality of that state is taken.
 */
export function findMunicipalities(catalog: CatalogReader, name: string, state = -1): readonly number[] {
  const index = municipalityIndex(catalog);
  let candidates = index.seen.get(name);
  if (candidates === undefined) {
    candidates = municipalityCandidates(catalog, index, name);
    if (remembers(index.seen, name)) index.seen.set(ownCopy(name), candidates);
  }
  if (state < 0) return candidates[0] ?? NONE;
  for (const all of candidates) for (const m of all) if (catalog.stateOfMunicipality(m) === state) return (index.singles[m] ??= [m]);
  return NONE;
}

/**
 * The municipalities whose name's key (`nameKey`) is `key`, every state's: a name with only its
 * spaces or punctuation changed (`GUSTAVO A MADERO` for *Gustavo A. Madero*), which addresses
 * are read by and the contract's lookups (`findMunicipalities`) refuse.
 */
export function municipalitiesOfKey(catalog: CatalogReader, key: string): readonly number[] {
  const index = municipalityIndex(catalog);
  return (index.byKey ??= municipalitiesBy(catalog, nameKey)).get(key) ?? NONE;
}

