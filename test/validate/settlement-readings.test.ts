/**
 * Settlements written otherwise than the catalog writes them, on the real catalog: without (or
 * with) the joining words of the name (`Granjas San Antonio` for *Granjas de San Antonio*),
 * without the section of a place divided into sections (`Lomas de Chapultepec`), and a town written by its place's name without its surname (`Tepetlaoxtoc` for the Pueblo
 * *Tepetlaoxtoc de Hidalgo*). Real records from public files (test/fixtures/settlement-readings.csv,
 * each with its source) are valid and `--canonical` writes the catalog's name; a reading never
 * takes a name that is another code's settlement of the municipality as written.
 * The catalog is built from ../shared/data/sepomex (these tests fail, never skip, without it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CpmxClient } from '../../src/index.js';
import { parseAddress, validateAddress } from '../../src/validate/index.js';
import { validatorFor } from '../../src/validate/address.js';
import { catalogOf } from '../../src/client/client.js';
import { placeFinderOf } from '../../src/parse/places.js';
import { buildRealCatalog, realCatalogPath, root, tempDir } from '../helpers.js';

const dir = tempDir();
let client: CpmxClient;

beforeAll(async () => ({ client } = await buildRealCatalog(dir, 'settlement-readings-test')));

interface Row {
  cp: string;
  asentamiento: string;
  municipio: string;
  estado: string;
  ciudad: string;
  catalog_asentamiento: string;
  source: string;
}

const rows = parseCsv(readFileSync(join(root, 'test', 'fixtures', 'settlement-readings.csv')), { columns: true }) as Row[];

/** The errors' codes of a record. */
const errorsOf = (record: Record<string, string>) => validateAddress(client, record).errors.map((error) => error.code_error);

describe('real records that write a settlement otherwise', () => {
  it('are valid, and --canonical writes the catalog name', () => {
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const row of rows) {
      expect(row.source, row.cp).toMatch(/github\.com|cpmx search index/);
      const record = { cp: row.cp, asentamiento: row.asentamiento, municipio: row.municipio, estado: row.estado, ciudad: row.ciudad };
      const result = validateAddress(client, record);
      expect(result, `${row.asentamiento} ${row.cp}`).toMatchObject({ valid: true, errors: [] });
      const fix = validatorFor(client).fix(row.cp, row.asentamiento, row.municipio, row.estado, row.ciudad, result, true);
      // A name that is several of the code's settlements without their sections has no one spelling: kept as written.
      expect(fix.changes.asentamiento, row.asentamiento).toBe(row.catalog_asentamiento || undefined);
    }
  });

  it('are read by cpmx parse into the catalog spelling', () => {
    // The one-line addresses of the first and third records, as their sources write them.
    expect(parseAddress(client, 'Calzada Ermita Iztapalapa No. 780, Col. Granjas San Antonio, Delegación Iztapalapa C.P. 09070')).toMatchObject({
      cp: '09070',
      asentamiento: 'Granjas de San Antonio',
      municipio: 'Iztapalapa',
      valid: true,
    });
    expect(parseAddress(client, 'Av. Tlalpan No. 2754, Col. Prados Coyoacán, Coyoacán, CDMX, C.P. 04810')).toMatchObject({ asentamiento: 'Prados de Coyoacán', valid: true });
  });
});

describe('a validator that has read many codes', () => {
  it('reads a code’s names the same after letting its matcher go, and when its code comes back (it keeps the last few, and more of codes read again)', () => {
    const records = rows.map((row) => ({ cp: row.cp, asentamiento: row.asentamiento, municipio: row.municipio, estado: row.estado, ciudad: row.ciudad }));
    const before = records.map((record) => validateAddress(client, record));
    // Names of many other codes that only a matcher reads (a type in front of no name of theirs), so each code makes one;
    // read three times, so that codes come back after their matchers were let go, and are kept longer.
    const codes = (client.searchCp('0') as { response: { cp: string[] } }).response.cp.slice(0, 64);
    for (let round = 0; round < 3; round++) {
      for (const cp of codes) expect(validateAddress(client, { cp, asentamiento: 'Fracc. Zzyzx Qwerty' }).valid, cp).toBe(false);
      expect(records.map((record) => validateAddress(client, record))).toEqual(before);
    }
    expect(before.every((result) => result.valid)).toBe(true);
  });
});

describe('joining words', () => {
  it('are read both ways, by the one settlement of the code that fits', () => {
    expect(errorsOf({ cp: '14270', asentamiento: 'LA PRIMAVERA' })).toEqual([]);
    expect(errorsOf({ cp: '04450', asentamiento: 'Centinela' })).toEqual([]);
    expect(errorsOf({ cp: '07630', asentamiento: 'San José la Escalera' })).toEqual([]);
    // A word that is no joining word still counts: a typo is still 122, with the nearest name suggested.
    const typo = validateAddress(client, { cp: '09070', asentamiento: 'Granjas San Antoni' });
    expect(typo.errors.map((error) => error.code_error)).toEqual([122]);
    expect(typo.suggestions.asentamiento).toBe('Granjas de San Antonio');
  });

  it('are read by codes from names too, where no settlement of the place has the name as written', () => {
    // CDMX street markets, without codes (https://github.com/Antonio072/tianguis-cdmx/blob/ee50cea27b887fdf9167ebeec205305eaa4b3efa/src/data/tianguis.js).
    const suggested = (asentamiento: string, municipio: string) => validateAddress(client, { asentamiento, municipio, estado: 'CDMX' }).suggestions.cp;
    expect(suggested('GRANJAS SAN ANTONIO', 'IZTAPALAPA')).toBe('09070');
    expect(suggested('COL. LA PRIMAVERA', 'TLALPAN')).toBe('14270');
    expect(suggested('SAN JOSE LA ESCALERA', 'GUSTAVO A. MADERO')).toBe('07630');
    expect(suggested('EXHIPODRÒMO PERALVILLO', 'CUAUHTÉMOC')).toBe('06250');
    // The type word in front read as part of the name too, where the name without it names none
    // (a vehicle-inspection centre: Alfull/VerificacionVehicular, test/validate/shortened-municipalities.test.ts).
    expect(suggested('EXHACIENDA DE COAPA', 'COYOACAN')).toBe('04980');
    // An ampliación written first, as people write it, where the catalog writes it after its place (*Santiago Acahualtepec 1ra. Ampliación*).
    expect(suggested('PRIMERA AMPLIACIÓN DE SANTIAGO ACAHUALTEPEC', 'IZTAPALAPA')).toBe('09608');
    expect(suggested('2DA AMPLIACION DE SANTIAGO ACAHUALTEPEC', 'IZTAPALAPA')).toBe('09609');
    expect(errorsOf({ cp: '09609', asentamiento: '2a. Ampliación Santiago Acahualtepec', municipio: 'Iztapalapa' })).toEqual([]);
    // The place itself is no ampliación of it: the Pueblo, 09600.
    expect(suggested('SANTIAGO ACAHUALTEPEC', 'IZTAPALAPA')).toBe('09600');
    expect(errorsOf({ cp: '09608', asentamiento: 'Ampliación Santiago Acahualtepec' })).toEqual([122]);
    // Nor is the place suggested for its ampliación (DENUE's Isthmus, capas/manufacturas/EquipoTransporMenos10.js: AMPLIACION FRANCISCO VILLA,
    // 96020, which has only *Francisco Villa*): --fix would move the record to another place.
    for (const asentamiento of ['AMPLIACION FRANCISCO VILLA', 'Amp. Francisco Villa']) {
      expect(validateAddress(client, { cp: '96020', asentamiento }).suggestions, asentamiento).toEqual({});
    }
    expect(validateAddress(client, { cp: '01296', asentamiento: 'Amp. Jalalpa Tepito' }).suggestions).toEqual({});
    // Nor is the place's code found from the names of its ampliación, with no code or another
    // (an office of Xalapa writes `FRACCTO. AMPLIACIÓN JARDINES DE LAS ÁNIMAS, ... C.P. 91190`:
    // 91196 is *Jardines de Las Ánimas*, no ampliación); a catalog ampliación still is (`Amp. Granada`).
    expect(validateAddress(client, { cp: '91190', asentamiento: 'Ampliación Jardines de las Ánimas', municipio: 'Xalapa', estado: 'Veracruz' }).suggestions).toEqual({});
    expect(validateAddress(client, { asentamiento: 'AMPLIACION FRANCISCO VILLA', municipio: 'Coatzacoalcos', estado: 'Veracruz' }).codes).toBeUndefined();
    expect(suggested('Ampliación San Ángel', 'Álvaro Obregón')).toBeUndefined();
    expect(suggested('Amp. Granada', 'Miguel Hidalgo')).toBe('11529');
    // An ampliación misspelt is still suggested as itself (01296's *Ampliación Jalalpa*).
    expect(validateAddress(client, { cp: '01296', asentamiento: 'Ampliacion Jalalpha' }).suggestions).toEqual({ asentamiento: 'Ampliación Jalalpa' });
    // As written first: Azcapotzalco's Providencia and La Providencia are two codes.
    expect(suggested('La Providencia', 'Azcapotzalco')).toBe('02750');
    expect(suggested('Providencia', 'Azcapotzalco')).toBe('02440');
    // A one-line address of a store list without a code (cpmx search index file 55554954475).
    expect(parseAddress(client, 'Av. Año de Juárez Loc M, esquina Ermita Iztapalapa, Col. Granjas San Antonio, Iztapalapa')).toMatchObject({
      cp: '09070',
      asentamiento: 'Granjas de San Antonio',
    });
  });

  it('never take a name that is another code’s settlement of the municipality as written: the code is in doubt', () => {
    // Azcapotzalco has Providencia (02440) and La Providencia (02750).
    const providencia = validateAddress(client, { cp: '02440', asentamiento: 'La Providencia', municipio: 'Azcapotzalco', estado: 'Ciudad de México' });
    expect(providencia.errors.map((error) => error.code_error)).toEqual([122]);
    expect(providencia.suggestions.cp).toBe('02750');
    // Victoria has Pajaritos (87086) and Barrio de Pajaritos (87089): a type set aside is no reading either.
    const pajaritos = validateAddress(client, { cp: '87086', asentamiento: 'Barrio de Pajaritos', municipio: 'Victoria', estado: 'Tamaulipas' });
    expect(pajaritos.errors.map((error) => error.code_error)).toEqual([122]);
    expect(pajaritos.suggestions.cp).toBe('87089');
    // Azcapotzalco's El Rosario (02100) and Exhacienda El Rosario (02420).
    expect(validateAddress(client, { cp: '02100', asentamiento: 'Exhacienda El Rosario', municipio: 'Azcapotzalco', estado: 'CDMX' }).suggestions.cp).toBe('02420');
  });

  it('are asked of the name after a type written in front too, when the code reads the name otherwise', () => {
    // INEGI's DENUE records of the Isthmus (https://github.com/Laura930720/MapaItsmo/blob/4a5138c6be111e21db3e9f8a723eae835dfbc506/capas/manufacturas11masempleados.js,
    // capas/manufacturas/EquipoTransporMenos10.js; tipo_asent COLONIA, nomb_asent NUEVA MINA, cod_postal 96729): 96760's *Nueva Mina*
    // is the name; 96729 has *Nueva Mina Sur* only. With or without the type, the same answer.
    for (const asentamiento of ['NUEVA MINA', 'COLONIA NUEVA MINA']) {
      const mina = validateAddress(client, { cp: '96729', asentamiento, municipio: 'Minatitlán', estado: 'Veracruz' });
      expect(mina.errors.map((error) => error.code_error), asentamiento).toEqual([122]);
      expect(mina.suggestions.cp, asentamiento).toBe('96760');
    }
    // A name another code is only read by too takes nothing (capas/manufacturas/FabriMueblesMenos10.js: CENTRO, 95865):
    // 95865's town is Hueyapan de Ocampo, though 95850's *Juan Díaz Covarrubias Centro* is read by `Centro` as well.
    expect(errorsOf({ cp: '95865', asentamiento: 'CENTRO', municipio: 'Hueyapan de Ocampo', estado: 'Veracruz' })).toEqual([]);
    expect(errorsOf({ cp: '95865', asentamiento: 'Col. Centro', municipio: 'Hueyapan de Ocampo', estado: 'Veracruz' })).toEqual([]);
    // A type word of the catalog's name is no type set aside: Aguascalientes has a San Francisco of its own, but this is the park.
    expect(errorsOf({ cp: '20355', asentamiento: 'Industrial San Francisco' })).toEqual([]);
  });

  it('take the name when the type written is the settlement’s own: people write Col. in front of every colonia', () => {
    // 83403's Del Río is a Colonia; 83515 has a settlement named Colonia del Río. Tehuacán: 75750's San Lorenzo and 75758's Ex-Hacienda San Lorenzo.
    expect(errorsOf({ cp: '83403', asentamiento: 'COL Del Río', municipio: 'San Luis Río Colorado', estado: 'Son.' })).toEqual([]);
    expect(errorsOf({ cp: '75750', asentamiento: 'Ex-Hda. San Lorenzo', municipio: 'Tehuacán', estado: 'Puebla' })).toEqual([]);
    expect(errorsOf({ cp: '87086', asentamiento: 'Col. Pajaritos', municipio: 'Victoria', estado: 'Tamaulipas' })).toEqual([]);
  });
});

describe('a place divided into sections', () => {
  it('is named without its section, by the code that has its sections, or the codes', () => {
    // Escandón I and II Sección are both 11800; Lindavista Norte and Sur both 07300; Del Valle Centro is 03100.
    expect(errorsOf({ cp: '11800', asentamiento: 'ESCANDON' })).toEqual([]);
    expect(errorsOf({ cp: '07300', asentamiento: 'Lindavista' })).toEqual([]);
    expect(errorsOf({ cp: '03100', asentamiento: 'Del Valle' })).toEqual([]);
    // A number alone is no section: Mirador I is not Mirador.
    expect(errorsOf({ cp: '14748', asentamiento: 'Mirador' })).toEqual([122]);
    // CDMX street markets, without codes (https://github.com/Antonio072/tianguis-cdmx/blob/ee50cea27b887fdf9167ebeec205305eaa4b3efa/src/data/tianguis.js).
    const named = (asentamiento: string, municipio: string) => validateAddress(client, { asentamiento, municipio, estado: 'CDMX' });
    expect(named('LOMAS DE CHAPULTEPEC', 'MIGUEL HIDALGO').suggestions.cp).toBe('11000');
    expect(named('LEYES DE REFORMA', 'IZTAPALAPA').suggestions.cp).toBe('09310');
    // Portales Sur, Norte and Oriente are three codes: listed, none suggested.
    expect(named('PORTALES', 'BENITO JUÁREZ')).toMatchObject({ suggestions: {}, codes: ['03300', '03303', '03570'] });
    // Sections named by words: San Miguel Teotongo's 15 (Sección Guadalupe, Sección Palmitas, ...) are all 09630.
    expect(named('SAN MIGUEL TEOTONGO', 'IZTAPALAPA').suggestions.cp).toBe('09630');
    expect(errorsOf({ cp: '09630', asentamiento: 'San Miguel Teotongo' })).toEqual([]);
    // Playas de Tijuana is a settlement of its own (22517) besides its named sections: the name is read as itself.
    expect(validateAddress(client, { asentamiento: 'Playas de Tijuana', municipio: 'Tijuana', estado: 'BC' }).suggestions.cp).toBe('22517');
  });

  it('is read without a section the catalog does not have, where it does not divide the place', () => {
    // Street markets without codes (tianguis-cdmx, above): the catalog has Lomas Estrella, Garcimarrero and 1a Victoria undivided.
    const named = (asentamiento: string, municipio: string) => validateAddress(client, { asentamiento, municipio, estado: 'CDMX' });
    expect(named('LOMAS ESTRELLA 2A SECCIÓN', 'IZTAPALAPA').suggestions.cp).toBe('09890');
    expect(named('LOMAS ESTRELLA 1RA SECCIÓN', 'IZTAPALAPA').suggestions.cp).toBe('09890');
    expect(named('GARCIMARRERO SECC. NORTE', 'ÁLVARO OBREGÓN').suggestions.cp).toBe('01510');
    expect(named('1RA. VICTORIA SECC. BOSQUES', 'ÁLVARO OBREGÓN').suggestions.cp).toBe('01160');
    expect(parseAddress(client, 'Col. Lomas Estrella 2a. Sección, Iztapalapa, CDMX')).toMatchObject({ cp: '09890', suggestions: { asentamiento: 'Lomas Estrella' } });
    // A section the catalog lacks of a place it divides is no guess at another section: Olivar del Conde has a 1a and a 2a.
    expect(named('OLIVAR DEL CONDE 3A SECCIÓN', 'ÁLVARO OBREGÓN').suggestions.cp).toBeUndefined();
    // A cardinal point alone is no section named as one: Hermosillo's Jardines (83113) and Los Jardines (83300) are no Jardines del Sur, which it lacks.
    const inHermosillo = (asentamiento: string) => validateAddress(client, { asentamiento, municipio: 'Hermosillo', estado: 'Sonora' });
    expect(inHermosillo('Jardines del Sur')).toMatchObject({ suggestions: {} });
    expect(inHermosillo('Jardines del Sur').codes).toBeUndefined();
    expect(inHermosillo('Jardines Sección Sur')).toMatchObject({ suggestions: {}, codes: ['83113', '83300'] });
    expect(inHermosillo('Jardines de Mónaco 2a Sección').suggestions.cp).toBe('83288');
    // A code written is judged, never replaced: the catalog's name is suggested for it.
    expect(validateAddress(client, { cp: '09890', asentamiento: 'LOMAS ESTRELLA 2A SECCIÓN', municipio: 'IZTAPALAPA', estado: 'CDMX' }).suggestions).toEqual({ asentamiento: 'Lomas Estrella' });
  });
});

describe('a title or Unidad in front of the catalog’s name', () => {
  it('is read as left out, and a saint is not', () => {
    expect(errorsOf({ cp: '15000', asentamiento: 'IGNACIO ZARAGOZA' })).toEqual([]);
    expect(errorsOf({ cp: '02500', asentamiento: 'U.H. CUITLAHUAC' })).toEqual([]);
    expect(errorsOf({ cp: '09220', asentamiento: 'EJERCITO CONSTITUCIONALISTA' })).toEqual([]);
    // CDMX street markets, without codes (https://github.com/Antonio072/tianguis-cdmx/blob/ee50cea27b887fdf9167ebeec205305eaa4b3efa/src/data/tianguis.js).
    expect(validateAddress(client, { asentamiento: 'FELIPE BERRIOZABAL', municipio: 'GUSTAVO A. MADERO', estado: 'CDMX' }).suggestions.cp).toBe('07180');
    expect(validateAddress(client, { asentamiento: 'U. H. VICENTE GUERRERO', municipio: 'IZTAPALAPA', estado: 'CDMX' }).suggestions.cp).toBe('09200');
    // Santiago Atzacoalco, C.T.M. Atzacoalco and Nueva Atzacoalco are three places of Gustavo A. Madero: the market's
    // `UNIDAD HABITACIONAL ATZACOALCO` names none of them, and 07040's Santiago Atzacoalco is not `Atzacoalco`.
    expect(validateAddress(client, { asentamiento: 'UNIDAD HABITACIONAL ATZACOALCO', municipio: 'GUSTAVO A. MADERO', estado: 'CDMX' }).suggestions.cp).toBeUndefined();
    expect(errorsOf({ cp: '07040', asentamiento: 'Atzacoalco' })).toEqual([122]);
  });
});

describe('a long name written short', () => {
  it('is the one settlement of the code whose name begins with the words written, two or more', () => {
    // INEGI's DENUE records of the Isthmus (https://github.com/Laura930720/MapaItsmo/blob/4a5138c6be111e21db3e9f8a723eae835dfbc506/capas/manufacturas/IndusTabacoMenos10.js,
    // FabricMetalMenos10.js, IndusMaderaMenos10.js; capas/SubestacionEnergiaElectrica.js): people drop a person's surnames.
    expect(errorsOf({ cp: '96980', asentamiento: 'CARMEN ROMANO' })).toEqual([]); // Carmen Romano de López Portillo
    expect(errorsOf({ cp: '96344', asentamiento: 'CARLOS SALINAS' })).toEqual([]); // Carlos Salinas de Gortari
    expect(errorsOf({ cp: '96536', asentamiento: 'TERESA MORALES' })).toEqual([]); // Teresa Morales Delgado
    expect(errorsOf({ cp: '94293', asentamiento: 'GRACIANO SANCHEZ' })).toEqual([]); // Graciano Sánchez Romo
    expect(validatorFor(client).fix('96344', 'CARLOS SALINAS', '', '', '', validateAddress(client, { cp: '96344', asentamiento: 'CARLOS SALINAS' }), true).changes).toEqual({
      asentamiento: 'Carlos Salinas de Gortari',
    });
    // One word is too little to say which (96400's Coatzacoalcos Centro), and so is a name that begins several of the code's.
    expect(errorsOf({ cp: '96400', asentamiento: 'COATZACOALCOS' })).toEqual([122]);
    // Not where another code of the municipality has the name as written: San Andrés Tuxtla's San Isidro is 95813, not 95800's San Isidro Texcaltitán.
    expect(errorsOf({ cp: '95800', asentamiento: 'SAN ISIDRO' })).toEqual([122]);
    // Codes from names do not read it: across a municipality, the 2026 Chiapas file's names read so named the wrong code half the time.
    expect(validateAddress(client, { asentamiento: 'CARMEN ROMANO', municipio: 'Las Choapas', estado: 'Veracruz' }).suggestions.cp).toBeUndefined();
  });

  it('is the one settlement of the code whose name ends with the words written, one word left out in front', () => {
    // INEGI's DENUE records of the Isthmus (https://github.com/Laura930720/MapaItsmo/blob/4a5138c6be111e21db3e9f8a723eae835dfbc506/capas/manufacturas/FabricMetalMenos10.js,
    // IndusTabacoMenos10.js): people drop a person's first name.
    expect(errorsOf({ cp: '96490', asentamiento: 'LOPEZ MATEOS' })).toEqual([]); // Adolfo López Mateos
    expect(errorsOf({ cp: '70610', asentamiento: 'HIDALGO ORIENTE' })).toEqual([]); // Miguel Hidalgo Oriente
    // A Puebla office's page (cpmx search index file 62760627634): Col. San Manuel, the catalog's *Jardines de San Manuel*.
    expect(errorsOf({ cp: '72570', asentamiento: 'Col. San Manuel' })).toEqual([]);
    // The name written short at its start is read with a type in front too.
    expect(errorsOf({ cp: '96344', asentamiento: 'COLONIA CARLOS SALINAS' })).toEqual([]);
    // Not one word (*Agrícola Resurgimiento*), nor a section or a number first (*Buena Vista II*), nor a
    // saint left out (*San Ángel Inn*). (A part in parentheses is read as the place's other name: see below.)
    expect(errorsOf({ cp: '72370', asentamiento: 'Resurgimiento' })).toEqual([122]);
    expect(errorsOf({ cp: '30605', asentamiento: 'Vista II' })).toEqual([122]);
    expect(errorsOf({ cp: '01060', asentamiento: 'Ángel Inn' })).toEqual([122]);
    // Not where another code of the municipality has the name as its own: Iztacalco's Agrícola Oriental is 08500, not 08420's *Cuchilla Agrícola Oriental*.
    const oriental = validateAddress(client, { cp: '08420', asentamiento: 'Agrícola Oriental', municipio: 'Iztacalco', estado: 'CDMX' });
    expect(oriental.errors.map((error) => error.code_error)).toEqual([122]);
    expect(oriental.suggestions.cp).toBe('08500');
  });
});

describe('a section written by its ordinal alone', () => {
  it('is the code’s one settlement that is that section, as DENUE writes a section apart from its type', () => {
    // INEGI's DENUE records of the Isthmus (https://github.com/Laura930720/MapaItsmo/blob/4a5138c6be111e21db3e9f8a723eae835dfbc506/capas/manufacturas/FabriMueblesMenos10.js,
    // EquipoTransporMenos10.js): tipo_asent SECCION, nomb_asent PRIMERA, SEGUNDA, TERCERA for 70117 (*Primera*,
    // *Segunda*, *Tercera Sección*), OCTAVA for 70040 (*8va. Sección*).
    for (const ordinal of ['PRIMERA', 'SEGUNDA', 'TERCERA']) expect(errorsOf({ cp: '70117', asentamiento: ordinal }), ordinal).toEqual([]);
    expect(errorsOf({ cp: '70040', asentamiento: 'OCTAVA' })).toEqual([]);
    expect(errorsOf({ cp: '70020', asentamiento: '7A' })).toEqual([]);
    // A section the code has not, or a number alone, is none: 70000 has the 1a and 2a Sección.
    expect(errorsOf({ cp: '70000', asentamiento: 'CUARTA' })).toEqual([122]);
    expect(errorsOf({ cp: '70117', asentamiento: '1' })).toEqual([122]);
  });
});

describe('a settlement of two names', () => {
  it('is named by either, the catalog joining them with a slash', () => {
    // INEGI's DENUE records of the Isthmus (https://github.com/Laura930720/MapaItsmo/blob/4a5138c6be111e21db3e9f8a723eae835dfbc506/capas/ExtraccionyPerforacionPetrolera.js):
    // Villahermosa's Tabasco 2000, the catalog's *Galaxia/tabasco 2000*.
    expect(errorsOf({ cp: '86035', asentamiento: 'TABASCO 2000', municipio: 'CENTRO', estado: 'TABASCO' })).toEqual([]);
    expect(validateAddress(client, { asentamiento: 'TABASCO 2000', municipio: 'CENTRO', estado: 'TABASCO' }).suggestions.cp).toBe('86035');
    expect(validateAddress(client, { cp: '86000', asentamiento: 'Col. Tabasco 2000', municipio: 'Centro', estado: 'Tab.' }).suggestions.cp).toBe('86035');
    // A slash in a number joins no names: Cuauhtémoc's *Campo 9 1/2* (31604) is no `Campo 9`, a settlement of its own (31614).
    expect(errorsOf({ cp: '31604', asentamiento: 'Campo 9' })).toEqual([122]);
    expect(validateAddress(client, { asentamiento: 'Campo 9', municipio: 'Cuauhtémoc', estado: 'Chihuahua' }).suggestions.cp).toBe('31614');
  });
});

describe('a town written by its place’s name', () => {
  it('is the code’s town itself, with a code or without', () => {
    expect(errorsOf({ cp: '52600', asentamiento: 'Tianguistenco' })).toEqual([]);
    expect(errorsOf({ cp: '51350', asentamiento: 'Zinacantepec' })).toEqual([]);
    // Without a code: the municipality's town the catalog does not divide (Residencial Zinacantepec, 51354, is no town).
    expect(validateAddress(client, { asentamiento: 'Zinacantepec', municipio: 'Zinacantepec', estado: 'México' }).suggestions.cp).toBe('51350');
    expect(validateAddress(client, { asentamiento: 'TEPETLAOXTOC', municipio: 'TEPETLAOXTOC', estado: 'MEXICO' }).suggestions.cp).toBe('56070');
    // A code whose settlements hold no town: the municipality's name names none of them.
    expect(errorsOf({ cp: '51354', asentamiento: 'Zinacantepec de Morelos' })).toEqual([122]);
  });
});

describe('a title written in front, and railways written short', () => {
  it('read a name with a title the catalog’s has not, with a code or without', () => {
    // The fixture's 87020 record; the title is set aside as the catalog's own titles are (`looseFrontless`), a saint is not.
    expect(errorsOf({ cp: '87020', asentamiento: 'Dr. Norberto Treviño Zapata' })).toEqual([]);
    expect(validateAddress(client, { asentamiento: 'Dr. Norberto Treviño Zapata', municipio: 'Victoria', estado: 'Tamaulipas' }).suggestions.cp).toBe('87020');
    expect(errorsOf({ cp: '07040', asentamiento: 'Gral. Atzacoalco' })).toEqual([122]);
    // `FFCC` (ferrocarriles), `FFCCNN` (ferrocarriles nacionales), as the catalog itself writes some names.
    expect(errorsOf({ cp: '50070', asentamiento: 'Reforma y Ferrocarriles Nacionales' })).toEqual([]);
    expect(validateAddress(client, { asentamiento: 'Col. Reforma y FFCCNN', municipio: 'Toluca', estado: 'México' }).suggestions.cp).toBe('50070');
    expect(errorsOf({ cp: '54140', asentamiento: 'FFCC Cecilia Mora Viuda de Gómez' })).toEqual([]);
  });
});

describe('a downtown in other words, and the city that says which town', () => {
  // CESI offices (https://github.com/yurhii/myshpprocessing/blob/5fe903f8e7505dc2bbeb2065acebcb67c3e46b67/export/sqls/cesis.sql):
  // `CENTRO, AHOME, SINALOA, LOS MOCHIS, 81200`, whose one settlement is *Primer Cuadro (Centro)*.
  it('reads Primer Cuadro as Centro, both ways', () => {
    expect(errorsOf({ cp: '81200', asentamiento: 'Col. Centro' })).toEqual([]);
    expect(errorsOf({ cp: '81200', asentamiento: 'Primer Cuadro' })).toEqual([]);
    // `Primer Cuadro` is any code's downtown (64000's is *Monterrey Centro*); a code without one has none.
    expect(errorsOf({ cp: '64000', asentamiento: 'Primer Cuadro' })).toEqual([]);
    expect(errorsOf({ cp: '81254', asentamiento: 'Centro' })).toEqual([122]);
    // In Ahome it is also 81200's own name, so not Ahome's Centro (81315), which `Centro` is.
    expect(errorsOf({ cp: '81315', asentamiento: 'Primer Cuadro' })).toEqual([122]);
    expect(errorsOf({ cp: '81315', asentamiento: 'Centro' })).toEqual([]);
  });

  it('reads Centro de and its place as the place’s downtown, and Centro de anything else not', () => {
    // Vehicle inspection centres (https://github.com/Alfull/VerificacionVehicular/blob/06127d8ab322fcf51495d5f5e1351e9a3d033a15/Resources/verificentros.js):
    // centre TL903, `CENTRO DE TLALNEPANTLA DE BAZ, TLALNEPANTLA, ESTADO DE MEXICO`, without a code; 54000 is *Tlalnepantla Centro*.
    expect(validateAddress(client, { asentamiento: 'CENTRO DE TLALNEPANTLA DE BAZ', municipio: 'TLALNEPANTLA', estado: 'ESTADO DE MEXICO' }).suggestions.cp).toBe('54000');
    expect(errorsOf({ cp: '54000', asentamiento: 'Centro de Tlalnepantla' })).toEqual([]);
    expect(errorsOf({ cp: '64000', asentamiento: 'Centro de Monterrey' })).toEqual([]);
    // A town the catalog does not divide: Perote's Pueblo.
    expect(errorsOf({ cp: '91270', asentamiento: 'Centro de Perote' })).toEqual([]);
    // Other words after Centro are no place of the code: a clinic, another town.
    expect(errorsOf({ cp: '54000', asentamiento: 'Centro de Salud' })).toEqual([122]);
    expect(errorsOf({ cp: '54000', asentamiento: 'Centro de Naucalpan' })).toEqual([122]);
  });

  it('reads a name written with words left out between its first and its last, as a middle name is', () => {
    // `GENERAL ANAYA` for *General Pedro María Anaya* (a rental's client, the fixture); `Francisco Madero` for *Francisco I.
    // Madero*, a name of 78 settlements. Every word written must name (three letters or more, no number or section).
    expect(errorsOf({ cp: '03340', asentamiento: 'GENERAL ANAYA', municipio: 'BENITO JUÁREZ', estado: 'CDMX' })).toEqual([]);
    const written = { cp: '03340', asentamiento: 'Gral. Anaya', municipio: '', estado: '', ciudad: '' };
    const fix = validatorFor(client).fix(written.cp, written.asentamiento, '', '', '', validateAddress(client, written), true);
    expect(fix.changes.asentamiento).toBe('General Pedro María Anaya');
    expect(errorsOf({ cp: '21386', asentamiento: 'Col. Francisco Madero' })).toEqual([]);
    expect(errorsOf({ cp: '03340', asentamiento: 'Pedro Anaya' })).toEqual([122]);
  });

  it('suggests no city where the city written names a place of other codes, and --fix leaves such a record as it was', () => {
    // INEGI's DENUE writes the locality as the city: a barrio of Coacotla (cpmx search index file 39259373868) was moved by
    // --fix to Cosoleacaque's barrio Primero (96350) with its city replaced; Coacotla is a place of other codes.
    const coacotla = { cp: '96340', asentamiento: 'PRIMERO', municipio: 'Cosoleacaque', estado: 'Veracruz de Ignacio de la Llave', ciudad: 'Coacotla' };
    const result = validateAddress(client, coacotla);
    expect(result.valid).toBe(false);
    expect(result.suggestions.ciudad).toBeUndefined();
    expect(validatorFor(client).fix(coacotla.cp, coacotla.asentamiento, coacotla.municipio, coacotla.estado, coacotla.ciudad, result, false)).toMatchObject({ status: 'invalid', changes: {} });
    // `CENTRO` in Calería with Sihuapan's 95810 (DENUE): Sihuapan is not suggested for Calería, a place of its own.
    expect(validateAddress(client, { cp: '95810', asentamiento: 'CENTRO', municipio: 'San Andrés Tuxtla', ciudad: 'Calería' })).toMatchObject({ valid: false, suggestions: {} });
    // Read as settlements are (without its article): `Salto de Eyipantla` is 95805's *El Salto de Eyipantla*, and --fix
    // moved DENUE's `LA CONCEPCION` there to San Andrés Tuxtla's 95739 with its city replaced.
    expect(validateAddress(client, { cp: '95739', asentamiento: 'LA CONCEPCION', municipio: 'San Andrés Tuxtla', ciudad: 'Salto de Eyipantla' }).suggestions).toEqual({});
    // A city written as the municipality under another name is no such place: `Cajeme` is still Ciudad Obregón's 123.
    expect(validateAddress(client, { cp: '85000', municipio: 'Cajeme', estado: 'Sonora', ciudad: 'Cajeme' }).suggestions).toEqual({ ciudad: 'Ciudad Obregón' });
  });

  it('suggests no settlement whose numbers or side differ from the ones written, nor one of several as near', () => {
    // A number names a settlement (a section, a block, a date). A gas station's `Súper Manzana 200` (a PEMEX franchise list,
    // cpmx search index file 26809868712) is not *Supermanzana 4 A*, which --fix would have written.
    expect(validateAddress(client, { cp: '77500', asentamiento: 'Súper Manzana 200', municipio: 'Benito Juárez', estado: 'Quintana Roo' })).toMatchObject({ valid: false, suggestions: {} });
    expect(validateAddress(client, { cp: '15530', asentamiento: 'Moctesuma 3a Seccion' }).suggestions).toEqual({});
    expect(validateAddress(client, { cp: '15530', asentamiento: 'Moctesuma 2a Seccion' }).suggestions).toEqual({ asentamiento: 'Moctezuma 2a Sección' });
    // Written as an ordinal or in Roman numerals, a number is the same number. INEGI's DENUE (the Isthmus records of
    // Laura930720/MapaItsmo) writes `CHICHIHUA 1`, which had *Chichihua II* suggested.
    expect(validateAddress(client, { cp: '11320', asentamiento: 'Anahuak 1a Seccion' }).suggestions).toEqual({ asentamiento: 'Anáhuac I Sección' });
    expect(validateAddress(client, { cp: '96028', asentamiento: 'CHICHIHUA 1', municipio: 'Acayucan' }).suggestions).toEqual({});
    expect(validateAddress(client, { cp: '96028', asentamiento: 'CHICHIHUA I', municipio: 'Acayucan' }).suggestions).toEqual({});
    // A letter with its dot is an initial, not a number; a number misspelt into no number leaves the name's others to agree.
    expect(validateAddress(client, { cp: '86446', asentamiento: 'Francisco V. Mujica' }).suggestions).toEqual({ asentamiento: 'Francisco J. Mujica' });
    expect(validateAddress(client, { cp: '64106', asentamiento: 'San Bernabé XIE (F-109)' }).suggestions).toEqual({ asentamiento: 'San Bernabé XIV (F-109)' });
    // An ordinal word is its number: `LOS LAURELES PRIMERA SECCIN` (a broken accent, SEP's school catalog) is *Los Laureles 1a Secc*.
    expect(validateAddress(client, { cp: '38020', asentamiento: 'LOS LAURELES PRIMERA SECCIN' }).suggestions).toEqual({ asentamiento: 'Los Laureles 1a Secc' });
    // A side is kept as a number is: a hospital in `JALTEPEC DE ABAJO` (INEGI's DENUE, cpmx search index file 46426889989)
    // had *Jaltepec de Arriba* suggested; `Nuevo` and `Nueva` are one word.
    expect(validateAddress(client, { cp: '51860', asentamiento: 'JALTEPEC DE ABAJO', municipio: 'Almoloya de Alquisiras' }).suggestions).toEqual({});
    expect(validateAddress(client, { cp: '93904', asentamiento: 'Nuevo Reforma' }).suggestions).toEqual({ asentamiento: 'Nueva Reforma' });
    // Two names as near say nothing: `BLANCO Y CUELLAR` (SEP's school catalog, 59206390372) had *Blanco y Cuellar 3ra.*
    // suggested of three sections, `SAN FELIPE` (DENUE, 9370495440) *San Felipe V* of five.
    expect(validateAddress(client, { cp: '44730', asentamiento: 'BLANCO Y CUELLAR', municipio: 'GUADALAJARA' }).suggestions).toEqual({});
    expect(validateAddress(client, { cp: '31203', asentamiento: 'SAN FELIPE', municipio: 'Chihuahua' }).suggestions).toEqual({});
  });

  it('reads Centro as the downtown of the locality the city names, a settlement of the code, and not where the municipality has its own', () => {
    // INEGI's DENUE writes the settlement CENTRO and the locality as the city: *Suchilapan del Río* is 96970's Pueblo, though
    // Jesús Carranza's downtown is 96950's (a cadastral record, test/fixtures/settlement-readings.csv); *El Salto de
    // Eyipantla* 95805's Ranchería, written without its article. Each was a 122 with another code suggested.
    expect(validateAddress(client, { cp: '96970', asentamiento: 'CENTRO', municipio: 'Jesús Carranza', estado: 'Veracruz', ciudad: 'Suchilapan del Río' })).toMatchObject({ valid: true, suggestions: {} });
    expect(errorsOf({ cp: '95805', asentamiento: 'Col. Centro', municipio: 'San Andrés Tuxtla', ciudad: 'Salto de Eyipantla' })).toEqual([]);
    // Or the code has the locality's downtown by its name: *La Junta Centro* (31690) for `Centro` in La Junta, a town of
    // Guerrero, Chihuahua (the Culture Ministry's museum directory, the fixture), where Guerrero's downtown is 31680's.
    expect(validateAddress(client, { cp: '31690', asentamiento: 'Centro', municipio: 'Guerrero', estado: 'Chihuahua', ciudad: 'La Junta' })).toMatchObject({ valid: true });
    expect(validateAddress(client, { cp: '31690', asentamiento: 'Centro', municipio: 'Guerrero', estado: 'Chihuahua' })).toMatchObject({ valid: false, suggestions: { cp: '31680' } });
    // Named as the municipality, the locality is read so only where no other code of it has a downtown: Pajapan's seat,
    // which the catalog types Ranchería (DENUE, the fixture), with the city or without it.
    expect(errorsOf({ cp: '95960', asentamiento: 'CENTRO', municipio: 'Pajapan', estado: 'Veracruz', ciudad: 'Pajapan' })).toEqual([]);
    expect(errorsOf({ cp: '95960', asentamiento: 'Zona Centro', municipio: 'Pajapan', estado: 'Veracruz' })).toEqual([]);
    // A code whose one settlement is named as the place is that place, whatever its type: Oaxaca de Juárez's downtown is
    // 68000's Colonia *Oaxaca* (a restaurant's page, cpmx search index file 61432173061), El Verde's 82648's
    // Fraccionamiento *El Verde* (the Culture Ministry's museum directory, 8531155019; Concordia's 82600 was suggested).
    expect(errorsOf({ cp: '68000', asentamiento: 'Centro Histórico', municipio: 'Oaxaca de Juárez', estado: 'Oax.' })).toEqual([]);
    expect(errorsOf({ cp: '82648', asentamiento: 'Centro', municipio: 'Concordia', estado: 'Sinaloa', ciudad: 'El Verde' })).toEqual([]);
    // Jesús Carranza's downtown is 96950's: 96970 with the municipality's name is in doubt, and so is Ranchería
    // *Hermosillo* (83334) for Hermosillo's Centro (83000), and Ejido *Villa Victoria* (50986) for the town, Pueblo
    // *Villa Victoria* (50960).
    expect(validateAddress(client, { cp: '50986', asentamiento: 'Centro', municipio: 'Villa Victoria', estado: 'México' })).toMatchObject({ valid: false, suggestions: { cp: '50960' } });
    expect(validateAddress(client, { cp: '96970', asentamiento: 'Centro', municipio: 'Jesús Carranza', estado: 'Veracruz', ciudad: 'Jesús Carranza' })).toMatchObject({ valid: false, suggestions: { cp: '96950' } });
    expect(validateAddress(client, { cp: '83334', asentamiento: 'Centro', municipio: 'Hermosillo', estado: 'Sonora', ciudad: 'Hermosillo' })).toMatchObject({ valid: false, suggestions: { cp: '83000' } });
    // A locality that is no settlement of the code, or a settlement that is no downtown, is not read so.
    expect(errorsOf({ cp: '96970', asentamiento: 'Centro', municipio: 'Jesús Carranza', ciudad: 'Achotal' })).toEqual([122]);
    expect(errorsOf({ cp: '96970', asentamiento: 'El Mirador', municipio: 'Jesús Carranza', ciudad: 'Suchilapan del Río' })).toEqual([122]);
    // Among several settlements, a Colonia by the place's own name is its heart (the fixture: Concepción del Oro, Ometepec,
    // Ciudad Abasolo); a settlement named short of it, by a saint, or of another type is not (Naucalpan's Zona industrial
    // *Naucalpan*, 53370; Bacalar's Ranchería *San Felipe Bacalar*, 77936).
    expect(errorsOf({ cp: '53370', asentamiento: 'Centro', municipio: 'Naucalpan de Juárez', estado: 'México' })).toEqual([122]);
    expect(errorsOf({ cp: '77936', asentamiento: 'Centro', municipio: 'Bacalar', estado: 'Quintana Roo' })).toEqual([122]);
  });

  it('reads the part in parentheses as the settlement’s other name, not a part that says where in a place', () => {
    // The fixture: `UNIDAD HABITACIONAL CORDEMEX` is *Revolución (Cordemex)*; and without a code, Cordemex in Mérida names 97110.
    expect(validateAddress(client, { asentamiento: 'U.H. Cordemex', municipio: 'Mérida', estado: 'Yucatán' }).suggestions).toEqual({ cp: '97110' });
    // *Benito Juárez (Marcos Vélez)* of 94273 is Marcos Vélez too.
    expect(errorsOf({ cp: '94273', asentamiento: 'Marcos Vélez' })).toEqual([]);
    // `Norte` alone is no name of *Eduardo Ruiz (Norte)* (58149), nor `Área 1` of *Centro (Área 1)*.
    expect(errorsOf({ cp: '58149', asentamiento: 'Norte', municipio: 'Morelia', estado: 'Michoacán' })).toEqual([122]);
    expect(errorsOf({ cp: '06000', asentamiento: 'Área 1', municipio: 'Cuauhtémoc', estado: 'CDMX' })).toEqual([122]);
  });

  it('finds a code from names by a settlement’s own name before another’s other name in parentheses; two own names stay two codes', () => {
    // Valle de Santiago has the Granja *La Purísima* (38426) and *Familia Sosa Balderas (La Purísima)* (38425):
    // without a code, `La Purísima` is 38426's, by codes from names and by cpmx parse alike.
    expect(validateAddress(client, { asentamiento: 'La Purísima', municipio: 'Valle de Santiago', estado: 'Guanajuato' }).suggestions).toEqual({ cp: '38426' });
    expect(parseAddress(client, 'Calle Hidalgo 5, La Purísima, Valle de Santiago, Gto.')).toMatchObject({ cp: '38426', asentamiento: 'La Purísima', valid: true });
    expect(validateAddress(client, { asentamiento: 'El Puerto', municipio: 'Maravatío', estado: 'Michoacán' }).suggestions).toEqual({ cp: '61276' });
    // The code written that has the name as its other name is not judged by it: *San Miguel el Alto (El Puerto)* is 61270's.
    expect(errorsOf({ cp: '61270', asentamiento: 'El Puerto', municipio: 'Maravatío' })).toEqual([]);
    // *Guadalupe* (30187) and *Guadalupe (Las Flores)* (30188) are both Guadalupe by their own names: both listed, none suggested.
    expect(validateAddress(client, { asentamiento: 'Guadalupe', municipio: 'Las Margaritas', estado: 'Chiapas' })).toMatchObject({ suggestions: {}, codes: ['30187', '30188'] });
    // A part that says where in a place is no other name: Ahome's towns each have a Centro, Los Mochis' *Primer Cuadro (Centro)* too.
    expect(validateAddress(client, { asentamiento: 'CENTRO', municipio: 'AHOME', estado: 'SINALOA' }).codes).toEqual(['81200', '81315', '81370']);
  });

  it('counts two neighbouring letters swapped as one mistake, for a code’s settlement and for codes from names', () => {
    // Piedras Negras' 26060 has the Colonia *Juárez*; Ocampo's 33330 (Chihuahua) the Ranchería *El Puerto*. A swap was two
    // edits, too many for a name of six or nine letters: no suggestion was made.
    expect(validateAddress(client, { cp: '26060', asentamiento: 'Juáerz' }).suggestions).toEqual({ asentamiento: 'Juárez' });
    expect(validateAddress(client, { cp: '33330', asentamiento: 'El Puetro' }).suggestions).toEqual({ asentamiento: 'El Puerto' });
    expect(validateAddress(client, { asentamiento: 'El Puetro', municipio: 'Ocampo', estado: 'Chihuahua' }).suggestions).toEqual({ cp: '33330' });
    // Never a number's digits: `Sector 23` is no swap of 07919's *Ex Ejido San Juan de Aragón Sector 32*, a letter's is.
    expect(validateAddress(client, { cp: '07919', asentamiento: 'Ex Ejido San Juan de Aragón Sector 23' }).suggestions).toEqual({});
    expect(validateAddress(client, { cp: '07919', asentamiento: 'Ex Ejido San Juan de Aragnó Sector 32' }).suggestions).toEqual({ asentamiento: 'Ex Ejido San Juan de Aragón Sector 32' });
  });

  it('suggests a misspelt settlement written after its type and a `de`', () => {
    // Banamex's branch list (ivansabik/ubicajeros-api banamex/sucursales_9.psv, cpmx search index file 8169092289): no suggestion was made.
    expect(validateAddress(client, { cp: '12100', asentamiento: 'BARRIO DE TECASTITLA', municipio: 'MILPA ALTA', estado: 'DISTRITO FEDERAL' })).toMatchObject({ suggestions: { asentamiento: 'Tecaxtitla' } });
  });

  it('reads a downtown the catalog names Centro and its place as Centro, and a centre of something else not', () => {
    // The catalog names about 30 downtowns so (*Centro de Azcapotzalco*, *Centro Jiutepec*, *Centro de la Ciudad* of
    // Tehuacán): real records write them `Col. Centro` (test/fixtures/settlement-readings.csv, the last three rows).
    expect(parseAddress(client, 'Calle 2da J.Ma.Morelos y Pavón, No308,2do piso, Col. Centro, C.P. 75700, Tehuacan, Puebla')).toMatchObject({
      cp: '75700',
      asentamiento: 'Centro de la Ciudad',
      valid: true,
    });
    expect(parseAddress(client, 'Av. Hidalgo 120, Col. Centro, C.P. 37800, Dolores Hidalgo, Gto.')).toMatchObject({ asentamiento: 'Centro Dolores Hidalgo', valid: true });
    expect(errorsOf({ cp: '02000', asentamiento: 'Col. Centro', municipio: 'Azcapotzalco' })).toEqual([]);
    // After its title: *Centro Villa de Garcia (casco)* of García.
    expect(errorsOf({ cp: '66000', asentamiento: 'Centro', municipio: 'García' })).toEqual([]);
    // A place's name after what a centre is names no downtown: *Centro SCT Aguascalientes*, *Centro Comercial Puebla* (72460).
    expect(errorsOf({ cp: '20000', asentamiento: 'Centro SCT Aguascalientes' })).toEqual([122]);
    expect(validateAddress(client, { cp: '72000', asentamiento: 'Centro Comercial Puebla', municipio: 'Puebla', estado: 'Puebla' })).toMatchObject({ valid: false, suggestions: { cp: '72460' } });
    expect(errorsOf({ cp: '72000', asentamiento: 'Centro Histórico de Puebla' })).toEqual([]);
    // A downtown named by its place loosely: together or apart (*Río Verde Centro* of Rioverde), without its saint
    // (*Tuxtepec Centro* of San Juan Bautista Tuxtepec), by the place's first word (*Chilpancingo de los Bravos Centro*
    // of Chilpancingo de los Bravo). Real lines of the employment service's offices (test/fixtures/one-line-addresses.csv,
    // STPSEmpleo's ubicacion.jsp), each a 122 before.
    expect(parseAddress(client, 'Vicente Guerrero No. 346, Col. Centro, C.P. 68300.')).toMatchObject({ asentamiento: 'Tuxtepec Centro', valid: true });
    expect(parseAddress(client, 'Calle 5 De Mayo, No. 107 Locales 16 y 18 (Altos), Zona Centro C.P. 79610.')).toMatchObject({ asentamiento: 'Río Verde Centro', valid: true });
    expect(parseAddress(client, 'Dr. Galo Soberón y Parra No. 1, Col. Chilpancingo de los Bravo Centro, C.P. 39000.')).toMatchObject({
      asentamiento: 'Chilpancingo de los Bravos Centro',
      valid: true,
    });
    expect(errorsOf({ cp: '39000', asentamiento: 'Centro' })).toEqual([]);
    expect(errorsOf({ cp: '64000', asentamiento: 'Guadalupe Centro' })).toEqual([122]);
    // A written name is read so only by its place's first words: a misspelt place is a misspelling to correct (a case of
    // scripts/measure-pipeline.ts, seed 31, which this reading had made valid).
    const misspelt = { cp: '59800', asentamiento: 'Jacona de Planvarte Centro', municipio: 'Jacona', estado: 'Michoacán de Ocampo' };
    expect(validateAddress(client, misspelt)).toMatchObject({ valid: false, suggestions: { asentamiento: 'Jacona de Plancarte Centro' } });
    // Nor is a code's centre of something else its downtown, nor its downtown any other code's `Centro`.
    expect(errorsOf({ cp: '20291', asentamiento: 'Centro' })).toEqual([122]);
    expect(errorsOf({ cp: '02000', asentamiento: 'Centro de Tlalnepantla' })).toEqual([122]);
  });

  it('reads a municipality or city written with the code’s state after a comma, and a code written with its C.P.', () => {
    // A banana grower's farms (cpmx search index file 7352404797): municipio 'SUCHIATE, CHIAPAS', cod_postal 'C.P. 30840'.
    const farms = [
      { cp: 'C.P. 30840', municipio: 'SUCHIATE, CHIAPAS' },
      { cp: 'C.P. 30650', municipio: 'MAZATAN, CHIAPAS' },
      { cp: 'C.P. 30620', municipio: 'VILLA COMALTITLAN, CHIAPAS' },
      { cp: 'C.P. 30740', municipio: 'TAPACHULA, CHIAPAS', asentamiento: 'LOMAS DE SAYULA' },
    ];
    for (const farm of farms) {
      const cp = farm.cp.slice(5);
      expect(validateAddress(client, farm), farm.cp).toMatchObject({ valid: false, suggestions: { cp } });
      expect(validateAddress(client, { ...farm, cp }), farm.cp).toMatchObject({ valid: true, errors: [] });
    }
    expect(errorsOf({ cp: '30620', ciudad: 'Villa Comaltitlán, Chis.' })).toEqual([]);
    // Another state after the comma says nothing of the place: judged as written.
    expect(errorsOf({ cp: '30840', municipio: 'SUCHIATE, JALISCO' })).toEqual([121]);
    expect(errorsOf({ cp: '30840', municipio: ', Chiapas' })).toEqual([121]);
  });

  it('reads Ciudad Universitaria as UNAM’s campus, which the catalog names by the university', () => {
    // A paper's affiliation (cpmx search index file 28169183852); 04510's one settlement is *Universidad Nacional Autónoma de México*.
    expect(parseAddress(client, 'Av. Universidad 3000, Ciudad Universitaria, Coyoacán, C.P. 04510, Ciudad de México, México.')).toMatchObject({
      asentamiento: 'Universidad Nacional Autónoma de México',
      valid: true,
    });
    expect(errorsOf({ cp: '04510', asentamiento: 'Ciudad Universitaria', municipio: 'Coyoacán' })).toEqual([]);
    // Other campuses keep their own names: Guadalajara's Colonia *Ciudad Universitaria* is 44840, not UNAM's.
    expect(errorsOf({ cp: '44840', asentamiento: 'Ciudad Universitaria' })).toEqual([]);
    expect(errorsOf({ cp: '04510', asentamiento: 'Universidad Autónoma Metropolitana' })).toEqual([122]);
  });

  it('reads a settlement written with its words run together or split otherwise', () => {
    // `FRACC. MONTEALBAN` with 97114, whose *Monte Alban* it is, as a Mérida club's list of members writes it (cpmx search index file 22162696787).
    expect(errorsOf({ cp: '97114', asentamiento: 'FRACC. MONTEALBAN', municipio: 'MERIDA', estado: 'YUCATAN' })).toEqual([]);
    // Apart where the catalog runs them together: *Montebello* (20237).
    expect(errorsOf({ cp: '20237', asentamiento: 'Col. Monte Bello' })).toEqual([]);
    // Only the spaces may differ: another letter is a misspelling (122 with its suggestion).
    expect(validateAddress(client, { cp: '97114', asentamiento: 'Montalban' })).toMatchObject({ valid: false, suggestions: { asentamiento: 'Monte Alban' } });
  });

  it('takes only the codes of a city of the municipality written', () => {
    // Ahome's towns each have a Centro: Los Mochis (81200), Ahome (81315), Topolobampo (81370).
    const record = { asentamiento: 'CENTRO', municipio: 'AHOME', estado: 'SINALOA' };
    expect(validateAddress(client, record).codes).toEqual(['81200', '81315', '81370']);
    expect(validateAddress(client, { ...record, ciudad: 'LOS MOCHIS' }).suggestions.cp).toBe('81200');
    expect(validateAddress(client, { ...record, ciudad: 'Topolobampo' }).suggestions.cp).toBe('81370');
    // Ahome's city Higuera de Zaragoza has no Centro of the catalog's: none. A city of another municipality says nothing.
    expect(validateAddress(client, { ...record, ciudad: 'Higuera de Zaragoza' })).toMatchObject({ suggestions: {} });
    expect(validateAddress(client, { ...record, ciudad: 'Higuera de Zaragoza' }).codes).toBeUndefined();
    expect(validateAddress(client, { ...record, ciudad: 'El Fuerte' }).codes).toEqual(['81200', '81315', '81370']);
    // The city's Colonia Rosarito (23407), not the Ranchería without a city (23587); a ranchería is kept where no code is the city's.
    const rosarito = { asentamiento: 'ROSARITO', municipio: 'LOS CABOS', estado: 'BAJA CALIFORNIA SUR' };
    expect(validateAddress(client, rosarito).codes).toEqual(['23407', '23587']);
    expect(validateAddress(client, { ...rosarito, ciudad: 'SAN JOSE DEL CABO' }).suggestions.cp).toBe('23407');
    expect(validateAddress(client, { ...rosarito, ciudad: 'Cabo San Lucas' }).suggestions.cp).toBe('23587');
  });

  it('keeps a code in doubt from being suggested another city’s settlement when the city written is the code’s', () => {
    // CESI offices (source above): `CENTRO, MEXICALI, BAJA CALIFORNIA, MEXICALI, 21000`. 21000 is *Centro Cívico*;
    // *Centro Sección II* (21850) is San Felipe's, so the city written says it is not that one.
    const record = { cp: '21000', asentamiento: 'CENTRO', municipio: 'MEXICALI', estado: 'BAJA CALIFORNIA' };
    expect(validateAddress(client, record).suggestions.cp).toBe('21850');
    expect(validateAddress(client, { ...record, ciudad: 'MEXICALI' })).toMatchObject({ errors: [{ code_error: 122 }], suggestions: {} });
    expect(validateAddress(client, { ...record, ciudad: 'San Felipe' }).suggestions.cp).toBe('21850');
  });

  it('reads an alcaldía written as the city, as INEGI’s DENUE writes Ciudad de México’s localities, when it suggests the code', () => {
    // INEGI DENUE records of Ciudad de México (cpmx search index file 71146413892, AntonioEJ/GeoEsp_DENUE's denue_filtrado.csv):
    // a pension fund's office, `DEL VALLE NORTE, 03100, Benito Juárez` with the locality Benito Juárez. *Del Valle Norte* is 03103;
    // the city kept every code out, as no code's city is named Benito Juárez, so nothing was suggested.
    const valle = { cp: '03100', asentamiento: 'DEL VALLE NORTE', municipio: 'Benito Juárez', estado: 'Ciudad de México', ciudad: 'Benito Juárez' };
    expect(validateAddress(client, valle)).toMatchObject({ errors: [{ code_error: 122 }], suggestions: { cp: '03103' } });
    const granada = { cp: '11500', asentamiento: 'AMPLIACIÓN GRANADA', municipio: 'Miguel Hidalgo', estado: 'Ciudad de México', ciudad: 'Miguel Hidalgo' };
    expect(validateAddress(client, granada).suggestions.cp).toBe('11529');
  });

  it('reads a city the catalog writes with a second name in parentheses by either name', () => {
    // INEGI DENUE records of the Isthmus (https://github.com/Laura930720/MapaItsmo/blob/4a5138c6be111e21db3e9f8a723eae835dfbc506/capas/manufacturas/IndusRopaMenos10.js):
    // `FRACC EMILIANO ZAPATA, 70014, Heroica Ciudad de Juchitán de Zaragoza, Juchitán de Zaragoza`. The catalog's city is
    // *Juchitán (Juchitán de Zaragoza)*: the town's *Emiliano Zapata* is 70033, the Pueblo 70103 has no city.
    const zapata = { cp: '70014', asentamiento: 'FRACC EMILIANO ZAPATA', municipio: 'Heroica Ciudad de Juchitán de Zaragoza', estado: 'Oaxaca' };
    expect(validateAddress(client, { ...zapata, ciudad: 'Juchitán de Zaragoza' }).suggestions.cp).toBe('70033');
    expect(validateAddress(client, { ...zapata, ciudad: 'Juchitán' }).suggestions.cp).toBe('70033');
    // Without the city, both are named.
    expect(validateAddress(client, zapata).codes).toEqual(['70033', '70103']);
  });
});

describe('a shopping centre after the name, two types in front, and a city with its surname', () => {
  // INE's offices (test/fixtures/settlement-readings.csv, MayraCVZ/CitasINE) write the colonia with the plaza an office is in.
  it('reads the words before a plaza or a shopping centre, and only when they name the code’s settlement', () => {
    expect(errorsOf({ cp: '59674', asentamiento: 'LOS LAURELES PLAZA LAS PALOMAS' })).toEqual([]);
    expect(errorsOf({ cp: '28219', asentamiento: 'BARRIO V PLAZA LAURET' })).toEqual([]);
    expect(errorsOf({ cp: '20800', asentamiento: 'Centro Local Comercial' })).toEqual([]);
    // Words before the plaza that are no settlement of the code, or a plaza with nothing before it: as before.
    expect(errorsOf({ cp: '23468', asentamiento: 'ARCOS DEL SOL EN LA PLAZA KRYSTAL' })).toEqual([122]);
    expect(errorsOf({ cp: '59674', asentamiento: 'Plaza Las Palomas' })).toEqual([122]);
    expect(errorsOf({ cp: '59674', asentamiento: 'Los Laureles Sur' })).toEqual([122]);
  });

  it('reads La Paz’s Zona Central as its downtown', () => {
    expect(errorsOf({ cp: '23000', asentamiento: 'Col. Centro', municipio: 'La Paz', estado: 'BCS' })).toEqual([]);
    expect(errorsOf({ cp: '23000', asentamiento: 'Centro Histórico' })).toEqual([]);
    // Without a code: the municipality's two downtowns (23300 is another town's), the city's one.
    const record = { asentamiento: 'Col. Centro', municipio: 'La Paz', estado: 'Baja California Sur' };
    expect(validateAddress(client, record).codes).toEqual(['23000', '23300']);
    expect(validateAddress(client, { ...record, ciudad: 'La Paz' }).suggestions.cp).toBe('23000');
  });

  it('writes the catalog’s name for a settlement after two types', () => {
    expect(parseAddress(client, 'AVENIDA CAMELINAS NO. 5030, COL. FRACCIONAMIENTO JARDINES DEL RINCÓN, C.P. 58270, MORELIA, MICHOACAN')).toMatchObject({
      asentamiento: 'Jardines del Rincón',
      valid: true,
    });
  });

  it('takes a city written with a surname the catalog leaves out, unless so named a city is another', () => {
    expect(errorsOf({ cp: '60040', asentamiento: 'Benito Juárez Grupo 1 Este', ciudad: 'URUAPAN DEL PROGRESO' })).toEqual([]);
    // Zumpango del Río (Guerrero) and Santa Rosalía de Camargo (Chihuahua) are cities of the catalog: not Zumpango's or Santa Rosalía's.
    expect(errorsOf({ cp: '55600', asentamiento: 'Paseos de la Laguna', ciudad: 'Zumpango del Río' })).toEqual([123]);
    expect(errorsOf({ cp: '23920', asentamiento: 'La Villita', ciudad: 'Santa Rosalía de Camargo' })).toEqual([123]);
    expect(errorsOf({ cp: '55600', asentamiento: 'Paseos de la Laguna', ciudad: 'Zumpango de Ocampo' })).toEqual([]);
  });
});

describe('a settlement named with its municipality after it', () => {
  it('is read with or without it, as the catalog or the record writes it', () => {
    // A web page's footer (cpmx search index file 24466450501): `Col. Jardín Industrial, Ixtapaluca. Edo. de México, C.P. 56535`;
    // the catalog's name is *Jardín Industrial Ixtapaluca*.
    expect(parseAddress(client, 'Col. Jardín Industrial, Ixtapaluca. Edo. de México, C.P. 56535')).toMatchObject({ cp: '56535', valid: true });
    expect(errorsOf({ cp: '56535', asentamiento: 'Jardín Industrial' })).toEqual([]);
    // Vehicle inspection centre IX940 (Alfull/VerificacionVehicular, source above): `SANTA BARBARA IXTAPALUCA, IXTAPALUCA`, *Santa Bárbara* (56538).
    expect(validateAddress(client, { asentamiento: 'SANTA BARBARA IXTAPALUCA', municipio: 'IXTAPALUCA', estado: 'ESTADO DE MEXICO' }).suggestions.cp).toBe('56538');
    expect(errorsOf({ cp: '56538', asentamiento: 'Santa Bárbara Ixtapaluca' })).toEqual([]);
    // What is left must be a name of two words or more that no joining word ends: *Prados de Coyoacán* is no `Prados`.
    expect(validateAddress(client, { asentamiento: 'Prados', municipio: 'Coyoacán', estado: 'CDMX' }).suggestions.cp).toBeUndefined();
    expect(errorsOf({ cp: '04810', asentamiento: 'Prados' })).toEqual([122]);
  });
});

describe('a colonia of a pueblo, named with it in the catalog', () => {
  it('is read by its own name, or with the pueblo’s after it', () => {
    // Street markets without codes (tianguis-cdmx, above): *Dos Ríos del Pueblo Santa Lucía* and *Lomas de los Ángeles del Pueblo Tetelpan*.
    const named = (asentamiento: string) => validateAddress(client, { asentamiento, municipio: 'ÁLVARO OBREGÓN', estado: 'CDMX' }).suggestions.cp;
    expect(named('DOS RIOS')).toBe('01549');
    expect(named('LOMAS DE LOS ANGELES TETELPAN')).toBe('01790');
    expect(errorsOf({ cp: '01340', asentamiento: 'Bejero', municipio: 'Álvaro Obregón' })).toEqual([]);
    // The pueblo alone names none of its colonias: Tetelpan is the Pueblo of 01700.
    expect(named('TETELPAN')).toBe('01700');
  });
});

describe('a settlement’s type written after its name', () => {
  it('is read as if in front, with a code or without, where no settlement has the name as written', () => {
    // CDMX street markets, without codes (https://github.com/Antonio072/tianguis-cdmx/blob/ee50cea27b887fdf9167ebeec205305eaa4b3efa/src/data/tianguis.js).
    const suggested = (asentamiento: string, municipio: string, estado = 'CDMX') => validateAddress(client, { asentamiento, municipio, estado }).suggestions.cp;
    expect(suggested('JALALPA AMPL.', 'ÁLVARO OBREGÓN')).toBe('01296'); // Ampliación Jalalpa
    expect(suggested('LAS AGUILAS AMPL.', 'ÁLVARO OBREGÓN')).toBe('01759'); // Ampliación Las Águilas
    expect(suggested('MOLINO DE SANTO DOMINGO UH', 'ÁLVARO OBREGÓN')).toBe('01130');
    // A laboratory's page (cpmx search index file 66092567560) writes `Santa Bárbara Residencial` for Colima's *Residencial Santa Bárbara*.
    expect(suggested('Santa Bárbara Residencial', 'Colima', 'Colima')).toBe('28017');
    expect(errorsOf({ cp: '01759', asentamiento: 'LAS AGUILAS AMPL' })).toEqual([]);
    // Moved in front, the type names only what the code has: `San Juan Pueblo` is no settlement of 01710.
    expect(errorsOf({ cp: '01710', asentamiento: 'San Juan Pueblo' })).toEqual([122]);
  });
});

describe('Industrial in front of a name', () => {
  it('is the Zona industrial of that name', () => {
    // Vehicle inspection centre TL970 (source above): `INDUSTRIAL SAN LORENZO, TLALNEPANTLA`; 54033 is the Zona industrial *San Lorenzo*.
    expect(validateAddress(client, { asentamiento: 'INDUSTRIAL SAN LORENZO', municipio: 'TLALNEPANTLA', estado: 'ESTADO DE MEXICO' }).suggestions.cp).toBe('54033');
    expect(errorsOf({ cp: '54033', asentamiento: 'Industrial San Lorenzo' })).toEqual([]);
    // A name that begins with Industrial is read as itself first: Gustavo A. Madero's Colonia *Industrial* (07800).
    expect(errorsOf({ cp: '07800', asentamiento: 'Industrial' })).toEqual([]);
  });
});

describe('a misspelt settlement without a code', () => {
  // Mexico City's vehicle inspection centres, without codes
  // (https://github.com/Alfull/VerificacionVehicular/blob/06127d8ab322fcf51495d5f5e1351e9a3d033a15/Resources/verificentros.js).
  const suggested = (asentamiento: string, municipio: string, estado: string, cp = '') => validateAddress(client, { cp, asentamiento, municipio, estado }).suggestions.cp;

  it('names the code of the one settlement of the municipality it misspells', () => {
    expect(suggested('CORPUS CRISTY', 'ALVARO OBREGON', 'DISTRITO FEDERAL')).toBe('01530'); // Corpus Christy
    expect(suggested('JARDIN AZPEITA', 'AZCAPOTZALCO', 'DISTRITO FEDERAL')).toBe('02530'); // Jardín Azpeitia
    expect(suggested('SAN MARTIN TEPETLIXPAN', 'CUAUTITLAN IZCALLI', 'ESTADO DE MEXICO')).toBe('54763'); // San Martín Tepetlixpa
    expect(suggested('SAN MATEO OTZCATIPAN', 'TOLUCA', 'ESTADO DE MEXICO')).toBe('50220'); // San Mateo Otzacatipan
    // CDMX street markets, without codes (https://github.com/Antonio072/tianguis-cdmx/blob/ee50cea27b887fdf9167ebeec205305eaa4b3efa/src/data/tianguis.js):
    // a type word that is the name's own is read with it (`Villa` of *Villa Verdún*).
    expect(suggested('VILLA VERDUM', 'ÁLVARO OBREGÓN', 'CDMX')).toBe('01810');
    expect(suggested('VILLA DE CORTEZ', 'BENITO JUÁREZ', 'CDMX')).toBe('03530'); // Villa de Cortes
    // cpmx parse reads the line as the centre's list writes it: the code, and the name's spelling suggested.
    expect(parseAddress(client, 'CALZ. LAS AGUILAS 969, CORPUS CRISTY, ALVARO OBREGON, DISTRITO FEDERAL')).toMatchObject({
      cp: '01530',
      errors: [{ code_error: 122 }],
      suggestions: { asentamiento: 'Corpus Christy' },
    });
  });

  it('never reads a short name, other numbers or another section letter as a typo, and never replaces a code written', () => {
    // `EL PALMAR` (the centres' list, Nezahualcóyotl) is not Las Palmas: too short a name to hold a typo.
    expect(suggested('EL PALMAR', 'NEZAHUALCOYOTL', 'ESTADO DE MEXICO')).toBeUndefined();
    // Gustavo A. Madero has Sectors 32 and 33 of the Ex Ejido San Juan de Aragón, and VI and VII Sección of San Juan de Aragón.
    expect(suggested('Ex Ejido San Juan de Aragón Sector 34', 'Gustavo A. Madero', 'CDMX')).toBeUndefined();
    expect(suggested('Ex Ejido San Juan de Aragn Sector 33', 'Gustavo A. Madero', 'CDMX')).toBe('07940');
    expect(suggested('San Juan de Aragón VIII Sección', 'Gustavo A. Madero', 'CDMX')).toBeUndefined();
    // A code written beside the misspelt name is judged, not replaced by the name's.
    expect(suggested('CORPUS CRISTY', 'ALVARO OBREGON', 'DISTRITO FEDERAL', '07370')).toBeUndefined();
  });

  it('names the place the newer catalog has: names of the 2026 Chiapas catalog that the 2018 one lacks', () => {
    // Correos de México's 2026 Chiapas file (../shared/data/sepomex) respells many places of the 2018 catalog.
    // Read as misspellings of the 2018 names, they name the 2026 code (or a recoded same place: `Carmen Saquilá`
    // 29940 is 2018's `Carmen Zaquila` 29948); `Villas del Río` is not Tuxtla's `Villas del Rey` (two typos in 14 letters).
    const catalog = catalogOf(client);
    const finder = placeFinderOf(catalog);
    const chiapas = finder.state('Chiapas');
    const lines = readFileSync(join(realCatalogPath(), '..', 'CPdescarga-chiapas-2026.txt'), 'latin1').split(/\r?\n/).slice(2);
    let read = 0;
    let same = 0;
    const seen = new Set<string>();
    for (const line of lines) {
      const [cp, name, , municipio] = line.split('|');
      if (!cp || !name || !municipio || seen.has(`${name}|${municipio}`)) continue;
      seen.add(`${name}|${municipio}`);
      const municipalities = finder.municipalities(municipio, chiapas);
      if (municipalities.length === 0 || finder.settlementCodes(name, municipalities, chiapas).length) continue;
      const codes = finder.settlementCodes(name, municipalities, chiapas, true, true).map((code) => catalog.postalCode(code));
      if (codes.length === 0) continue;
      read++;
      if (codes.includes(cp)) same++;
    }
    expect(read).toBeGreaterThanOrEqual(50);
    expect(same / read).toBeGreaterThanOrEqual(0.85);
    expect(suggested('Villas del Río', 'Tuxtla Gutiérrez', 'Chiapas')).toBeUndefined();
  });
});
