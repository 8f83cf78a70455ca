/**
 * The settlement index (parse/settlement-index.ts) answers what a plain filter of the catalog
 * answers: for every key of the real catalog, its codes (ascending, each once) in the whole
 * catalog, in each state and in each municipality that has it, and in groups of municipalities.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/client/catalog-source.js';
import type { Catalog } from '../../src/core/catalog.js';
import { otherKeys, settlementKey } from '../../src/core/names.js';
import { SettlementIndex } from '../../src/parse/settlement-index.js';
import { root } from '../helpers.js';

let catalog: Catalog;
let index: SettlementIndex;
/** Each key's codes, ascending, each once: the plain filter. */
const byKey = new Map<string, number[]>();

beforeAll(() => {
  catalog = loadCatalog(join(root, 'data', 'cpmx.msgpack'));
  index = SettlementIndex.build(catalog);
  for (let code = 0; code < catalog.codeCount; code++) {
    const municipality = settlementKey(catalog.municipalityOf(code));
    const city = settlementKey(catalog.cityOf(code));
    for (let s = catalog.settlementStartOf(code); s < catalog.settlementEndOf(code); s++) {
      const name = catalog.settlementName(s);
      const key = settlementKey(name);
      // A settlement's own key, and the keys it is known by beside it (`Monterrey Centro` by centro).
      for (const each of [key, ...otherKeys(name, key, municipality, city)]) {
        const codes = byKey.get(each) ?? [];
        if (!codes.includes(code)) codes.push(code);
        byKey.set(each, codes);
      }
    }
  }
  for (const codes of byKey.values()) codes.sort((a, b) => a - b);
});

const municipalityOf = (code: number) => catalog.municipalityIndexOf(code);
const stateOf = (code: number) => catalog.stateOfMunicipality(municipalityOf(code));

describe('the settlement index', () => {
  it('gives every key its codes, in the catalog, in each of its states and in each of its municipalities', () => {
    expect(byKey.size).toBeGreaterThan(10_000);
    for (const [key, codes] of byKey) {
      expect(index.codesOf(key, [], -1)).toEqual(codes);
      for (const state of new Set(codes.map(stateOf))) expect(index.codesOf(key, [], state)).toEqual(codes.filter((code) => stateOf(code) === state));
      for (const m of new Set(codes.map(municipalityOf))) {
        expect(index.codesOf(key, [m], -1)).toEqual(codes.filter((code) => municipalityOf(code) === m));
        // The state is not asked when municipalities are given.
        expect(index.codesOf(key, [m], (stateOf(codes[0]!) + 1) % catalog.stateCount)).toEqual(codes.filter((code) => municipalityOf(code) === m));
      }
    }
  });

  it('gives the codes of several municipalities at once, ascending, and none where a key is not', () => {
    // The key of the most codes (a common name: Centro, Guadalupe, ...).
    const [common, commonCodes] = [...byKey].reduce((most, entry) => (entry[1].length > most[1].length ? entry : most));
    expect(commonCodes.length).toBeGreaterThan(50);
    const municipalities = [...new Set(commonCodes.map(municipalityOf))].filter((_, i) => i % 7 === 0);
    expect(index.codesOf(common, municipalities, -1)).toEqual(commonCodes.filter((code) => municipalities.includes(municipalityOf(code))));
    const without = [...Array(catalog.municipalityCount).keys()].find((m) => !commonCodes.some((code) => municipalityOf(code) === m))!;
    expect(index.codesOf(common, [without], -1)).toEqual([]);
    expect(index.codesOf(common, [without, municipalities[0]!], -1)).toEqual(commonCodes.filter((code) => municipalityOf(code) === municipalities[0]));
    expect(index.codesOf('no such settlement anywhere', [], -1)).toEqual([]);
    expect(index.codesOf('no such settlement anywhere', [municipalities[0]!], 3)).toEqual([]);
  });

  it('is handed to another thread as data, answering the same, and only for the same build of the catalog', () => {
    const data = index.toData()!;
    // What a thread sends is what another receives: a structured clone.
    const taken = SettlementIndex.fromData(catalog, structuredClone(data))!;
    expect(taken).toBeDefined();
    let asked = 0;
    for (const [key, codes] of byKey) {
      if (asked++ % 50) continue;
      expect(taken.codesOf(key, [], -1)).toEqual(codes);
      const m = municipalityOf(codes[0]!);
      expect(taken.codesOf(key, [m], -1)).toEqual(index.codesOf(key, [m], -1));
      expect(taken.codesOf(key, [], stateOf(codes[0]!))).toEqual(index.codesOf(key, [], stateOf(codes[0]!)));
    }
    expect(SettlementIndex.fromData(catalog, { ...data, build: '00000000' })).toBeUndefined();
    expect(SettlementIndex.fromData(catalog, { ...data, keys: data.keys.slice(0, -1) })).toBeUndefined();
  });
});
