/**
 * A code's answer parts, gathered on its first lookup, in one array so that an answer reads one
 * object: `[municipio, estado, ciudad, ...names, ...types]`, its `n` settlements' names and
 * types in catalog order (`n` is `(length - 3) / 2`). Shared: answers copy out of it.
 */
export type CodeEntry = readonly string[];
export const ENTRY_MUNICIPIO = 0;
export const ENTRY_ESTADO = 1;
export const ENTRY_CIUDAD = 2;
/** Where the names start; the types start `n` after. */
export const ENTRY_NAMES = 3;

/** The number of settlements of a code entry. */
export function entrySettlements(entry: CodeEntry): number {
  return (entry.length - ENTRY_NAMES) >>> 1;
}
