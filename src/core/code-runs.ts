/**
 * Runs of consecutive code indices, `[start, end, start, end, ...]`: how the catalog names the
 * codes of a municipality, a state or a group of municipalities without listing them.
 */

/** Sorts runs `[start, end, ...]` by start and joins the ones that touch. */
export function mergeRuns(runs: readonly number[]): number[] {
  const pairs: [number, number][] = [];
  for (let r = 0; r < runs.length; r += 2) pairs.push([runs[r]!, runs[r + 1]!]);
  pairs.sort((a, b) => a[0] - b[0]);
  const merged: number[] = [];
  for (const [start, end] of pairs) {
    if (merged.length && merged[merged.length - 1] === start) merged[merged.length - 1] = end;
    else merged.push(start, end);
  }
  return merged;
}

/** The codes (`codes`, by index) of some runs, ascending, at most `limit` of them (a fresh array). */
export function codesOfRuns(codes: readonly string[], runs: readonly number[], limit: number): string[] {
  if (runs.length === 2) return codes.slice(runs[0], Math.min(runs[1]!, runs[0]! + limit));
  const out: string[] = [];
  for (let r = 0; r < runs.length && out.length < limit; r += 2) {
    for (let code = runs[r]!; code < runs[r + 1]! && out.length < limit; code++) out.push(codes[code]!);
  }
  return out;
}
