/**
 * The table of settlement types' forms, checked against the real catalog (built from
 * ../shared/data/sepomex; fails, never skips, without it): every `tipo_asentamiento` the
 * catalog has is in the table, and has its everyday forms in
 * test/fixtures/settlement-type-forms.csv (each with its source), each read as that type.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/client/catalog-source.js';
import type { Catalog } from '../../src/core/catalog.js';
import { SETTLEMENT_TYPE_FORMS } from '../../src/core/name-forms.js';
import { splitSettlementType } from '../../src/core/names.js';
import { buildInto, realCatalogPath, root, tempDir } from '../helpers.js';
import { typeForms } from '../support/pipeline-cases.js';

const dir = tempDir();
let catalog: Catalog;
const forms = typeForms(readFileSync(join(root, 'test', 'fixtures', 'settlement-type-forms.csv'), 'utf8'));

beforeAll(async () => {
  catalog = loadCatalog(await buildInto(realCatalogPath(), dir));
});

/** Every settlement type of the catalog, once. */
function catalogTypes(): Set<string> {
  const types = new Set<string>();
  for (let code = 0; code < catalog.postalCodes().length; code++) {
    for (let s = catalog.settlementStartOf(code); s < catalog.settlementEndOf(code); s++) types.add(catalog.settlementType(s));
  }
  return types;
}

describe('the table of settlement types’ forms', () => {
  it('covers every type the catalog has, in the table and in the fixture of everyday forms', () => {
    const types = [...catalogTypes()];
    expect(types.length).toBeGreaterThan(20);
    expect(types.filter((type) => !(type in SETTLEMENT_TYPE_FORMS))).toEqual([]);
    expect(types.filter((type) => !forms.has(type))).toEqual([]);
  });

  it('reads every everyday form as its type, in front of a name', () => {
    const misread: string[] = [];
    for (const [type, written] of forms) {
      for (const form of written) {
        const split = splitSettlementType(`${form} Las Flores`);
        if (split.type !== type || split.name !== 'Las Flores') misread.push(`${form} -> ${split.type}`);
      }
    }
    expect(misread).toEqual([]);
  });

  it('cites a source for every form', () => {
    const rows = readFileSync(join(root, 'test', 'fixtures', 'settlement-type-forms.csv'), 'utf8').trim().split('\n').slice(1);
    expect(rows.filter((row) => !/,(?:"?https:\/\/|"?test\/fixtures\/|common usage|the type's own name)/.test(row))).toEqual([]);
  });
});
