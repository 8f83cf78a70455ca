/**
 * The version-2 methods on the real national catalog. Expected answers are computed here from
 * the raw text by a deliberately plain reader (split on CRLF and "|", columns by header name,
 * Unicode's own NFD fold), independent of the compiler and of cpmx's fold tables, and compared
 * for every state, every municipality (with and without its state), every state key, and
 * seeded samples of the colonia filter. Also the 2026 Chiapas download (`c_CP` last).
 * When a catalog is missing these tests fail: they never skip.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { random } from '../../bench/workload.js';
import { createClient, type CpmxClient } from '../../src/index.js';
import { readRows, type RawRow } from '../support/real-rows.js';
import { buildInto, ok, realCatalogPath, tempDir } from '../helpers.js';

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
const foldSpaces = (text: string) => fold(text).replace(/\s+/g, ' ');
const sorted = (codes: Iterable<string>) => [...new Set(codes)].sort();

/** Distinct values in first-occurrence order. */
function distinct(values: Iterable<string>): string[] {
  return [...new Set(values)];
}

const dir = tempDir();
let rows: RawRow[];
let client: CpmxClient;
/** c_estado → state name, keys ascending. */
let states: [string, string][];

beforeAll(async () => {
  const source = realCatalogPath();
  rows = readRows(Buffer.from(unzipSync(readFileSync(source))['CPdescarga.txt']!).toString('latin1'));
  client = createClient({ token: 'real-data-test', dataPath: await buildInto(source, dir) });
  const names = new Map<string, string>();
  for (const row of rows) if (!names.has(row.cEstado)) names.set(row.cEstado, row.estado);
  states = [...names].sort(([a], [b]) => a.localeCompare(b));
});

/** Every state's cities as the contract lists them: each name once, by its lowest key, ties in catalog order. */
function citiesOf(ofState: RawRow[]): string[] {
  const lowest = new Map<string, number>();
  for (const row of ofState) {
    if (!row.ciudad) continue;
    const key = row.cCiudad ? Number(row.cCiudad) : Number.POSITIVE_INFINITY;
    if (!lowest.has(row.ciudad) || key < lowest.get(row.ciudad)!) lowest.set(row.ciudad, key);
  }
  return [...lowest].sort(([, a], [, b]) => (a === b ? 0 : a < b ? -1 : 1)).map(([name]) => name);
}

describe('states', () => {
  it('lists every state’s codes, keys, municipality keys and cities', () => {
    expect(states).toHaveLength(32);
    expect(ok(client.getEstadoClave()).response.estado_clave).toEqual(Object.fromEntries(states.map(([key, name]) => [name, key])));
    expect(Object.keys(ok(client.getEstadoClave()).response.estado_clave)).toEqual(states.map(([, name]) => name));
    for (const [key, name] of states) {
      const ofState = rows.filter((row) => row.cEstado === key);
      expect(ok(client.getCpPorEstado(name)).response.cp, name).toEqual(sorted(ofState.map((row) => row.cp)));
      expect(ok(client.searchCpAdvanced(name)).response.cp, name).toEqual(sorted(ofState.map((row) => row.cp)));
      const municipalities = new Map<string, string>();
      for (const row of ofState) if (!municipalities.has(row.cMnpio)) municipalities.set(row.cMnpio, row.municipio);
      const keys = [...municipalities].sort(([a], [b]) => a.localeCompare(b)).map(([k, m]) => [m, k.padStart(3, '0')]);
      const byName = ok(client.getMunicipioClavePorEstado(name)).response.municipio_clave;
      expect(Object.entries(byName), name).toEqual(keys);
      for (const clave of [key, String(Number(key))]) {
        expect(client.getMunicipioClavePorClaveEstado(clave), clave).toEqual(client.getMunicipioClavePorEstado(name));
        expect(ok(client.getCitiesByStateCode(clave)).response.ciudad, clave).toEqual(citiesOf(ofState));
      }
    }
    expect(client.getCitiesByStateCode('33').error).toBe(true);
    // Ciudad de México is one city under 16 keys: listed once.
    expect(ok(client.getCitiesByStateCode('9')).response.ciudad).toEqual(['Ciudad de México']);
  });
});

describe('municipalities', () => {
  let byId: Map<string, RawRow[]>;
  let byName: Map<string, RawRow[]>;

  beforeAll(() => {
    byId = new Map();
    byName = new Map();
    for (const row of rows) {
      const id = `${row.cEstado}|${row.cMnpio}`;
      const name = fold(row.municipio);
      if (!byId.has(id)) byId.set(id, []);
      if (!byName.has(name)) byName.set(name, []);
      byId.get(id)!.push(row);
      byName.get(name)!.push(row);
    }
  });

  it('has 86 names shared by several states, Benito Juárez by seven', () => {
    const shared = [...byName.values()].filter((list) => new Set(list.map((row) => row.cEstado)).size > 1);
    expect(byId.size).toBe(2_463);
    expect(byName.size).toBe(2_324);
    expect(shared).toHaveLength(86);
    expect(new Set(byName.get('benito juarez')!.map((row) => row.cEstado)).size).toBe(7);
  });

  it('answers every name without estado for all its municipalities: codes ascending, names in catalog order', () => {
    for (const [folded, list] of byName) {
      const name = list[0]!.municipio;
      expect(ok(client.getCpPorMunicipio(name)).response.cp, name).toEqual(sorted(list.map((row) => row.cp)));
      expect(ok(client.getColoniaPorMunicipio(folded.toUpperCase())).response.colonia, name).toEqual(distinct(list.map((row) => row.name)));
    }
  });

  it('answers every municipality with its estado for that one alone', () => {
    for (const list of byId.values()) {
      const { municipio, estado } = list[0]!;
      const expected = { cp: sorted(list.map((row) => row.cp)), colonia: distinct(list.map((row) => row.name)) };
      expect(ok(client.getCpPorMunicipio(municipio, { estado })).response.cp, `${municipio}, ${estado}`).toEqual(expected.cp);
      expect(ok(client.getColoniaPorMunicipio(municipio, { estado })).response.colonia, `${municipio}, ${estado}`).toEqual(expected.colonia);
      expect(client.getColoniaPorEstadoMunicipio(estado, municipio)).toEqual(client.getColoniaPorMunicipio(municipio, { estado }));
      expect(ok(client.searchCpAdvanced(estado, { municipio })).response.cp).toEqual(expected.cp);
    }
  });

  it('answers 115 for a shared name in a state that has none of it', () => {
    const benito = new Set(byName.get('benito juarez')!.map((row) => row.cEstado));
    const [, other] = states.find(([key]) => !benito.has(key))!;
    expect(client.getCpPorMunicipio('Benito Juárez', { estado: other }).error).toBe(true);
    expect(client.getCpPorMunicipio('Benito Juárez', { estado: other })).toMatchObject({ code_error: 115 });
  });
});

describe('search_cp_advanced with colonia', () => {
  it('matches seeded samples of every state as the folded names say, with and without municipio and limit', () => {
    const next = random(9);
    let compared = 0;
    let nonEmpty = 0;
    for (const [key, estado] of states) {
      const ofState = rows.filter((row) => row.cEstado === key);
      const needles = ['centro', 'san  juan', 'LA LOMA', 'ñ', 'x'];
      for (let i = 0; i < 12; i++) {
        const folded = foldSpaces(ofState[Math.floor(next() * ofState.length)]!.name);
        const start = Math.floor(next() * folded.length);
        needles.push(folded.slice(start, start + 3 + Math.floor(next() * 6)));
      }
      for (const needle of needles) {
        const matching = ofState.filter((row) => foldSpaces(row.name).includes(foldSpaces(needle)));
        const expected = sorted(matching.map((row) => row.cp));
        expect(ok(client.searchCpAdvanced(estado, { colonia: needle })).response.cp, `${estado}: ${needle}`).toEqual(expected);
        expect(ok(client.searchCpAdvanced(estado, { colonia: needle, limit: 3 })).response.cp).toEqual(expected.slice(0, 3));
        const municipio = matching[0]?.municipio ?? ofState[0]!.municipio;
        const inMunicipality = sorted(matching.filter((row) => row.municipio === municipio).map((row) => row.cp));
        expect(ok(client.searchCpAdvanced(estado, { colonia: needle, municipio })).response.cp, `${estado}, ${municipio}: ${needle}`).toEqual(inMunicipality);
        compared++;
        if (expected.length) nonEmpty++;
      }
    }
    expect(compared).toBe(32 * 17);
    expect(nonEmpty).toBeGreaterThan(32 * 12);
  });
});

describe('the 2026 Chiapas download (c_CP last)', () => {
  it('answers its cities by key, its codes and its new municipalities', async () => {
    const path = join(dirname(realCatalogPath()), 'CPdescarga-chiapas-2026.txt');
    if (!existsSync(path)) throw new Error(`the 2026 Chiapas catalog is missing at ${path}`);
    const chiapas = readRows(readFileSync(path).toString('latin1'));
    const newer = createClient({ token: 'chiapas', dataPath: await buildInto(path, dir, 'chiapas.msgpack') });
    expect(ok(newer.getEstadoClave()).response.estado_clave).toEqual({ Chiapas: '07' });
    expect(ok(newer.getCitiesByStateCode('7')).response.ciudad).toEqual(citiesOf(chiapas));
    expect(ok(newer.getCitiesByStateCode('7')).response.ciudad).toHaveLength(25);
    expect(ok(newer.getCpPorEstado('chiapas')).response.cp).toEqual(sorted(chiapas.map((row) => row.cp)));
    for (const municipio of ['Capitán Luis Ángel Vidal', 'Mezcalapa', 'Honduras de la Sierra']) {
      const list = chiapas.filter((row) => row.municipio === municipio);
      expect(list.length, municipio).toBeGreaterThan(0);
      expect(ok(newer.getColoniaPorMunicipio(municipio)).response.colonia).toEqual(distinct(list.map((row) => row.name)));
      expect(ok(newer.getCpPorMunicipio(fold(municipio))).response.cp).toEqual(sorted(list.map((row) => row.cp)));
    }
  });
});
