/**
 * The settlement index's table of keys (parse/key-table.ts): each key found by its number, no
 * other string found, the same table made again from its text (as another thread does), and
 * texts it cannot hold refused. The index's own test reads every key of the real catalog.
 */
import { describe, expect, it } from 'vitest';
import { KeyTable } from '../../src/parse/key-table.js';

describe('a table of keys', () => {
  it('numbers its keys in order and finds each, and nothing else, among many that share hash slots', () => {
    // More keys than slots of a small table, many alike: searches run past taken slots.
    const keys = Array.from({ length: 5000 }, (_, i) => `colonia ${i % 97} seccion ${i}`);
    keys.push('', 'ñandú 1', 'san josé 𝔄', 'x');
    const table = KeyTable.of(keys)!;
    expect(table.size).toBe(keys.length);
    for (const [k, key] of keys.entries()) expect(table.numberOf(key)).toBe(k);
    for (const absent of ['colonia 1 seccion 5001', 'colonia', ' x', 'x ', 'X', 'nandu 1', 'san josé', 'colonia 0 seccion 0\n']) expect(table.numberOf(absent)).toBe(-1);
  });

  it('is made again from its text, with the same numbers, as a thread that is handed it makes it', () => {
    const keys = ['centro', 'el carmen', '', 'lomas de chapultepec 1 seccion'];
    const table = KeyTable.of(keys)!;
    expect(table.text).toBe('centro\nel carmen\n\nlomas de chapultepec 1 seccion\n');
    const again = KeyTable.fromText(structuredClone(table.text))!;
    expect(again.size).toBe(4);
    for (const [k, key] of keys.entries()) expect(again.numberOf(key)).toBe(k);
    expect(KeyTable.fromText('')!.size).toBe(0);
    expect(KeyTable.of([])!.numberOf('centro')).toBe(-1);
  });

  it('refuses what it cannot hold: a key with a line feed, a text whose last key is not ended', () => {
    expect(KeyTable.of(['centro', 'el\ncarmen'])).toBeUndefined();
    expect(KeyTable.fromText('centro\nel carmen')).toBeUndefined();
  });
});
