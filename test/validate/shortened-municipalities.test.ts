/**
 * Municipalities written short (`Ecatepec` for Ecatepec de Morelos, `Tlaquepaque` for San
 * Pedro Tlaquepaque), on the real catalog: real records from public files that write them so
 * are valid, and `cpmx parse` reads them as the municipality; a short form that names another
 * municipality as written, or several, names none; a city that is its municipality by name
 * is read the same way; the contract's methods answer as before.
 * The catalog is built from ../shared/data/sepomex (these tests fail, never skip, without it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/core/catalog.js';
import { findMunicipalities, findState, nameKey } from '../../src/core/names.js';
import { shortenedKeys, shortenedMunicipality } from '../../src/core/shortened-municipalities.js';
import type { CpmxClient } from '../../src/index.js';
import { parseAddress, validateAddress } from '../../src/validate/index.js';
import { validatorFor } from '../../src/validate/address.js';
import { buildRealCatalog, root, tempDir } from '../helpers.js';

const dir = tempDir();
let catalog: Catalog;
let client: CpmxClient;

beforeAll(async () => ({ catalog, client } = await buildRealCatalog(dir, 'shortened-test')));

interface Row {
  cp: string;
  municipio: string;
  estado: string;
  catalog_municipio: string;
  source: string;
}

const rows = parseCsv(readFileSync(join(root, 'test', 'fixtures', 'shortened-municipalities.csv')), { columns: true }) as Row[];

/** The index of a municipality by its catalog name within a state written as the catalog writes it. */
function municipality(name: string, state: string): number {
  const found = findMunicipalities(catalog, name, findState(catalog, state));
  expect(found, `${name}, ${state}`).toHaveLength(1);
  return found[0]!;
}

describe('real records that write a municipality short', () => {
  it('are valid, and --canonical writes the catalog name', () => {
    expect(rows.filter((row) => row.catalog_municipio).length).toBeGreaterThanOrEqual(12);
    for (const row of rows) {
      expect(row.source, row.cp).toMatch(/github\.com|cpmx search index/);
      const record = { cp: row.cp, municipio: row.municipio, estado: row.estado };
      const result = validateAddress(client, record);
      if (!row.catalog_municipio) {
        // Atizapán is a municipality of its own: written for Atizapán de Zaragoza it is the wrong one.
        expect(result.errors.map((error) => error.code_error), row.municipio).toEqual([121]);
        continue;
      }
      expect(result, `${row.municipio} ${row.cp}`).toMatchObject({ valid: true, errors: [] });
      const fix = validatorFor(client).fix(row.cp, '', row.municipio, row.estado, '', result, true);
      expect(fix.changes.municipio, row.municipio).toBe(row.catalog_municipio);
    }
  });

  it('are read written long too, as INEGI names the seat: with a surname the catalog leaves out', () => {
    // Telecomm-Telégrafos offices (a bank locator's scrape, ivansabik/ubicajeros-api, banorte/corresponsales_TELECOMM-TELEGRAFOS_*.htm;
    // cpmx search index files 8811156457 and 8031106516): the municipality was 121, Calera's record invalid for it alone.
    expect(validateAddress(client, { cp: '98500', asentamiento: 'CENTRO', municipio: 'CALERA DE VICTOR ROSALES', estado: 'ZACATECAS' })).toMatchObject({ valid: true });
    expect(validateAddress(client, { cp: '58460', municipio: 'Acuitzio del Canje', estado: 'MICHOACAN' })).toMatchObject({ valid: true });
    const fix = validatorFor(client).fix('58460', '', 'Acuitzio del Canje', 'MICHOACAN', '', validateAddress(client, { cp: '58460', municipio: 'Acuitzio del Canje', estado: 'MICHOACAN' }), true);
    expect(fix.changes.municipio).toBe('Acuitzio');
    // A municipality of its own so named is another: Atizapán de Zaragoza for Atizapán's 52500, Chila de la Sal for Chila's 74990.
    expect(validateAddress(client, { cp: '52500', municipio: 'Atizapán de Zaragoza', estado: 'México' }).errors.map((error) => error.code_error)).toEqual([121]);
    expect(validateAddress(client, { cp: '74990', municipio: 'Chila de la Sal', estado: 'Puebla' }).errors.map((error) => error.code_error)).toEqual([121]);
  });

  it('are the city too where the code\'s city is its municipality by name (Ecatepec de Morelos), and the other way round', () => {
    // Several of the sources write these as the city; a code without a city cannot check one (125).
    for (const row of rows.filter((r) => r.catalog_municipio)) {
      const result = validateAddress(client, { cp: row.cp, ciudad: row.municipio, estado: row.estado });
      expect(result, `${row.municipio} ${row.cp}`).toMatchObject({ valid: true, errors: [] });
    }
    // The catalog's city of 45500 is Tlaquepaque, the short form of its municipality.
    expect(validateAddress(client, { cp: '45500', ciudad: 'San Pedro Tlaquepaque' })).toMatchObject({ valid: true, errors: [] });
    expect(validateAddress(client, { cp: '55000', ciudad: 'Naucalpan' }).errors.map((error) => error.code_error)).toEqual([123]);
    // The city is its municipality without a joining word: *Santa Cruz Juventino Rosas* of Santa Cruz de Juventino Rosas
    // (a store locator: https://github.com/BoomPartner/ipesamex/blob/67a57e62574bfb2193b433e20d7f23ff05c2216f/src/components/dataMapas.js).
    expect(validateAddress(client, { cp: '38240', estado: 'GUANAJUATO', ciudad: 'SANTA CRUZ DE JUVENTINO ROSAS' })).toMatchObject({ valid: true, errors: [] });
  });

  it('are read by cpmx parse as the municipality, and name a code with a settlement when the line has none', () => {
    for (const row of rows.filter((r) => r.catalog_municipio)) {
      const parsed = parseAddress(client, `${row.municipio}, ${row.estado}, C.P. ${row.cp}`);
      expect(parsed, row.municipio).toMatchObject({ cp: row.cp, municipio: row.catalog_municipio, valid: true });
      expect(parsed.read, row.municipio).toContain('municipio');
    }
    // Public addresses without a code (cpmx search index files 40849018984 and 14967736266).
    expect(parseAddress(client, 'Lauro Badillo Diaz #420, Col. Brisas de Chapala, Tlaquepaque, Jalisco')).toMatchObject({
      cp: '45590',
      municipio: 'San Pedro Tlaquepaque',
      asentamiento: 'Brisas de Chapala',
    });
    expect(validateAddress(client, { asentamiento: 'Brisas de Chapala', municipio: 'Tlaquepaque', estado: 'Jalisco' }).suggestions.cp).toBe('45590');
    // CDMX street markets, without codes (https://github.com/Antonio072/tianguis-cdmx/blob/ee50cea27b887fdf9167ebeec205305eaa4b3efa/src/data/tianguis.js).
    expect(validateAddress(client, { asentamiento: 'COLONIA HUAYATLA', municipio: 'MAGDALENA CONTRERAS', estado: 'CDMX' }).suggestions.cp).toBe('10360');
    expect(validateAddress(client, { asentamiento: 'COL. EL OCOTAL', municipio: 'MAGDALENA CONTRERAS', estado: 'CDMX' }).suggestions.cp).toBe('10630');
    // Before, `Tlalnepantla` was read as a settlement, and a code of another municipality was suggested.
    expect(parseAddress(client, 'Av. San Juan Ixhuatepec S/N, Tlalnepantla, Estado de México, C.P. 54180')).toMatchObject({
      municipio: 'Tlalnepantla de Baz',
      valid: true,
      suggestions: {},
    });
  });
});

describe('a state’s name written for a municipality or a city', () => {
  // Oaxaca's labour conciliation centre, `Bustamante 500, Centro, 68000 Oaxaca, Oax.` (cpmx search index file
  // 41299881318), and the Benito Juárez market, `Centro, 68000 Oaxaca, Oax.` (file 24998244405): the city's people
  // write *Oaxaca de Juárez* as `Oaxaca`, which a record's municipality or city field cannot mean as the state.
  it('is the municipality that has it short, one of the code’s state, in those fields only', () => {
    for (const record of [{ municipio: 'Oaxaca' }, { ciudad: 'Oaxaca' }, { municipio: 'OAXACA', ciudad: 'OAXACA' }]) {
      expect(validateAddress(client, { cp: '68000', estado: 'Oax.', ...record }), JSON.stringify(record)).toMatchObject({ valid: true, errors: [] });
    }
    const result = validateAddress(client, { cp: '68000', municipio: 'Oaxaca', estado: 'Oax.' });
    expect(validatorFor(client).fix('68000', '', 'Oaxaca', 'Oax.', '', result, true).changes.municipio).toBe('Oaxaca de Juárez');
    // Another municipality of the state is not named so (Santa Lucía del Camino, a suburb of the city).
    expect(validateAddress(client, { cp: '71240', municipio: 'Oaxaca', estado: 'Oaxaca' }).errors.map((error) => error.code_error)).toEqual([121]);
    // `Tlaxcala` is a municipality as written: never *Santa Cruz Tlaxcala*.
    expect(validateAddress(client, { cp: '90640', municipio: 'Tlaxcala', estado: 'Tlaxcala' }).errors.map((error) => error.code_error)).toEqual([121]);
    // A one-line address reads a state's name as the state, as before.
    expect(shortenedMunicipality(catalog, 'Oaxaca', findState(catalog, 'Oaxaca'))).toEqual([]);
    expect(parseAddress(client, 'Bustamante 500, Centro, 68000 Oaxaca, Oax.')).toMatchObject({ cp: '68000', estado: 'Oaxaca', municipio: 'Oaxaca de Juárez', valid: true });
  });
});

describe('names with a part in parentheses', () => {
  // CESI offices (https://github.com/yurhii/myshpprocessing/blob/5fe903f8e7505dc2bbeb2065acebcb67c3e46b67/export/sqls/cesis.sql)
  // and a fire station (https://github.com/Origenlab/FIREFIGHTER/blob/74040942bc1029d7ae1336b159d9d6813bea96be/src/content/stations/sonora/cuerpo-bomberos-cajeme-central.md).
  it('read a downtown named after its place without the part (Ciudad Obregón Centro (Fundo Legal) is Centro), and a city by its name or its part', () => {
    expect(validateAddress(client, { cp: '85000', asentamiento: 'CENTRO', municipio: 'CAJEME', estado: 'SONORA', ciudad: 'CIUDAD OBREGON' })).toMatchObject({ valid: true, errors: [] });
    expect(validateAddress(client, { asentamiento: 'Centro', municipio: 'Cajeme', estado: 'Sonora' }).suggestions.cp).toBe('85000');
    // The catalog's city of 70000 is `Juchitán (Juchitán de Zaragoza)`; its municipality Heroica Ciudad de Juchitán de Zaragoza.
    expect(validateAddress(client, { cp: '70000', municipio: 'JUCHITAN DE ZARAGOZA', estado: 'OAXACA', ciudad: 'JUCHITAN DE ZARAGOZA' })).toMatchObject({ valid: true, errors: [] });
    expect(validateAddress(client, { cp: '70000', ciudad: 'Juchitán' })).toMatchObject({ valid: true, errors: [] });
    // A settlement's part alone still names nothing (`Centro` is not *Los Laureles (Centro)* of 58350), unless
    // the name is a downtown in other words: Los Mochis' *Primer Cuadro (Centro)* is `Centro`.
    expect(validateAddress(client, { cp: '58350', asentamiento: 'Centro' }).errors.map((error) => error.code_error)).toEqual([122]);
    expect(validateAddress(client, { cp: '81200', asentamiento: 'CENTRO', municipio: 'AHOME', estado: 'SINALOA', ciudad: 'LOS MOCHIS' })).toMatchObject({ valid: true, errors: [] });
  });
});

describe('which short forms name a municipality', () => {
  it('cuts at a `de`, and sets aside a title or a saint with the saint’s name, never leaving a state, an article or a short word', () => {
    expect(shortenedKeys('ecatepec de morelos')).toEqual(['ecatepec']);
    expect(shortenedKeys('san pedro tlaquepaque')).toEqual(['tlaquepaque']);
    expect(shortenedKeys('heroica ciudad de ejutla de crespo')).toEqual(['heroica ciudad de ejutla', 'ejutla de crespo', 'ejutla']);
    expect(shortenedKeys('villa de alvarez')).toEqual(['alvarez']);
    expect(shortenedKeys('san nicolas de los garza')).toEqual(['san nicolas']);
    expect(shortenedKeys('general escobedo')).toEqual(['escobedo']);
    // Before an honour too (`cuna de`): Dolores Hidalgo (test/fixtures/settlement-readings.csv has a real record).
    expect(shortenedKeys('dolores hidalgo cuna de la independencia nacional')).toContain('dolores hidalgo');
    expect(shortenedKeys('dolores hidalgo cuna de la independencia nacional')).not.toContain('dolores');
    expect(shortenedKeys('san lucas')).toEqual([]);
    expect(shortenedKeys('san felipe del progreso')).toEqual(['san felipe']);
    expect(shortenedKeys('villa guerrero', new Set(['guerrero']))).toEqual([]);
    // Without its article, a name of two words or more; one word left is no name of its own.
    expect(shortenedKeys('la magdalena contreras')).toEqual(['magdalena contreras']);
    expect(shortenedKeys('los reyes de juarez')).toEqual(['reyes de juarez']);
    expect(shortenedKeys('el salto')).toEqual([]);
    expect(shortenedKeys('la paz')).toEqual([]);
  });

  it('names the one municipality of the state that has it, and none where a name is a municipality as written or several have it', () => {
    const mexico = findState(catalog, 'México');
    const puebla = findState(catalog, 'Puebla');
    const nuevoLeon = findState(catalog, 'Nuevo León');
    expect(shortenedMunicipality(catalog, 'Ecatepec', mexico)).toEqual([municipality('Ecatepec de Morelos', 'México')]);
    expect(shortenedMunicipality(catalog, 'Mpio. de Ecatepec', mexico)).toEqual([municipality('Ecatepec de Morelos', 'México')]);
    expect(shortenedMunicipality(catalog, 'Escobedo', nuevoLeon)).toEqual([municipality('General Escobedo', 'Nuevo León')]);
    // Coahuila has an Escobedo of its own: without a state, the name is that one as written.
    expect(shortenedMunicipality(catalog, 'Escobedo')).toEqual([]);
    expect(shortenedMunicipality(catalog, 'Tlaquepaque')).toEqual([municipality('San Pedro Tlaquepaque', 'Jalisco')]);
    expect(shortenedMunicipality(catalog, 'Cholula', puebla)).toEqual([]);
    expect(shortenedMunicipality(catalog, 'Atizapán', mexico)).toEqual([]);
    expect(shortenedMunicipality(catalog, 'Cuautitlán', mexico)).toEqual([]);
    expect(shortenedMunicipality(catalog, 'Guerrero', mexico)).toEqual([]);
    expect(shortenedMunicipality(catalog, 'Ecatepec', puebla)).toEqual([]);
  });

  it('holds for every municipality: a short form unique in its state names it, and no municipality’s own name is read short', () => {
    const byState = new Map<string, number[]>();
    for (let m = 0; m < catalog.municipalityCount; m++) {
      const state = catalog.stateOfMunicipality(m);
      for (const short of shortenedKeys(nameKey(catalog.nameOfMunicipality(m)))) {
        const key = `${state}|${short}`;
        byState.set(key, [...(byState.get(key) ?? []), m]);
      }
    }
    let named = 0;
    for (let m = 0; m < catalog.municipalityCount; m++) {
      const state = catalog.stateOfMunicipality(m);
      expect(shortenedMunicipality(catalog, catalog.nameOfMunicipality(m), state), catalog.nameOfMunicipality(m)).toEqual([]);
      for (const short of shortenedKeys(nameKey(catalog.nameOfMunicipality(m)))) {
        const found = shortenedMunicipality(catalog, short, state);
        const asWritten = findMunicipalities(catalog, short, state).length > 0;
        if (byState.get(`${state}|${short}`)!.length === 1 && !asWritten && found.length) {
          expect(found, short).toEqual([m]);
          named++;
        } else expect(found.includes(m) && byState.get(`${state}|${short}`)!.length > 1, short).toBe(false);
      }
    }
    expect(named).toBeGreaterThan(500);
  });
});

describe('the contract', () => {
  it('answers a short form as before: the router reads names as written and in their listed forms only', () => {
    const state = findState(catalog, 'México');
    expect(findMunicipalities(catalog, 'Ecatepec', state)).toEqual([]);
    expect(client.query('/query/get_cp_por_municipio/Ecatepec')).toMatchObject({ status: 404, body: { error: true, code_error: 115 } });
    expect(client.query('/query/get_cp_por_municipio/Ecatepec%20de%20Morelos')).toMatchObject({ status: 200, body: { error: false } });
  });

  it('keeps its answer for a name with its punctuation changed, which addresses are read by', () => {
    // Vehicle-inspection centres without codes (https://github.com/Alfull/VerificacionVehicular/blob/06127d8ab322fcf51495d5f5e1351e9a3d033a15/Resources/verificentros.js):
    // 8 of those of Gustavo A. Madero write it without its dot.
    const cdmx = findState(catalog, 'Ciudad de México');
    expect(findMunicipalities(catalog, 'GUSTAVO A MADERO', cdmx)).toEqual([]);
    expect(client.query('/query/get_cp_por_municipio/GUSTAVO%20A%20MADERO')).toMatchObject({ status: 404, body: { error: true } });
    const named = (asentamiento: string) => validateAddress(client, { asentamiento, municipio: 'GUSTAVO A MADERO', estado: 'DISTRITO FEDERAL' }).suggestions.cp;
    expect(named('3 ESTRELLAS')).toBe('07820');
    expect(named('GRANJAS MODERNAS')).toBe('07460');
    expect(named('JORGE NEGRETE')).toBe('07280');
    expect(validateAddress(client, { cp: '07820', asentamiento: 'Tres Estrellas', municipio: 'GUSTAVO A MADERO' }).valid).toBe(true);
    // A municipality of another state so keyed is none of this one's (below too).
    expect(validateAddress(client, { asentamiento: 'Centro', municipio: 'GUSTAVO A MADERO', estado: 'Jalisco' }).suggestions.cp).toBeUndefined();
  });

  it('keeps its answer for a municipality written by its city, which addresses are read by as cpmx parse reads them', () => {
    // A contract's page (cpmx search index file 58546150955): `C.P. 50225, San Miguel Totoltepec, Toluca de Lerdo, Estado de México`.
    const line = 'Circuito Alfonso G. de Orozco, Manzana 007, C.P. 50225, San Miguel Totoltepec, Toluca de Lerdo, Estado de México';
    expect(parseAddress(client, line)).toMatchObject({ municipio: 'Toluca', valid: true });
    const record = { cp: '50225', asentamiento: 'San Miguel Totoltepec', municipio: 'Toluca de Lerdo', estado: 'Estado de México' };
    expect(validateAddress(client, record)).toMatchObject({ valid: true, errors: [] });
    expect(validatorFor(client).fix(record.cp, record.asentamiento, record.municipio, record.estado, '', validateAddress(client, record), true).changes).toMatchObject({ municipio: 'Toluca' });
    expect(validateAddress(client, { ...record, cp: '' }).suggestions.cp).toBe('50225');
    // Ciudad Adolfo López Mateos lies in Atizapán de Zaragoza alone; Ciudad de México in 16 alcaldías, so it names none of them.
    const errorsOf = (record: Record<string, string>) => validateAddress(client, record).errors.map((error) => error.code_error);
    expect(errorsOf({ cp: '52900', municipio: 'Ciudad Adolfo López Mateos' })).toEqual([]);
    expect(errorsOf({ cp: '06700', asentamiento: 'Roma Norte', municipio: 'Ciudad de México' })).toEqual([121]);
    // A city whose name is a short form only of other states' municipalities (*San Felipe del
    // Progreso*, *San Felipe Orizatlán*, ...) is still its municipality's: San Felipe is Mexicali's.
    expect(errorsOf({ cp: '21850', asentamiento: 'Playas de San Felipe', municipio: 'San Felipe', estado: 'Baja California' })).toEqual([]);
    // One that is also a short form of a municipality of its own state names that one: `Lagunas` is
    // *San Andrés Lagunas*, not the city Lagunas of El Barrio de la Soledad (70380).
    expect(errorsOf({ cp: '70380', municipio: 'Lagunas', estado: 'Oaxaca' })).toEqual([121]);
    // The contract's lookups answer as before.
    expect(client.query('/query/get_cp_por_municipio/Toluca%20de%20Lerdo')).toMatchObject({ status: 404, body: { error: true } });
  });
});
