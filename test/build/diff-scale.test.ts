/**
 * `cpmx diff` stays near-linear in a code's settlements (issue 37, item 4): 20 codes of 2,000
 * settlements each (the most a code may have) all retyped, all renamed to unlike names, or a
 * hundred renamed to like ones. The bound is asserted on the diff's own work counter (settlements
 * matched by key, pairs of names compared), never on time: keyed work is at most twice the
 * settlements, and pairs are compared only for leftovers of at most 10,000 pairs a code.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type DiffWork, diffCatalogs } from '../../build/diff.js';
import { loadCatalog } from '../../src/client/catalog-source.js';
import type { Catalog } from '../../src/core/catalog.js';
import { buildInto, tempDir } from '../helpers.js';
import { HEADER, NOTICE, ROWS } from '../support/catalogs.js';

const dir = tempDir();
const CODES = 20;
const PER_CODE = 2_000;
const SETTLEMENTS = CODES * PER_CODE;

/** A catalog of CODES codes (one municipality each, so no municipality name passes its bound) of PER_CODE settlements, each named and typed by `settlement`. */
async function generated(name: string, settlement: (code: number, at: number) => [string, string]): Promise<Catalog> {
  const columns = HEADER.split('|').map((column) => column.toLowerCase());
  const template = ROWS[0]!.split('|');
  const set = (fields: string[], column: string, value: string) => (fields[columns.indexOf(column)] = value);
  const lines = [NOTICE, HEADER];
  for (let code = 0; code < CODES; code++) {
    for (let at = 0; at < PER_CODE; at++) {
      const fields = template.slice();
      const [asentamiento, tipo] = settlement(code, at);
      set(fields, 'd_codigo', String(10000 + code * 10));
      set(fields, 'd_asenta', asentamiento);
      set(fields, 'd_tipo_asenta', tipo);
      set(fields, 'd_mnpio', `Municipio ${code}`);
      set(fields, 'c_mnpio', String(code + 1).padStart(3, '0'));
      set(fields, 'id_asenta_cpcons', String(at).padStart(4, '0'));
      lines.push(fields.join('|'));
    }
  }
  const text = join(dir, `${name}.txt`);
  writeFileSync(text, `${lines.join('\r\n')}\r\n`, 'latin1');
  return loadCatalog(await buildInto(text, dir, `${name}.msgpack`));
}

/** Settlement names with nothing in common between `at`s: a word made of the number's digits in letters. */
const word = (prefix: string, at: number) => `${prefix} ${[...String(at)].map((digit) => 'bcdfghjklm'[Number(digit)]).join('')}`;

let base: Catalog;
beforeAll(async () => {
  base = await generated('base', (_code, at) => [word('Colonia', at), 'Colonia']);
});

function diffCounting(old: Catalog, next: Catalog): { work: DiffWork; counts: Map<string, number> } {
  const work: DiffWork = { settlementsKeyed: 0, pairsCompared: 0 };
  const counts = new Map<string, number>();
  for (const change of diffCatalogs(old, next, work)) counts.set(change.change, (counts.get(change.change) ?? 0) + 1);
  return { work, counts };
}

describe('cpmx diff on 20 codes of 2,000 settlements', () => {
  it('all retyped: each paired by its name, no pair of names compared', async () => {
    const retyped = await generated('retyped', (_code, at) => [word('Colonia', at), 'Barrio']);
    const { work, counts } = diffCounting(base, retyped);
    expect(Object.fromEntries(counts)).toEqual({ 'settlement-retyped': SETTLEMENTS });
    expect(work).toEqual({ settlementsKeyed: SETTLEMENTS, pairsCompared: 0 });
  });

  it('all of one name (twins) retyped: paired in turn by the name, no pair compared (the case that was quadratic)', async () => {
    const [before, after] = [await generated('centro', () => ['Centro', 'Colonia']), await generated('centro-retyped', () => ['Centro', 'Barrio'])];
    const { work, counts } = diffCounting(before, after);
    expect(Object.fromEntries(counts)).toEqual({ 'settlement-retyped': SETTLEMENTS });
    expect(work).toEqual({ settlementsKeyed: SETTLEMENTS, pairsCompared: 0 });
  });

  it('all renamed to unlike names: removed and added, the leftovers too many to compare', async () => {
    const renamed = await generated('renamed', (_code, at) => [word('Fraccionamiento Nuevo', at + PER_CODE), 'Colonia']);
    const { work, counts } = diffCounting(base, renamed);
    expect(Object.fromEntries(counts)).toEqual({ 'settlement-removed': SETTLEMENTS, 'settlement-added': SETTLEMENTS });
    // Each removed one looked up by its name, then by its folded name; no pair compared.
    expect(work).toEqual({ settlementsKeyed: 2 * SETTLEMENTS, pairsCompared: 0 });
  });

  it('a hundred a code renamed to like names: those paired by likeness, at most 10,000 pairs a code compared', async () => {
    const respelled = await generated('respelled', (_code, at) => [at < 100 ? `${word('Colonia', at)}s` : word('Colonia', at), 'Colonia']);
    const { work, counts } = diffCounting(base, respelled);
    expect(Object.fromEntries(counts)).toEqual({ 'settlement-renamed': CODES * 100 });
    expect(work).toEqual({ settlementsKeyed: 2 * CODES * 100, pairsCompared: CODES * 100 * 100 });
  });
});
