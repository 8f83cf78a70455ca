/**
 * How many typing mistakes one name is from another: letters added, left out or changed
 * (fastest-levenshtein's distance), and two neighbouring letters swapped counting as one
 * mistake, not two (`Juáerz` is *Juárez* mistyped once), as people mistype. This is the
 * optimal string alignment distance; it is measured (a small table of the two names) only
 * where the plain distance leaves room for a swap to matter.
 */
import { distance } from 'fastest-levenshtein';

/** The mistakes between `a` and `b`; past `atMost`, any number above it (the plain distance). */
export function typos(a: string, b: string, atMost: number): number {
  const plain = distance(a, b);
  // A swap saves one edit of two: below two edits none can, and past twice `atMost` none brings it within.
  if (plain < 2 || plain > 2 * atMost || !hasSwap(a, b)) return plain;
  return Math.min(plain, alignment(a, b));
}

/** Whether `a` holds two neighbouring letters that `b` holds the other way round: else no swap can save an edit. */
function hasSwap(a: string, b: string): boolean {
  for (let i = 0; i + 1 < a.length; i++) {
    const first = a.charCodeAt(i);
    const second = a.charCodeAt(i + 1);
    if (first === second) continue;
    for (let j = 0; j + 1 < b.length; j++) if (b.charCodeAt(j) === second && b.charCodeAt(j + 1) === first) return true;
  }
  return false;
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
