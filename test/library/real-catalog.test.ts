/**
 * The real national catalog (../shared/data/sepomex/CPdescargatxt.zip). Expected answers are
 * computed here from the raw text by a deliberately plain reader (split on CRLF and "|"),
 * independent of the compiler, and compared for every postal code, prefix and state.
 * When the catalog is missing these tests fail: they never skip.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { foldStateName } from '../../src/core/names.js';
import { createClient, type CpmxClient } from '../../src/index.js';
import { buildInto, realCatalogPath, tempDir, ok } from '../helpers.js';
import { realRows, type RawRow } from '../support/real-rows.js';

const dir = tempDir();
let rows: RawRow[];
let byCode: Map<string, RawRow[]>;
let client: CpmxClient;
let artifactPath: string;

beforeAll(async () => {
  const source = realCatalogPath();
  rows = realRows();
  byCode = new Map();
  for (const row of rows) byCode.set(row.cp, [...(byCode.get(row.cp) ?? []), row]);
  artifactPath = await buildInto(source, dir);
  client = createClient({ token: 'real-data-test', dataPath: artifactPath });
});

describe('the real catalog', () => {
  it('has the documented counts', () => {
    const header = client.catalogInfo();
    expect(rows).toHaveLength(145_092);
    expect(header).toMatchObject({ rows: 145_092, codes: 32_166, states: 32, municipalities: 2_463 });
    expect(header.source).toEqual({
      file: 'CPdescargatxt.zip',
      sha256: '142ab3821165c19c991ef7ef7289df0791f14e66de25e300a61f4e7cec3fa81b',
      bytes: 1_991_841,
      encoding: 'latin1',
      date: '2018-10-25T00:01:36',
      dateFrom: 'zip-entry',
    });
    expect(header.notice).toMatch(/^El Catálogo Nacional de Códigos Postales, es elaborado por Correos de México/);
  });

  it('answers info_cp for every code, in both modes, as the raw rows say', () => {
    for (const [cp, settlements] of byCode) {
      const first = settlements[0]!;
      const place = { municipio: first.municipio, estado: first.estado, ciudad: settlements.find((s) => s.ciudad)?.ciudad ?? '', pais: 'México' };
      const full = client.infoCp(cp);
      expect(full).toEqual(
        settlements.map((s) => ({
          error: false,
          code_error: 0,
          error_message: null,
          response: { cp, asentamiento: s.name, tipo_asentamiento: s.type, ...place },
        })),
      );
      expect(client.infoCp(cp, { type: 'simplified' })).toEqual({
        error: false,
        code_error: 0,
        error_message: null,
        response: { cp, asentamiento: settlements.map((s) => s.name), tipo_asentamiento: first.type, ...place },
      });
    }
  });

  it('answers 105 for 5-digit codes not in the catalog', () => {
    let checked = 0;
    for (let n = 0; n < 100_000; n += 7) {
      const cp = String(n).padStart(5, '0');
      if (byCode.has(cp)) continue;
      expect(client.query(`/query/info_cp/${cp}?token=x`).status).toBe(404);
      checked++;
    }
    expect(checked).toBeGreaterThan(9_000);
  });

  it('answers search_cp for every 1-, 2- and 3-digit prefix and a spread of 4-digit ones', () => {
    const codes = [...byCode.keys()].sort();
    const prefixes = new Set<string>();
    for (let n = 0; n < 10; n++) prefixes.add(String(n));
    for (let n = 0; n < 100; n++) prefixes.add(String(n).padStart(2, '0'));
    for (let n = 0; n < 1000; n++) prefixes.add(String(n).padStart(3, '0'));
    for (let n = 0; n < 10_000; n += 37) prefixes.add(String(n).padStart(4, '0'));
    for (const prefix of prefixes) {
      expect(ok(client.searchCp(prefix)).response.cp, prefix).toEqual(codes.filter((cp) => cp.startsWith(prefix)));
    }
    const total = [...'0123456789'].reduce((sum, digit) => sum + ok(client.searchCp(digit)).response.cp.length, 0);
    expect(total).toBe(32_166);
  });

  it('lists the 32 states by c_estado and each state’s municipalities once, by c_mnpio', () => {
    const states = new Map<string, string>();
    for (const row of rows) if (!states.has(row.cEstado)) states.set(row.cEstado, row.estado);
    const keys = [...states.keys()].sort();
    expect(ok(client.getEstados()).response.estado).toEqual(keys.map((key) => states.get(key)));
    for (const key of keys) {
      const municipalities = new Map<string, string>();
      for (const row of rows) if (row.cEstado === key && !municipalities.has(row.cMnpio)) municipalities.set(row.cMnpio, row.municipio);
      const expected = [...new Set([...municipalities.keys()].sort().map((k) => municipalities.get(k)))];
      const name = states.get(key)!;
      expect(ok(client.getMunicipioPorEstado(name)).response.municipios, name).toEqual(expected);
      expect(client.getMunicipioPorEstado(`  ${foldStateName(name).toUpperCase()} `)).toEqual(client.getMunicipioPorEstado(name));
    }
  });

  it('resolves every alias of the contract to its real state', () => {
    const aliases: [string, string][] = [
      ['CDMX', 'Ciudad de México'],
      ['Distrito Federal', 'Ciudad de México'],
      ['Estado de México', 'México'],
      ['Edomex', 'México'],
      ['Coahuila', 'Coahuila de Zaragoza'],
      ['Michoacán', 'Michoacán de Ocampo'],
      ['Veracruz', 'Veracruz de Ignacio de la Llave'],
    ];
    for (const [alias, state] of aliases) {
      expect(client.getMunicipioPorEstado(alias), alias).toEqual(client.getMunicipioPorEstado(state));
      expect(client.getMunicipioPorEstado(alias).error).toBe(false);
    }
  });

  it('keeps the pitfalls of the data README right', () => {
    const quoted = rows.filter((row) => row.name.includes('"'));
    expect(quoted).toHaveLength(17);
    for (const row of quoted) expect(ok(client.infoCp(row.cp, { type: 'simplified' })).response.asentamiento).toContain(row.name);
    const mixed = [...byCode.values()].filter((s) => s.some((r) => r.ciudad) && s.some((r) => !r.ciudad));
    expect(mixed).toHaveLength(51);
    for (const settlements of mixed) {
      const answer = ok(client.infoCp(settlements[0]!.cp));
      expect(new Set(answer.map((e) => e.response.ciudad)).size).toBe(1);
      expect(answer[0]?.response.ciudad).toBe(settlements.find((s) => s.ciudad)!.ciudad);
    }
    const largest = Math.max(...[...byCode.values()].map((s) => s.length));
    expect(largest).toBe(349);
    const [cp] = [...byCode].find(([, s]) => s.length === 349)!;
    expect(ok(client.infoCp(cp)).length).toBe(349);
  });

  it('builds a byte-identical artifact from the same input', async () => {
    const again = await buildInto(realCatalogPath(), dir, 'again.msgpack');
    expect(readFileSync(again).equals(readFileSync(artifactPath))).toBe(true);
    expect(readFileSync(artifactPath).length).toBeLessThanOrEqual(2.5 * 1024 * 1024);
  });
});
