/**
 * Corrections address any settlement of the real catalog, twins included, and apply as one set
 * (issue 37, item 3): 139 groups of the catalog share a name and type within a code once
 * folded (27945 has "Santa Ana" (Ejido) twice, ids 1543 and 3905; 29908 has "Lumijá" and
 * "Lumija", ids 0191 and 0859). `id_asenta_cpcons` says which; the same corrections in any
 * order give the same catalog. The rows of those two codes are taken from the real catalog
 * when the tests run (nothing of it is committed).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildArtifact, CatalogError } from '../../build/build.js';
import { createClient } from '../../src/index.js';
import { BUILD_TIME, ok, realCatalogPath, tempDir } from '../helpers.js';

const dir = tempDir();
const HEADER = 'action,cp,asentamiento,tipo_asentamiento,id_asenta_cpcons,nuevo_asentamiento,nuevo_tipo_asentamiento,nota';
let source: string;

beforeAll(() => {
  const text = Buffer.from(unzipSync(readFileSync(realCatalogPath()))['CPdescarga.txt']!).toString('latin1');
  const lines = text.split('\r\n');
  const rows = lines.slice(2).filter((line) => line.startsWith('27945|') || line.startsWith('29908|'));
  expect(rows.length).toBe(32);
  source = join(dir, 'twins.txt');
  writeFileSync(source, `${[lines[0], lines[1], ...rows].join('\r\n')}\r\n`, 'latin1');
});

let builds = 0;
function corrections(...rows: string[]): string {
  const path = join(dir, `corrections-${++builds}.csv`);
  writeFileSync(path, `${[HEADER, ...rows].join('\n')}\n`);
  return path;
}

/** The settlements of a code after building with `rows` as corrections. */
async function settlementsAfter(code: string, ...rows: string[]): Promise<string[]> {
  const out = join(dir, `twins-${++builds}.msgpack`);
  await buildArtifact({ source, out, builtAt: BUILD_TIME, corrections: corrections(...rows) });
  return ok(createClient({ dataPath: out }).infoCp(code, { type: 'simplified' })).response.asentamiento;
}

async function refusal(...rows: string[]): Promise<CatalogError> {
  const error = await buildArtifact({ source, out: join(dir, 'refused.msgpack'), builtAt: BUILD_TIME, corrections: corrections(...rows) }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(CatalogError);
  return error as CatalogError;
}

describe('twin settlements', () => {
  it('removes either "Santa Ana" (Ejido) of 27945 by its id_asenta_cpcons', async () => {
    const out = join(dir, 'plain.msgpack');
    await buildArtifact({ source, out, builtAt: BUILD_TIME });
    const all = ok(createClient({ dataPath: out }).infoCp('27945', { type: 'simplified' })).response.asentamiento;
    const twins = all.flatMap((name, at) => (name === 'Santa Ana' ? [at] : []));
    expect(twins).toHaveLength(2);
    const without = (at: number) => all.filter((_, i) => i !== at);
    expect(await settlementsAfter('27945', 'remove-settlement,27945,Santa Ana,Ejido,1543,,,')).toEqual(without(twins[0]!));
    expect(await settlementsAfter('27945', 'remove-settlement,27945,Santa Ana,Ejido,3905,,,')).toEqual(without(twins[1]!));
    const renamed = await settlementsAfter('27945', 'rename-settlement,27945,santa ana,,3905,Santa Ana de Abajo,,');
    expect(renamed[twins[1]!]).toBe('Santa Ana de Abajo');
    expect(renamed[twins[0]!]).toBe('Santa Ana');
  });

  it('says which ids to give when the name and type are not enough, and what a wrong id names', async () => {
    const ambiguous = await refusal('remove-settlement,27945,Santa Ana,Ejido,,,,');
    expect(ambiguous.line).toBe(2);
    expect(ambiguous.message).toMatch(/postal code 27945 has 2 settlements named "Santa Ana" \(Ejido\); give id_asenta_cpcons to say which: "Santa Ana" \(Ejido, id 1543\), "Santa Ana" \(Ejido, id 3905\)/);
    const folded = await refusal('rename-settlement,29908,Lumija,,,Lumijá 1a. Sección,,');
    expect(folded.message).toMatch(/29908 has 2 settlements named "Lumija"; give id_asenta_cpcons to say which: "Lumijá" \(Ejido, id 0191\), "Lumija" \(Ejido, id 0859\)/);
    const wrong = await refusal('remove-settlement,27945,Santa Ana,,9999,,,');
    expect(wrong.message).toMatch(/27945 has no settlement "Santa Ana" with id_asenta_cpcons 9999; those named so are "Santa Ana" \(Ejido, id 1543\), "Santa Ana" \(Ejido, id 3905\)/);
    expect((await refusal('remove-settlement,27945,Santa Ana,,15x3,,,')).message).toMatch(/id_asenta_cpcons "15x3" is not a settlement id/);
  });

  it('renames one of "Lumijá" and "Lumija" of 29908 by id, and respelling a twin is not a new duplicate', async () => {
    const after = await settlementsAfter('29908', 'rename-settlement,29908,Lumija,,0859,Lumijá 2a. Sección,,', 'rename-settlement,29908,Lumijá,,0191,Lumija,,');
    expect(after).toContain('Lumijá 2a. Sección');
    expect(after.filter((name) => name === 'Lumija')).toHaveLength(1);
    expect(after).not.toContain('Lumijá');
    const respelled = await settlementsAfter('29908', 'rename-settlement,29908,Lumijá,,0191,LUMIJÁ,,');
    expect(respelled).toContain('LUMIJÁ');
    expect(respelled).toContain('Lumija');
  });
});

describe('a corrections file is one set, not a sequence', () => {
  const cases: [string, string[]][] = [
    ['a rename onto a name another rename frees', ['rename-settlement,27945,Sofía de Arriba,,,La Victoria,,', 'rename-settlement,27945,La Victoria,,,La Victoria Nueva,,']],
    ['two settlements swapping names', ['rename-settlement,27945,La Fe,,,San Carlos de la Fe,,', 'rename-settlement,27945,San Carlos de la Fe,,,La Fe,,']],
    ['twins told apart, one renamed and one removed', ['rename-settlement,27945,Santa Ana,,1543,Santa Ana de Abajo,,', 'remove-settlement,27945,Santa Ana,,3905,,,', 'remove-settlement,27945,Vega Larga,,,,,']],
    ['a removed name added back with another type, and two adds', ['remove-settlement,27945,Nuevo Mundo,,,,,', 'add-settlement,27945,Nuevo Mundo,Ranchería,,,,', 'add-settlement,27945,Zacatal,Ejido,,,,']],
  ];
  it.each(cases)('%s: both orders give the same catalog', async (_name, rows) => {
    const forward = await settlementsAfter('27945', ...rows);
    const backward = await settlementsAfter('27945', ...rows.slice().reverse());
    expect(backward).toEqual(forward);
  });

  it('two renames onto one name are refused in either order, on the later line', async () => {
    const rows = ['rename-settlement,27945,La Fe,,,Las Flores,,', 'rename-settlement,27945,Tres Estrellas,,,las flores,ranchería,'];
    for (const order of [rows, rows.slice().reverse()]) {
      const error = await refusal(...order);
      expect(error.line).toBe(3);
      expect(error.message).toMatch(/postal code 27945 already has a settlement "[Ll]as [Ff]lores" \(Ranchería\): line 2 renames one to it too/);
    }
  });
});
