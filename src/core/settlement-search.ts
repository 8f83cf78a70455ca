/**
 * The `colonia` filter of `search_cp_advanced`: which codes of a state have a settlement whose
 * folded name contains a folded text. Each state's folded names are joined into one string the
 * first time that state is searched (a few milliseconds, then kept), so a search is `indexOf`
 * over one string instead of a test per settlement; nothing of it is stored in the artifact.
 */
import type { Catalog } from './catalog.js';
import { foldSettlementName } from './names.js';

interface StateText {
  /** The folded names of the state's settlements, code by code, each followed by "\n". */
  text: string;
  /** The state's code indices, ascending. */
  codes: Uint32Array;
  /** Where each code's names start in `text`; one more entry, `text.length`. */
  starts: Uint32Array;
}

const indexes = new WeakMap<Catalog, (StateText | undefined)[]>();

function stateText(catalog: Catalog, state: number): StateText {
  let states = indexes.get(catalog);
  if (!states) indexes.set(catalog, (states = []));
  let index = states[state];
  if (!index) {
    const runs = catalog.codeRunsOfState(state);
    let count = 0;
    for (let r = 0; r < runs.length; r += 2) count += runs[r + 1]! - runs[r]!;
    const codes = new Uint32Array(count);
    const starts = new Uint32Array(count + 1);
    // A folded name never holds "\n" (white space is folded to " "), nor does a folded needle,
    // so no match can run from one name into the next.
    const parts: string[] = [];
    let length = 0;
    let k = 0;
    for (let r = 0; r < runs.length; r += 2) {
      for (let code = runs[r]!; code < runs[r + 1]!; code++, k++) {
        codes[k] = code;
        starts[k] = length;
        for (let s = catalog.settlementStartOf(code); s < catalog.settlementEndOf(code); s++) {
          const folded = foldSettlementName(catalog.settlementNameAt(catalog.settlementNameIndex(s)));
          parts.push(folded);
          length += folded.length + 1;
        }
      }
    }
    starts[count] = length;
    parts.push('');
    index = { text: parts.join('\n'), codes, starts };
    states[state] = index;
  }
  return index;
}

/**
 * The codes of `state` (ascending, at most `limit`) with a settlement whose folded name
 * contains `needle` (already folded by `foldSettlementName`, not empty), only those of
 * `municipality` when it is not -1.
 */
export function codesWithSettlement(catalog: Catalog, state: number, needle: string, municipality: number, limit: number): string[] {
  const { text, codes, starts } = stateText(catalog, state);
  const found: string[] = [];
  let low = 0;
  for (let at = text.indexOf(needle); at >= 0 && found.length < limit; ) {
    // The code whose names hold `at`: the last start at or before it (starts ascend).
    let high = codes.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (starts[mid]! <= at) low = mid;
      else high = mid - 1;
    }
    const code = codes[low]!;
    if (municipality < 0 || catalog.municipalityIndexOf(code) === municipality) found.push(catalog.postalCode(code));
    low++;
    if (low >= codes.length) break;
    at = text.indexOf(needle, starts[low]);
  }
  return found;
}
