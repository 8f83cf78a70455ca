/** The compiler's side of the artifact's tables: the narrowest integer columns and packed string tables. */
import type { StringTable, UintArray } from '../src/core/format.js';

/** The smallest unsigned typed array that holds every value of `values`. */
export function compactUints(values: ArrayLike<number>): UintArray {
  let max = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! > max) max = values[i]!;
  if (max <= 0xff) return Uint8Array.from(values);
  if (max <= 0xffff) return Uint16Array.from(values);
  return Uint32Array.from(values);
}

/** Packs strings into one table, entries in the order given. */
export function toStringTable(entries: readonly string[]): StringTable {
  const text = entries.join('');
  const lengths = compactUints(entries.map((entry) => entry.length));
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is every Latin-1 character, controls included
  return /^[\u0000-\u00ff]*$/.test(text) ? { latin1: new Uint8Array(Buffer.from(text, 'latin1')), lengths } : { text, lengths };
}

