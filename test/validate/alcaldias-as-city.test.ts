/**
 * Ciudad de México written as its alcaldía in the city field (`city: "Iztapalapa"`, `state:
 * "Ciudad de México"`), as INEGI names the alcaldías' localities and shops, carriers and
 * geodata write them: real records from public files are valid, `--canonical` writes the
 * catalog's city; another alcaldía, and a city of one municipality written as its municipality
 * under another name, are still 123. The cities of several municipalities are found from the
 * catalog's structure, checked here against the router's answers for every code.
 * The catalog is built from ../shared/data/sepomex (these tests fail, never skip, without it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/core/catalog.js';
import { citiesOfSeveralMunicipalities, cityOfState } from '../../src/core/shared-cities.js';
import type { CpmxClient } from '../../src/index.js';
import { validateAddress } from '../../src/validate/index.js';
import { validatorFor } from '../../src/validate/address.js';
import { buildRealCatalog, root, tempDir } from '../helpers.js';

const dir = tempDir();
let catalog: Catalog;
let client: CpmxClient;

beforeAll(async () => ({ catalog, client } = await buildRealCatalog(dir, 'alcaldias-test')));

interface Row {
  cp: string;
  colonia: string;
  municipio: string;
  estado: string;
  ciudad: string;
  source: string;
}

const rows = parseCsv(readFileSync(join(root, 'test', 'fixtures', 'alcaldias-as-city.csv')), { columns: true }) as Row[];

const codes = (result: { errors: { code_error: number }[] }) => result.errors.map((error) => error.code_error);

describe('a city of several municipalities written as the code\'s municipality', () => {
  it('real records that write an alcaldía as the city are valid, and --canonical writes Ciudad de México', () => {
    expect(rows.length).toBeGreaterThanOrEqual(12);
    for (const row of rows) {
      expect(row.source, row.cp).toMatch(/github\.com|cpmx search index/);
      const result = validateAddress(client, { ...row });
      expect(result, `${row.ciudad} ${row.cp}`).toMatchObject({ valid: true, errors: [] });
      const fix = validatorFor(client).fix(row.cp, row.colonia, row.municipio, row.estado, row.ciudad, result, true);
      expect(fix.changes.ciudad, row.ciudad).toBe('Ciudad de México');
    }
  });

  it('reads each of the 16 alcaldías, in the forms a municipality is read, at a code of its own', () => {
    const cdmx = catalog.stateNames().indexOf('Ciudad de México');
    let alcaldias = 0;
    for (let m = 0; m < catalog.municipalityCount; m++) {
      if (catalog.stateOfMunicipality(m) !== cdmx) continue;
      alcaldias++;
      const alcaldia = catalog.nameOfMunicipality(m);
      const cp = catalog.postalCode(catalog.codeRunsOfMunicipality(m)[0]!);
      expect(validateAddress(client, { cp, ciudad: alcaldia }), `${alcaldia} ${cp}`).toMatchObject({ valid: true });
      expect(validateAddress(client, { cp, ciudad: `Alc. ${alcaldia.toUpperCase()}` }), `${alcaldia} ${cp}`).toMatchObject({ valid: true });
    }
    expect(alcaldias).toBe(16);
  });

  it('reads México alone as the city of Mexico City, and the State of Mexico written there not', () => {
    // CFDI invoices write the capital's locality `MEXICO` (a wholesaler at the Central de Abasto, cpmx search index file
    // 27269053541; a CFDI 3.2 template's receptor in Anáhuac, 9823122772): each was a 123.
    expect(validateAddress(client, { cp: '09040', asentamiento: 'Central de Abasto', municipio: 'Iztapalapa', estado: 'Ciudad de México', ciudad: 'MEXICO' })).toMatchObject({ valid: true });
    expect(validateAddress(client, { cp: '11320', asentamiento: 'ANAHUAC I SECCION', municipio: 'Miguel Hidalgo', estado: 'D.F.', ciudad: 'México' })).toMatchObject({ valid: true });
    expect(codes(validateAddress(client, { cp: '09040', ciudad: 'Estado de México' }))).toEqual([123]);
    // No city of the State of Mexico is named México: Toluca's code with it is still 123.
    expect(codes(validateAddress(client, { cp: '50000', ciudad: 'México' }))).toEqual([123]);
  });

  it('is 123 for another alcaldía than the code\'s, with the catalog\'s city suggested', () => {
    const result = validateAddress(client, { cp: '09820', asentamiento: 'Santa Isabel Industrial', municipio: 'Iztapalapa', estado: 'CDMX', ciudad: 'Coyoacán' });
    expect(codes(result)).toEqual([123]);
    expect(result.suggestions.ciudad).toBe('Ciudad de México');
  });

  it('is 123 for a city of one municipality written as its municipality under another name (Cajeme for Ciudad Obregón)', () => {
    const result = validateAddress(client, { cp: '85000', municipio: 'Cajeme', estado: 'Sonora', ciudad: 'Cajeme' });
    expect(codes(result)).toEqual([123]);
    expect(result.suggestions.ciudad).toBe('Ciudad Obregón');
  });

  it('finds the cities of several municipalities by state and name, as the router answers every code', () => {
    // Asked of the router, code by code: which (state, city) pairs have codes in more than one municipality.
    const municipalitiesOf = new Map<string, Set<string>>();
    for (const cp of catalog.postalCodes()) {
      const body = client.infoCp(cp, { type: 'simplified' });
      if (body.error || !body.response.ciudad) continue;
      const key = cityOfState(body.response.estado, body.response.ciudad);
      const set = municipalitiesOf.get(key) ?? new Set<string>();
      set.add(body.response.municipio);
      municipalitiesOf.set(key, set);
    }
    const expected = [...municipalitiesOf].filter(([, set]) => set.size > 1).map(([key]) => key);
    expect([...citiesOfSeveralMunicipalities(catalog)].sort()).toEqual(expected.sort());
    expect(expected).toContain(cityOfState('Ciudad de México', 'Ciudad de México'));
    // A city's name shared by two states is no city of several municipalities.
    const names = new Map<string, number>();
    for (const key of municipalitiesOf.keys()) names.set(key.split('\u0001')[1]!, (names.get(key.split('\u0001')[1]!) ?? 0) + 1);
    const twin = [...names].find(([, count]) => count > 1)?.[0];
    expect(twin, 'a city name in two states').toBeDefined();
    expect(expected.some((key) => key.endsWith(`\u0001${twin}`))).toBe(false);
  });
});
