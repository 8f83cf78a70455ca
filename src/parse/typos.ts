/**
 * How many typing mistakes one name is from another: letters added, left out or changed
 * (fastest-levenshtein's distance), and two neighbouring letters swapped counting as one
 * mistake, not two (`Juáerz` is *Juárez* mistyped once), as people mistype: the optimal
 * string alignment distance for names of two swaps at most, measured (a small table of the two
 * names) only where the plain distance leaves room for a swap to matter.
 */
import { distance } from 'fastest-levenshtein';

/** The swaps that are counted as one mistake each, at most, in a name. */
const MAX_SWAPS = 2;

/** The mistakes between `a` and `b`; past `atMost`, any number above it (the plain distance). */
export function typos(a: string, b: string, atMost: number): number {
  const plain = distance(a, b);
  // Each swap saves one edit of the two it stands for, and needs a pair of `a` that `b` holds the
  // other way round: where two swaps at most cannot bring the distance within `atMost`, it is the
  // plain one (most names; a name mistyped by three swaps and more is far from any anyway).
  if (plain < 2 || plain > atMost + MAX_SWAPS || plain - reversedPairs(a, b, plain - atMost) > atMost) return plain;
  return Math.min(plain, alignment(a, b));
}

/** How many neighbouring pairs of `a` (two letters that differ) `b` holds the other way round, counted up to `enough`. */
function reversedPairs(a: string, b: string, enough: number): number {
  let pairs = 0;
  for (let i = 0; i + 1 < a.length && pairs < enough; i++) {
    const first = a.charCodeAt(i);
    const second = a.charCodeAt(i + 1);
    if (first === second) continue;
    for (let j = b.indexOf(a[i + 1]!); j >= 0 && j + 1 < b.length; j = b.indexOf(a[i + 1]!, j + 1)) {
      if (b.charCodeAt(j + 1) === first) {
        pairs++;
        break;
      }
    }
  }
  return pairs;
}

/** The optimal string alignment distance: edits of one letter, and swaps of neighbouring letters, each substring edited once. */
function alignment(a: string, b: string): number {
  const columns = b.length + 1;
  let before = new Int32Array(columns);
  let previous = new Int32Array(columns);
  let current = new Int32Array(columns);
  for (let j = 0; j < columns; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const letter = a.charCodeAt(i - 1);
    for (let j = 1; j < columns; j++) {
      const other = b.charCodeAt(j - 1);
      let cost = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (letter === other ? 0 : 1));
      if (i > 1 && j > 1 && letter === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === other) cost = Math.min(cost, before[j - 2]! + 1);
      current[j] = cost;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}
