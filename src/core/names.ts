/**
 * Names as people type them: one fold (case and accents dropped), the contract's state
 * aliases, and the indexes that find a state by any of its spellings or its key, and the
 * municipalities of a name. The router, address validation and the benchmark's contestants
 * all fold through here.
 */
import type { Catalog } from './catalog.js';

/** Lower case with accents dropped (Unicode NFD, marks removed): the contract's fold. */
export function foldAccents(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Folds a state or municipality name as the contract matches it: trimmed, no case, no accents. */
export function foldStateName(name: string): string {
  const trimmed = name.trim();
  // Latin-1 text (all of the official catalog, most of what people type) folds through a
  // table of each character's fold; anything wider takes Unicode's own path. Both agree.
  const accents = accentTable();
  let out = '';
  for (let i = 0; i < trimmed.length; i++) {
    const c = trimmed.charCodeAt(i);
    if (c > 0xff) return foldAccents(trimmed);
    out += accents[c]!;
  }
  return out;
}

/**
 * Folds a settlement name for the `colonia` filter: the fold of names, with every run of
 * white space made one space, so `Lomas  de Chapultepec` contains `lomas de`.
 */
export function foldSettlementName(name: string): string {
  const trimmed = name.trim();
  const accents = accentTable();
  const spaces = spaceTable();
  let out = '';
  let space = false;
  for (let i = 0; i < trimmed.length; i++) {
    const c = trimmed.charCodeAt(i);
    if (c > 0xff) return foldAccents(trimmed).replace(/\s+/g, ' ');
    if (spaces[c]) {
      if (!space) out += ' ';
      space = true;
    } else {
      out += accents[c]!;
      space = false;
    }
  }
  return out;
}

/** The contract's aliases, by the catalog name they stand for. */
export const STATE_ALIASES: Readonly<Record<string, readonly string[]>> = {
  'Ciudad de México': ['CDMX', 'Distrito Federal'],
  México: ['Estado de México', 'Edomex'],
  'Coahuila de Zaragoza': ['Coahuila'],
  'Michoacán de Ocampo': ['Michoacán'],
  'Veracruz de Ignacio de la Llave': ['Veracruz'],
};

/** A state's catalog name followed by its aliases. */
export function stateSpellings(catalogName: string): readonly string[] {
  return [catalogName, ...(STATE_ALIASES[catalogName] ?? [])];
}

interface StateIndex {
  byFoldedName: Map<string, number>;
  /** Answers for names exactly as asked, so folding runs once per distinct spelling. */
  seen: Map<string, number>;
}

const stateIndexes = new WeakMap<Catalog, StateIndex>();
/** Distinct spellings remembered per catalog; past this, names are folded every time. */
const SEEN_LIMIT = 4096;
/** The longest name a catalog may hold (the build refuses longer ones). */
export const MAX_NAME_CHARS = 128;
/** Longer spellings than any catalog name are never remembered: memory bounded by characters, not only by count. */
const remembers = (seen: Map<string, unknown>, name: string) => seen.size < SEEN_LIMIT && name.length <= MAX_NAME_CHARS;

function stateIndex(catalog: Catalog): StateIndex {
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

/** Index of the state that `name` names (catalog name or alias), or -1. */
export function findState(catalog: Catalog, name: string): number {
  const index = stateIndex(catalog);
  let state = index.seen.get(name);
  if (state === undefined) {
    state = index.byFoldedName.get(foldStateName(name)) ?? -1;
    if (remembers(index.seen, name)) index.seen.set(name, state);
  }
  return state;
}

/** The index of the state whose `c_estado` is `clave` (1 or 2 ASCII digits, checked before: `9` is `09`), or -1. */
export function findStateByKey(catalog: Catalog, clave: string): number {
  return catalog.stateWithKey(Number(clave));
}

interface MunicipalityIndex {
  /** Folded name → the municipalities of that name, ascending (so by state, then key). */
  byFoldedName: Map<string, readonly number[]>;
  seen: Map<string, readonly number[]>;
}

const municipalityIndexes = new WeakMap<Catalog, MunicipalityIndex>();
const NONE: readonly number[] = [];

function municipalityIndex(catalog: Catalog): MunicipalityIndex {
  let index = municipalityIndexes.get(catalog);
  if (!index) {
    const byFoldedName = new Map<string, number[]>();
    for (let m = 0; m < catalog.municipalityCount; m++) {
      const folded = foldStateName(catalog.nameOfMunicipality(m));
      const same = byFoldedName.get(folded);
      if (same) same.push(m);
      else byFoldedName.set(folded, [m]);
    }
    index = { byFoldedName, seen: new Map() };
    municipalityIndexes.set(catalog, index);
  }
  return index;
}

/**
 * The municipalities that `name` names (folded as states are, no aliases), ascending: every
 * state's municipality of that name, or only the one in `state` when a state index is given.
 * Empty when none.
 */
export function findMunicipalities(catalog: Catalog, name: string, state = -1): readonly number[] {
  const index = municipalityIndex(catalog);
  let all = index.seen.get(name);
  if (all === undefined) {
    all = index.byFoldedName.get(foldStateName(name)) ?? NONE;
    if (remembers(index.seen, name)) index.seen.set(name, all);
  }
  if (state < 0) return all;
  for (const m of all) if (catalog.stateOfMunicipality(m) === state) return [m];
  return NONE;
}

/**
 * Folds for comparing free text (address validation): case, accents, punctuation and runs of
 * white space, so `granjas  esmeralda` matches `Granjas Esmeralda`.
 */
export function foldForMatch(text: string): string {
  // One pass for Latin-1 text (all of the official catalog): each character is a letter or
  // digit to keep (lowered, accent dropped) or a separator (punctuation, symbol, space);
  // anything wider takes the general path. Both give the same result.
  const fold = matchTable();
  let out = '';
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff) return foldPunctuation(text);
    const folded = fold[c]!;
    if (folded === '') {
      space = true;
      continue;
    }
    if (space && out) out += ' ';
    space = false;
    out += folded;
  }
  return out;
}

/** The general form of `foldForMatch`: the contract's fold, punctuation and symbols as spaces. */
function foldPunctuation(text: string): string {
  return foldAccents(text)
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * `foldAccents` of each Latin-1 character alone, made by running it, and which of them are
 * white space to `\s` (and to `trim`): made on first use, to keep loading cheap.
 */
let latin1Accents: readonly string[] | undefined;
let latin1Space: readonly boolean[] | undefined;

function accentTable(): readonly string[] {
  return (latin1Accents ??= Array.from({ length: 0x100 }, (_, c) => foldAccents(String.fromCharCode(c))));
}

function spaceTable(): readonly boolean[] {
  return (latin1Space ??= Array.from({ length: 0x100 }, (_, c) => /\s/.test(String.fromCharCode(c))));
}

/** `foldPunctuation` of each Latin-1 character alone ("" for a separator): made by running it, on first use. */
let latin1Fold: readonly string[] | undefined;

function matchTable(): readonly string[] {
  return (latin1Fold ??= Array.from({ length: 0x100 }, (_, c) => foldPunctuation(String.fromCharCode(c))));
}
