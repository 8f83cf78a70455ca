/**
 * The `colonia` filter of `search_cp_advanced`: which codes of a state have a settlement whose
 * folded name contains a folded text. The first search of a state folds its settlement names
 * into one string, code by code, and indexes which codes hold each character, pair and
 * trigram of characters (some milliseconds, then kept; nothing of it is in the artifact). A
 * text of one to three characters is answered by its list alone; a longer one is looked for
 * only in the codes that hold its rarest trigram.
 */
import type { CatalogReader } from './catalog-reader.js';
import { DISTINGUISHING_TYPES } from './name-forms.js';
import { lazyPattern } from './lazy-pattern.js';
import { foldForMatch, foldSettlementName, nameKey, splitSettlementType } from './names.js';

/** A letter or digit followed by a dot: a word written shortened. */
const wordThenDot = /* @__PURE__ */ lazyPattern('[\\p{L}\\p{N}]\\.', 'u');

interface StateIndex {
  /** The state's code indices, ascending; a code's place in this list is its position. */
  codes: Uint32Array;
  /** The folded names of the state's settlements, code by code, each followed by "\n" (which no folded name or needle holds). */
  text: string;
  /** Where each position's names start in `text`; one more entry, `text.length`. */
  starts: Uint32Array;
  /** n-gram key (see `gramKey`) → its id. */
  gramIds: GramIds;
  /** The positions whose names hold gram `id`, ascending: `postings[postingStart[id]]` to `postings[postingStart[id + 1]]`. */
  postingStart: Uint32Array;
  postings: Uint16Array | Uint32Array;
}

/**
 * The n-gram (n from 1 to 3) of `text` at `at` as one number, distinct across lengths: a small
 * integer when its characters are Latin-1 (all of the official catalog), else a larger one.
 */
function gramKey(text: string, at: number, n: number): number {
  let latin1 = true;
  let packed = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(at + i);
    if (c > 0xff) latin1 = false;
    packed = packed * 0x1_0000 + c;
  }
  if (!latin1) return 2 ** 26 + packed * 4 + n;
  if (n === 1) return packed;
  const c = text.charCodeAt(at + n - 1);
  return n === 2 ? 0x100 + ((text.charCodeAt(at) << 8) | c) : 0x10100 + ((text.charCodeAt(at) << 16) | (text.charCodeAt(at + 1) << 8) | c);
}

/** Gram keys to ids: a table for single characters and pairs, a Map for the rest. */
class GramIds {
  private readonly small = new Int32Array(0x10100).fill(-1);
  private readonly large = new Map<number, number>();
  size = 0;

  get(key: number): number {
    return key < 0x10100 ? this.small[key]! : (this.large.get(key) ?? -1);
  }

  add(key: number): number {
    const known = this.get(key);
    if (known >= 0) return known;
    if (key < 0x10100) this.small[key] = this.size;
    else this.large.set(key, this.size);
    return this.size++;
  }
}

const indexes = new WeakMap<CatalogReader, (StateIndex | undefined)[]>();

function stateIndex(catalog: CatalogReader, state: number): StateIndex {
  let states = indexes.get(catalog);
  if (!states) indexes.set(catalog, (states = []));
  return (states[state] ??= buildIndex(catalog, state));
}

/**
 * The settlement names of `codes`, code by code, each read by `read` (once per distinct name):
 * each with its code's position, and where each position's names start in their text joined
 * with "\n" (one more entry: the text's length).
 */
function namesOf(catalog: CatalogReader, codes: Uint32Array, read: (name: string) => string): { parts: string[]; partCode: number[]; starts: Uint32Array } {
  const starts = new Uint32Array(codes.length + 1);
  const seen = new Map<number, string>();
  const parts: string[] = [];
  const partCode: number[] = [];
  let length = 0;
  for (let k = 0; k < codes.length; k++) {
    starts[k] = length;
    const code = codes[k]!;
    for (let s = catalog.settlementStartOf(code); s < catalog.settlementEndOf(code); s++) {
      const nameIndex = catalog.settlementNameIndex(s);
      let name = seen.get(nameIndex);
      if (name === undefined) seen.set(nameIndex, (name = read(catalog.settlementNameAt(nameIndex))));
      parts.push(name);
      partCode.push(k);
      length += name.length + 1;
    }
  }
  starts[codes.length] = length;
  return { parts, partCode, starts };
}

function buildIndex(catalog: CatalogReader, state: number): StateIndex {
  const runs = catalog.codeRunsOfState(state);
  const codeList: number[] = [];
  for (let r = 0; r < runs.length; r += 2) for (let code = runs[r]!; code < runs[r + 1]!; code++) codeList.push(code);
  const codes = Uint32Array.from(codeList);
  const { parts, partCode, starts } = namesOf(catalog, codes, foldSettlementName);
  const length = starts[codes.length]!;

  // One pass over every n-gram records each (gram, position) once, positions ascending; a
  // counting sort then lays each gram's positions out in one array.
  const gramIds = new GramIds();
  const counts: number[] = [];
  const lastSeen: number[] = [];
  const pairGram = new Int32Array(3 * length + 1);
  const pairPosition = new Int32Array(3 * length + 1);
  let pairs = 0;
  const record = (key: number, k: number) => {
    let id = gramIds.get(key);
    if (id < 0) {
      id = gramIds.add(key);
      counts.push(0);
      lastSeen.push(-1);
    }
    if (lastSeen[id] === k) return;
    lastSeen[id] = k;
    counts[id]!++;
    pairGram[pairs] = id;
    pairPosition[pairs++] = k;
  };
  for (let p = 0; p < parts.length; p++) {
    const name = parts[p]!;
    const k = partCode[p]!;
    for (let n = 1; n <= 3; n++) for (let i = 0; i + n <= name.length; i++) record(gramKey(name, i, n), k);
  }
  const postingStart = new Uint32Array(gramIds.size + 1);
  for (let id = 0; id < gramIds.size; id++) postingStart[id + 1] = postingStart[id]! + counts[id]!;
  const postings = codes.length <= 0x10000 ? new Uint16Array(pairs) : new Uint32Array(pairs);
  const next = Uint32Array.from(postingStart.subarray(0, gramIds.size));
  for (let i = 0; i < pairs; i++) postings[next[pairGram[i]!]!++] = pairPosition[i]!;
  parts.push('');
  return { codes, text: parts.join('\n'), starts, gramIds, postingStart, postings };
}

/**
 * The codes of `state` (of `municipality`, unless it is -1) with a settlement that `colonia`
 * names, at most `limit`: those whose folded names contain it folded; when there are none,
 * those of the settlements it names written as people write one (`Col. Roma Norte`, `Sta.
 * María`), read as validation reads them. Undefined for a `colonia` of only white space, which
 * folds to nothing (every name contains it): no filter. One call, so that cpmx/web's module
 * leaves the whole search, folding included, to its extra chunk.
 */
export function codesOfColonia(catalog: CatalogReader, state: number, colonia: string, municipality: number, limit: number): string[] | undefined {
  const needle = foldSettlementName(colonia);
  if (!needle) return undefined;
  const found = codesWithSettlement(catalog, state, needle, municipality, limit);
  const read = found.length ? undefined : readColonia(colonia);
  return read === undefined ? found : codesWithSettlementKey(catalog, state, read, municipality, limit);
}

/**
 * The codes of `state` (ascending, at most `limit`) with a settlement whose folded name
 * contains `needle` (already folded by `foldSettlementName`, not empty), only those of
 * `municipality` when it is not -1.
 */
export function codesWithSettlement(catalog: CatalogReader, state: number, needle: string, municipality: number, limit: number): string[] {
  const { codes, text, starts, gramIds, postingStart, postings } = stateIndex(catalog, state);
  // The rarest of the needle's n-grams narrows the codes to read; a missing one ends it. A
  // needle of at most three characters is its own n-gram: its list is the answer.
  const n = Math.min(3, needle.length);
  let rarest = -1;
  for (let i = 0; i + n <= needle.length; i++) {
    const id = gramIds.get(gramKey(needle, i, n));
    if (id < 0) return [];
    if (rarest < 0 || postingStart[id + 1]! - postingStart[id]! < postingStart[rarest + 1]! - postingStart[rarest]!) rarest = id;
  }
  const exact = needle.length === n;
  const found: string[] = [];
  for (let p = postingStart[rarest]!; p < postingStart[rarest + 1]! && found.length < limit; p++) {
    const k = postings[p]!;
    const code = codes[k]!;
    if (municipality >= 0 && catalog.municipalityIndexOf(code) !== municipality) continue;
    if (exact || text.slice(starts[k], starts[k + 1]).includes(needle)) found.push(catalog.postalCode(code));
  }
  return found;
}

/**
 * What a `colonia` names once read as validation reads settlements: the key (`nameKey`) of the
 * name after a type written in front (`Col. Roma Norte`, `COLONIA ROMA NORTE`, `Fracc. Las
 * Palmas` → `roma norte`, `las palmas`; `Amp. Granada` keeps its type, which distinguishes a
 * place), or of a name written with shortened words (`Sta. María`, `1a. Secc.`, `Gral.`).
 * Undefined for anything else. Asked only when the contract's substring search finds nothing,
 * and matched as whole words, so a piece of a name (`res h`, `sta`) is never widened.
 */
export function readColonia(colonia: string): string | undefined {
  const { type, name } = splitSettlementType(colonia);
  if (type && !DISTINGUISHING_TYPES.includes(type)) return nameKey(name) || undefined;
  if (!wordThenDot().test(colonia)) return undefined;
  // Written with a dot after a word: read only when the reading changes a word.
  const key = nameKey(colonia);
  return key && key !== foldForMatch(colonia) ? key : undefined;
}

interface KeyIndex {
  codes: Uint32Array;
  /** The keys of the state's settlements, code by code, each followed by "\n" (no key holds one). */
  text: string;
  /** Where each position's keys start in `text`; one more entry, `text.length`. */
  starts: Uint32Array;
}

const keyIndexes = new WeakMap<CatalogReader, (KeyIndex | undefined)[]>();

/** The keys of a state's settlement names, made at the first `colonia` of that state that needs reading. */
function keyIndex(catalog: CatalogReader, state: number): KeyIndex {
  let states = keyIndexes.get(catalog);
  if (!states) keyIndexes.set(catalog, (states = []));
  let index = states[state];
  if (!index) {
    const { codes } = stateIndex(catalog, state);
    const { parts, starts } = namesOf(catalog, codes, nameKey);
    parts.push('');
    states[state] = index = { codes, text: parts.join('\n'), starts };
  }
  return index;
}

/**
 * The codes of `state` (ascending, at most `limit`) with a settlement whose key holds `key`
 * (from `readColonia`) as whole words, only those of `municipality` when it is not -1.
 */
export function codesWithSettlementKey(catalog: CatalogReader, state: number, key: string, municipality: number, limit: number): string[] {
  const { codes, text, starts } = keyIndex(catalog, state);
  const found: string[] = [];
  const boundary = (at: number) => at < 0 || at >= text.length || text.charCodeAt(at) === 0x20 || text.charCodeAt(at) === 0x0a;
  let k = 0;
  let at = text.indexOf(key);
  while (at >= 0 && found.length < limit) {
    if (!boundary(at - 1) || !boundary(at + key.length)) {
      at = text.indexOf(key, at + 1);
      continue;
    }
    // The position holding the match: the last whose names start at or before it.
    let low = k;
    let high = codes.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= at) low = middle;
      else high = middle - 1;
    }
    const code = codes[low]!;
    if (municipality < 0 || catalog.municipalityIndexOf(code) === municipality) found.push(catalog.postalCode(code));
    k = low + 1;
    if (k >= codes.length) break;
    at = text.indexOf(key, starts[k]!);
  }
  return found;
}
