/**
 * The settlement index's table of keys (parse/key-table.ts): each key found by its number, no
 * other string found, the same table made again from its text (as another thread does), and
 * texts it cannot hold refused. The index's own test reads every key of the real catalog.
 */
import { describe, expect, it } from 'vitest';
import { KeyTable, KeyTableBuilder } from '../../src/parse/key-table.js';

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

  it('is built as keys come: a key seen before gets its number again, and the table is the one of the distinct keys in order', () => {
    // Past the builder's first slots and hashes (512 keys, 1,024 hashes): it grows twice.
    const distinct = Array.from({ length: 3000 }, (_, i) => `san juan ${i % 89} etapa ${i}`);
    const builder = new KeyTableBuilder();
    for (const [k, key] of distinct.entries()) {
      expect(builder.numberOf(key)).toBe(k);
      // Asked again at once and later: the same number, nothing added.
      expect(builder.numberOf(key)).toBe(k);
      expect(builder.numberOf(distinct[k >> 1]!)).toBe(k >> 1);
    }
    expect(builder.size).toBe(distinct.length);
    expect(builder.keyAt(2999)).toBe('san juan 62 etapa 2999');
    const table = builder.table()!;
    expect(table.text).toBe(KeyTable.of(distinct)!.text);
    for (const [k, key] of distinct.entries()) {
      expect(table.numberOf(key)).toBe(k);
      expect(table.keyAt(k)).toBe(key);
    }
    for (const absent of ['san juan 0 etapa 3000', 'san juan', '']) expect(table.numberOf(absent)).toBe(-1);
    const small = new KeyTableBuilder();
    for (const key of ['centro', '', 'centro', 'el carmen']) small.numberOf(key);
    expect(small.table()!.text).toBe('centro\n\nel carmen\n');
    expect(new KeyTableBuilder().table()!.size).toBe(0);
  });

  it('refuses, built, a key with a line feed', () => {
    const builder = new KeyTableBuilder();
    builder.numberOf('centro');
    builder.numberOf('el\ncarmen');
    expect(builder.table()).toBeUndefined();
  });
});
