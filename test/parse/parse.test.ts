/**
 * One-line addresses (issue 19, part 2) against the real catalog: 321 real addresses copied
 * from public sources (test/fixtures/one-line-addresses.csv, each with its source) read right,
 * the forms of streets and numbers, codes found from names, and bad input answered with 130,
 * never a crash. The command is run as a user runs it (the compiled bin in a child process).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient, type CpmxClient } from '../../src/index.js';
import { readStreet } from '../../src/parse/address-text.js';
import { parseAddress, type ParsedAddress } from '../../src/validate/index.js';
import { CLI, buildInto, realCatalogPath, root, tempDir } from '../helpers.js';

const dir = tempDir();
let dataPath: string;
let client: CpmxClient;

beforeAll(async () => {
  dataPath = await buildInto(realCatalogPath(), dir);
  client = createClient({ token: 'parse-test', dataPath });
});

const { CPMX_TOKEN: _token, ...withoutToken } = process.env;

function cpmx(args: string[], input = '') {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    env: { ...withoutToken, CPMX_DATA: dataPath },
    input,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const lines = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as ParsedAddress & { line: number });

interface FixtureRow {
  address: string;
  cp: string;
  estado: string;
  municipio: string;
  source: string;
}

describe('real one-line addresses (test/fixtures/one-line-addresses.csv)', () => {
  const rows = parseCsv(readFileSync(join(root, 'test', 'fixtures', 'one-line-addresses.csv')), { columns: true }) as FixtureRow[];

  it('holds at least 300 distinct real addresses, each with its source', () => {
    expect(rows.length).toBeGreaterThanOrEqual(300);
    expect(new Set(rows.map((row) => row.address)).size).toBe(rows.length);
    for (const row of rows) expect(row.source, row.address).toMatch(/github\.com|cpmx search index/);
  });

  it('reads no state the text does not hold: none, or the code’s own', () => {
    // A number alone is no state in a line (`Nivel 4`, `No. 1`): the Oaxaca judiciary's line was read as Aguascalientes, INEGI's state 1.
    const invented: string[] = [];
    for (const row of rows) {
      if (row.estado) continue;
      const parsed = parseAddress(client, row.address);
      const facts = parsed.cp ? client.infoCp(parsed.cp) : undefined;
      const codesState = Array.isArray(facts) ? facts[0]!.response.estado : undefined;
      if (parsed.estado !== null && parsed.estado !== codesState) invented.push(`${parsed.estado} in "${row.address}"`);
    }
    expect(invented).toEqual([]);
  });

  it('reads the code, state and municipality right for at least 97% where the text holds them', () => {
    const misses: string[] = [];
    const rate = { cp: [0, 0], estado: [0, 0], municipio: [0, 0] };
    for (const row of rows) {
      const parsed = parseAddress(client, row.address);
      for (const part of ['cp', 'estado', 'municipio'] as const) {
        if (!row[part]) continue;
        rate[part][1]!++;
        if (parsed[part] === row[part]) rate[part][0]!++;
        else misses.push(`${part}: expected ${row[part]}, read ${parsed[part]} in "${row.address}"`);
      }
    }
    for (const [part, [right, held]] of Object.entries(rate)) {
      expect(held, part).toBeGreaterThan(100);
      expect(right! / held!, `${part}: ${misses.join('\n')}`).toBeGreaterThanOrEqual(0.97);
    }
  });
});

describe('parseAddress', () => {
  it("reads the issue's examples into the catalog's spelling", () => {
    const insurgentes = parseAddress(client, 'Av. Insurgentes Sur 1602, Col. Crédito Constructor, Benito Juárez, 03940 Ciudad de México, CDMX');
    expect(insurgentes).toMatchObject({
      cp: '03940',
      estado: 'Ciudad de México',
      municipio: 'Benito Juárez',
      asentamiento: 'Crédito Constructor',
      tipo_asentamiento: 'Colonia',
      calle: 'Av. Insurgentes Sur',
      numero_exterior: '1602',
      valid: true,
    });
    expect(insurgentes.read).toEqual(expect.arrayContaining(['cp', 'estado', 'municipio', 'asentamiento', 'calle', 'numero_exterior']));

    const carmen = parseAddress(client, 'COL DEL CARMEN 64710 MONTERREY,N.L.');
    expect(carmen).toMatchObject({ cp: '64710', estado: 'Nuevo León', municipio: 'Monterrey', asentamiento: 'Del Carmen', valid: true });

    const cancun = parseAddress(client, 'Sm. 51, Mz. 23, Lote 10');
    expect(cancun.tipo_asentamiento).toBe('Supermanzana');
    expect(cancun.numero_exterior).toBe('Mz. 23 Lote 10');
    expect(cancun.errors.map((error) => error.code_error)).toEqual([101]);
    // Real Cancún lines: a hotel chain's list of addresses (cpmx search index file 3254676511) and a university's
    // footer (18263466348). `Mza.` is the manzana's word whole, never `Mz` and a number `a`, and a lot's number keeps its dash.
    expect(parseAddress(client, 'Av. Tulum Mza. 14 S.M. 4 Lote 2, Cancún, Q. Roo, C.P. 77500')).toMatchObject({ calle: 'Av. Tulum', numero_exterior: 'Mza. 14 Lote 2', asentamiento: 'Supermanzana 4 Centro', valid: true });
    expect(parseAddress(client, 'Av. Arco Bicentenario, Mza. 11, Lote 1119-33, SM. 255. Cancún, Quintana Roo, México. C.P. 77500')).toMatchObject({ calle: 'Av. Arco Bicentenario', numero_exterior: 'Mza. 11 Lote 1119-33' });
    expect(parseAddress(client, 'MZA 1 SMZA 3, PUNTA SAM, ISLA MUJERES, QUINTANA ROO, C.P. 77400.').numero_exterior).toBe('MZA 1');
  });

  it('reads a full stop after a number, before a capital, as the end of a piece', () => {
    // A technological institute's real footer (cpmx search index file 19631393879): the city was glued to the street.
    expect(parseAddress(client, 'Avenida Tecnológico #100. Ciudad Guzmán, Mpio. de Zapotlán el Grande, Jalisco, México.')).toMatchObject({
      calle: 'Avenida Tecnológico',
      numero_exterior: '100',
      ciudad: 'Ciudad Guzmán',
      municipio: 'Zapotlán el Grande',
      estado: 'Jalisco',
    });
    // The fixture's real line: the number had stayed in the street (`C. Lazaro Cardenas 200.`).
    expect(parseAddress(client, 'C. Lazaro Cardenas 200. Col Centro, Tulancingo')).toMatchObject({ calle: 'C. Lazaro Cardenas', numero_exterior: '200' });
    // A number's decimals are no stop (a university's real footer, cpmx search index file 24705377458).
    expect(parseAddress(client, 'Km. 4.5 Carretera Federal Xalapa-Veracruz Col SAHOP, C.P. 91190, Xalapa Veracruz, MÉXICO.').calle).toContain('Km. 4.5 Carretera');
    // Real (the fixture's Cancún line): the supermanzana glued after the street's number, its manzana after it.
    const nader = parseAddress(client, 'Av. Nader No. 8 SM. 5 MZA. 03, Plaza Centro, Planta Baja, C.P. 77500, Benito Juárez, Quintana Roo');
    expect(nader).toMatchObject({ calle: 'Av. Nader', asentamiento: 'Supermanzana 5 Centro', cp: '77500', valid: true });
    // A scraper's real line (test/fixtures/one-line-addresses.csv): the colonia typed is Xochimilco's *Chapultepec*; Polanco, written
    // after it, is 11560's *Polanco V Sección*. Another piece that names the code's settlement is taken, and no other code suggested.
    const polanco = parseAddress(client, 'Emilio Castelar 229 Colonia Chapultepec, Polanco 11560 México D.F., Mexico');
    expect(polanco).toMatchObject({ cp: '11560', asentamiento: 'Polanco V Sección', valid: true, suggestions: {} });
    // A typed settlement after `sn`, with its municipality and state after it (a real line without a code): 42330, Zimapán's Centro.
    expect(parseAddress(client, 'Av. Heroico Colegio Militar, sn col centro zimapan hgo.')).toMatchObject({ cp: '42330', municipio: 'Zimapán', asentamiento: 'Centro', valid: true });
    // With no such piece, the typed colonia is judged as before.
    expect(parseAddress(client, 'Emilio Castelar 229 Colonia Chapultepec, 11560 México D.F.')).toMatchObject({ asentamiento: 'Chapultepec', valid: false, suggestions: { cp: '16850' } });
  });

  it('reads México ending a line as the country when it is not the code’s state', () => {
    // A supplier table's real lines (cpmx search index file 54703550328): city, state, code, country.
    expect(parseAddress(client, 'Ermita Norte No.27-B Fracc. Santa Cruz, Tijuana, BAJA CALIFORNIA NTE, 22105, MÉXICO')).toMatchObject({
      cp: '22105',
      estado: 'Baja California',
      asentamiento: 'Santa Cruz',
      valid: true,
    });
    expect(parseAddress(client, 'CALLE 17 # 1204 COLONIA LIBERTAD, TIJUANA, BAJA CALIFORNIA NTE, 22400, MÉXICO')).toMatchObject({ estado: 'Baja California', asentamiento: 'Libertad', valid: true });
    // No code: `Nte.` is Baja California's Norte, so México after it is the country and the code is found from the names.
    expect(parseAddress(client, 'C. Huazarichi #9303, Col. Azteca, TIjuana, BAJA CALIFORNIA NTE, MÉXICO')).toMatchObject({ cp: '22224', estado: 'Baja California', valid: true });
    // The city and the country, no state written.
    expect(parseAddress(client, 'Calle 17 # 1204, Col. Libertad, 22400 Tijuana, Mexico')).toMatchObject({ estado: 'Baja California', valid: true });
    // The state of México's code: México is its state, as before.
    expect(parseAddress(client, 'Av. Juárez 10, Centro, Toluca, 50000, México')).toMatchObject({ estado: 'México', municipio: 'Toluca', valid: true });
  });

  it('reads a corner or an S/N written after the settlement apart, not as part of its name', () => {
    // A lender's branches (cpmx search index file 6944161453): the corner glued after the colonia.
    const line = 'Av. Hidalgo 3602 Local B, Col. Las Flores Esq. Calle Gardenia, Dentro de la Gasolinera Tampico, Tamps. C.P. 89220';
    expect(parseAddress(client, line)).toMatchObject({ cp: '89220', municipio: 'Tampico', asentamiento: 'Flores', valid: true });
    // A name that holds the word is read whole (*La Esquina*), and `esquina con` is a corner too.
    expect(parseAddress(client, 'Calle 5 #10, Col. La Esquina, 64000 Monterrey, N.L.').asentamiento).toBe('La Esquina');
    expect(parseAddress(client, 'Av. Juárez 100 Col. Centro esquina con Morelos, 64000 Monterrey, N.L.')).toMatchObject({ asentamiento: 'Monterrey Centro', valid: true });
    // Nor is a missing number's S/N glued after it (a school's footer, cpmx search index file 1487514842): 122 before.
    const leyes = 'Calle 25 de Septiembre de 1873, Col. Leyes de Reforma S/N, Delegación Iztapalapa, México D.F. C.P. 09310.';
    expect(parseAddress(client, leyes)).toMatchObject({ cp: '09310', asentamiento: 'Leyes de Reforma', valid: true });
  });

  it('reads a line that is only a code, with or without its mark, empty pieces or the country', () => {
    // These threw a TypeError (a crash trace from `cpmx parse`): nothing was left to read once the code was taken out.
    for (const line of ['64000', 'C.P. 64000', 'cp: 64000.', ', , , , CP 64000', ', 64000, México', '64000 México']) {
      expect(parseAddress(client, line), line).toMatchObject({ cp: '64000', estado: 'Nuevo León', municipio: 'Monterrey', valid: true, inferred: ['estado', 'municipio', 'ciudad'] });
    }
    const run = cpmx(['parse', '-', '--format', 'csv'], '64000\nC.P. 64000\n');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(3);
  });

  it('fills what the code implies and says so', () => {
    const parsed = parseAddress(client, 'Calle Tuxpan No. 63, Interior 402, Colonia Roma Sur, Cuauhtémoc, CDMX, C.P. 06760');
    expect(parsed).toMatchObject({ cp: '06760', asentamiento: 'Roma Sur', numero_exterior: '63', numero_interior: '402', ciudad: 'Ciudad de México', valid: true });
    expect(parsed.inferred).toEqual(['ciudad']);
    const bare = parseAddress(client, 'Zaragoza No. 148 Bis Sur, Col. Centro, C.P. 27000.');
    expect(bare).toMatchObject({ estado: 'Coahuila de Zaragoza', municipio: 'Torreón' });
    expect(bare.inferred).toEqual(expect.arrayContaining(['estado', 'municipio']));
  });

  it('finds the code from the settlement, municipality and state when none is written', () => {
    const one = parseAddress(client, 'Colonia Roma Norte, Cuauhtémoc, Ciudad de México');
    expect(one).toMatchObject({ cp: '06700', valid: true });
    expect(one.inferred).toContain('cp');
    const several = parseAddress(client, 'Benito Juárez, Quintana Roo');
    expect(several.cp).toBeNull();
    expect(several.codes!.length).toBe(10);
    for (const code of several.codes!) expect(client.infoCp(code, { type: 'simplified' })).toMatchObject({ response: { municipio: 'Benito Juárez', estado: 'Quintana Roo' } });
    expect(several.errors.map((error) => error.code_error)).toEqual([101]);
  });

  it('cuts a settlement marked by its type from a street without a number, and only so', () => {
    // Real: Veracruz prosecutors' offices (test/fixtures/one-line-addresses.csv), a period where a comma belongs.
    const perote = parseAddress(client, 'Calle Agustín Melgar Esq. Con Ponciano Col. Centro. Perote, Veracruz');
    // Its Col. Centro is Perote's one settlement that is the town (a Pueblo): the code is found from it.
    expect(perote).toMatchObject({ calle: 'Calle Agustín Melgar Esq. Con Ponciano', asentamiento: 'Perote', tipo_asentamiento: 'Pueblo', municipio: 'Perote', cp: '91270', valid: true });
    expect(perote.inferred).toContain('cp');
    const pescados = parseAddress(client, 'Calle Melgar Colonia Los Pescados, Perote, Veracruz');
    expect(pescados).toMatchObject({ calle: 'Calle Melgar', asentamiento: 'Los Pescados', cp: '91270', valid: true });
    // A type word written whole, or right after the street's word, is the street's own name.
    expect(parseAddress(client, 'Av. Barrio Alto, Perote, Veracruz')).toMatchObject({ calle: 'Av. Barrio Alto', asentamiento: null });
    expect(parseAddress(client, 'Av. Col. del Valle, Benito Juárez, CDMX')).toMatchObject({ calle: 'Av. Col. del Valle', asentamiento: null });
  });

  it('reads no settlement in a piece that names the streets at a corner or on both sides', () => {
    // A festival's locations (cpmx search index file 18341892559): the settlement follows the corner.
    expect(parseAddress(client, 'Cehuantepec, esq. Cd Xamíltepec 113-7, Mesa los Hornos, Tlalpan, Ciudad de México.')).toMatchObject({
      calle: 'Cehuantepec',
      asentamiento: 'Mesa de los Hornos',
      cp: '14420',
      valid: true,
    });
    // Real lines of the fixture: a settlement glued after the corner's street, and a corner alone.
    expect(parseAddress(client, 'Dr. Gustavo Gómez Azcarate s/n, esq. Av. Domingo Diez Col. Lomas de la Selva, C.P. 62270.')).toMatchObject({ asentamiento: 'Lomas de La Selva', valid: true });
    expect(parseAddress(client, 'Solidaridad s/n, entre 67 y 69, C.P. 24350.')).toMatchObject({ calle: 'Solidaridad', asentamiento: null, valid: true });
    // A street named Esquina is still the street.
    expect(parseAddress(client, 'Esquina 12, Col. Centro, C.P. 91270').calle).toBe('Esquina');
  });

  it('reads a city of the state in a line without a code, and finds the code among that city\'s settlements', () => {
    // Real branches of a pharmacy chain (see validate-pipeline.test.ts): Los Mochis is a city of Ahome, not a settlement here.
    const jiquilpan = parseAddress(client, 'Blvd. Lopez Mateos #1271, Col. Jiquilpan, Los Mochis, Sinaloa');
    expect(jiquilpan).toMatchObject({ asentamiento: 'Jiquilpan', ciudad: 'Los Mochis', estado: 'Sinaloa', codes: ['81220', '81229'] });
    const horizonte = parseAddress(client, 'C. Eustaquio Buelna #3412, Fracc. Nuevo Horizonte, Los Mochis');
    expect(horizonte).toMatchObject({ cp: '81233', municipio: 'Ahome', asentamiento: 'Nuevo Horizonte', ciudad: 'Los Mochis', valid: true });
    expect(horizonte.inferred).toEqual(expect.arrayContaining(['cp', 'estado', 'municipio']));
  });

  it('judges with the validator: a lost leading zero, a state that does not belong to the code', () => {
    // Real lines of an employment service's office list (test/fixtures/one-line-addresses.csv).
    const zero = parseAddress(client, 'Añil y Río Churubusco, Col. Granjas México, C.P. 8400, Ciudad de México');
    expect(zero).toMatchObject({ cp: '8400', asentamiento: 'Granjas México', municipio: 'Iztacalco', suggestions: { cp: '08400' } });
    expect(zero.errors.map((error) => error.code_error)).toEqual([102]);
    // The zero put back only where the names are the code's: El Recreo is 02070's *Del Recreo* (02700 is San Miguel Amantla).
    const recreo = parseAddress(client, 'Calz. Camarones No. 494, esq. Norte 87B, Col. El Recreo, C.P. 2700, Ciudad de México');
    expect(recreo).toMatchObject({ cp: '2700', suggestions: { cp: '02070' } });
    // Uruapan's Centro is no settlement of 06000: nothing of the capital is filled in, nor its code suggested (60000 lost its last digit).
    const uruapan = parseAddress(client, 'Av. Juarez No. 71, Col. Uruapan Centro, C.P. 6000.');
    expect(uruapan).toMatchObject({ cp: '6000', estado: null, municipio: null, suggestions: {}, inferred: [] });
    const wrong = parseAddress(client, 'Av. Hidalgo 212 Norte, Matehuala, Jalisco. C.P. 78700');
    expect(wrong.errors.map((error) => error.code_error)).toContain(120);
    expect(wrong.suggestions.estado).toBe('San Luis Potosí');
  });

  it('answers bad input with 130 and its reason, never a crash', () => {
    const reasons = (text: unknown) => {
      const parsed = parseAddress(client, text as string);
      expect(parsed.valid).toBe(false);
      expect(parsed.errors.map((error) => error.code_error)).toEqual([130]);
      return parsed.errors[0]!.reason;
    };
    expect(reasons('')).toBe('empty line');
    expect(reasons('   ')).toBe('empty line');
    expect(reasons('\u0000\u0001PK\u0003\u0004')).toBe('binary data, not text');
    expect(reasons('Calle \ufffd 12')).toBe('binary data, not text');
    expect(reasons('x'.repeat(10 * 1024 * 1024))).toMatch(/longer than 1024 characters/);
    expect(reasons(', ; - |')).toMatch(/no letters or digits/);
    expect(reasons(null)).toBe('empty line');
    expect(reasons(42)).toBe('not text');
  });
});

describe('streets and numbers', () => {
  it.each([
    ['Av. Insurgentes Sur 1602', 'Av. Insurgentes Sur', '1602', null],
    ['Calle Tuxpan No. 63', 'Calle Tuxpan', '63', null],
    ['Av. Allende #1260', 'Av. Allende', '1260', null],
    ['Calle Mariano Matamoros Núm. 45', 'Calle Mariano Matamoros', '45', null],
    ['Hidalgo s/n', 'Hidalgo', 'S/N', null],
    ['Morelos No. 15-A', 'Morelos', '15-A', null],
    ['Ahumada No. 13 int.1', 'Ahumada', '13', '1'],
    ['Av. Cuauhtémoc No. 59 Depto 2', 'Av. Cuauhtémoc', '59', '2'],
    ['Av. Madero 201 Local 3', 'Av. Madero', '201', 'Local 3'],
    ['Av. Xcaret Mz. 2 Lt 2', 'Av. Xcaret', 'Mz. 2 Lt 2', null],
    // INE's offices (test/fixtures/one-line-addresses.csv): a word that holds an interior's is no interior (`TORRES`, `CASAS`).
    ['GREGORIO TORRES QUINTERO NO. 185', 'GREGORIO TORRES QUINTERO', '185', null],
    ['Calle Casas Alemán 12', 'Calle Casas Alemán', '12', null],
    ['CARLOS SAGREDO NO. 214 INT. L 4', 'CARLOS SAGREDO', '214', 'L 4'],
    ['SAN ANTONIO NO. 149 INT. L 5 Y 6', 'SAN ANTONIO', '149', 'L 5 Y 6'],
    ['Av. Juárez 30 Locales 5 y 6', 'Av. Juárez', '30', 'Locales 5 y 6'],
    // Hidalgo's health offices (the fixture): `sn` with no name after it is sin número; before a name it is San.
    ['Prolongacioon Juarez sn', 'Prolongacioon Juarez', 'S/N', null],
    ['Calle Ayuntamiento SN', 'Calle Ayuntamiento', 'S/N', null],
    ['Calle Sn Juan 5', 'Calle Sn Juan', '5', null],
    // Yucatán's `x` of the streets a number lies between stays with the street (Mérida's schools, cpmx search index
    // file 45673384201; a clinic, 12346382643): the first number was `524-1x`; a letter of the number's own is kept.
    ['Av. Yucatán No. 524-1 x 22 y 24', 'Av. Yucatán x 22 y 24', '524-1', null],
    ['Calle 60 No. 491A x 57 y 59', 'Calle 60 x 57 y 59', '491A', null],
    ['Calle 64 x 57 y 59 No.485', 'Calle 64 x 57 y 59', '485', null],
    ['Av. Juárez No. 12 B', 'Av. Juárez', '12B', null],
    // A number's letter written apart after it, without a mark (a León shop's footer, cpmx search index file 41126760510).
    ['Bahía del Salvador 114 A', 'Bahía del Salvador', '114A', null],
    // A street named by its type and a number has no house number in it; `y` is no number's letter.
    ['Calle 5', 'Calle 5', null, null],
    ['Calle 5 A', 'Calle 5 A', null, null],
    ['Av. Hidalgo 120 y 122', 'Av. Hidalgo 120 y', '122', null],
    // A floor by its word, after `Int.` or not.
    ['Av. Juárez 30 Int. Planta Baja', 'Av. Juárez', '30', 'Planta Baja'],
  ])('%s', (piece, calle, exterior, interior) => {
    expect(readStreet(piece)).toEqual({ calle, numeroExterior: exterior, numeroInterior: interior });
  });

  it('reads a building by its letter and a floor as the interior, never as the settlement', () => {
    // UNAM's office of graduates (cpmx search index file 8901292164): `Edificio D` was the settlement, 122.
    const unam = parseAddress(client, 'Zona Cultural de Ciudad Universitaria, Edificio D, planta baja, Alcaldía Coyoacán, C.P. 04510, en la Ciudad de México');
    expect([unam.numero_interior, unam.asentamiento, unam.valid]).toEqual(['Edificio D', 'Universidad Nacional Autónoma de México', true]);
    // The national employment service's offices (the fixture): `Planta Baja` was the settlement.
    const juarez = parseAddress(client, 'Guadalupe Victoria No. 608, Planta Baja, Col. Saltillo Zona Centro, C.P. 25000.');
    expect([juarez.numero_exterior, juarez.numero_interior, juarez.asentamiento]).toEqual(['608', 'Planta Baja', 'Saltillo Zona Centro']);
    // A settlement named Edificio is still one (*Edificio Cartagena*).
    expect(parseAddress(client, 'Calle 5 No. 10, Edificio Cartagena, 64000').numero_interior).toBeNull();
    // A doctor's privacy notice, Aguascalientes (cpmx search index file 53106844973): `Torre C` was the settlement, 122.
    const torre = parseAddress(client, 'Blvrd. República de Perú 102, Torre C, Consultorio 201, Aguascalientes, Ags., C.P. 20234');
    expect([torre.numero_interior, torre.asentamiento, torre.valid]).toEqual(['Torre C', null, true]);
    expect(readStreet('Av. Universidad 1001 Consultorio 305')).toEqual({ calle: 'Av. Universidad', numeroExterior: '1001', numeroInterior: 'Consultorio 305' });
  });

  it('reads a number alone after the street as its number, never as the settlement', () => {
    // A business's contact link (cpmx search index file 5083855205): `396-9` was the settlement.
    expect(parseAddress(client, 'Benito Juáres, 396-9, PTE. Centro, Culiacán, Sinaloa, C.P. 80000')).toMatchObject({ calle: 'Benito Juáres', numero_exterior: '396-9' });
    expect(parseAddress(client, 'Benito Juáres, 396-9, PTE. Centro, Culiacán, Sinaloa, C.P. 80000').asentamiento).not.toBe('396-9');
    // The fixture's `Av. de los Tamarindos, 90, Priv. 01, Bosques de las Lomas` (05120) had no number.
    expect(parseAddress(client, 'Centro Comercial Arcos Av. de los Tamarindos, 90, Priv. 01, Bosques de las Lomas, Bosque de las Lomas, 05120 Ciudad de México, D.F., Mexico')).toMatchObject({ numero_exterior: '90', asentamiento: 'Bosques de las Lomas', valid: true });
    // Further on, a number alone is one more of a list (`Locales 48, 49, 50`), not the street's number.
    expect(parseAddress(client, 'Pasaje María Luisa, Calle Abasolo No. 518 Altos, Locales 48, 49, 50, 51, 52 y 53, Ciudad Valles, Zona Centro, C.P. 79000.')).toMatchObject({ numero_exterior: null, valid: true });
  });

  it('reads a settlement’s type with no name after it as nothing written', () => {
    // A gas station's address with its colonia left empty (a scraper's sample, cpmx search index file 22147496783): `Col.` was the settlement, 122.
    const empty = parseAddress(client, 'Km 526 Carretera Panamericana, Col. ., C.P. 20000, Aguascalientes, Aguascalientes');
    expect(empty.asentamiento).not.toBe('Col.');
    expect(empty.errors).toEqual([]);
    // A name after the type is a name (`Col. Centro`).
    expect(parseAddress(client, 'Av. Juárez 10, Col. Centro, C.P. 06000, CDMX')).toMatchObject({ asentamiento: 'Centro (Área 1)', valid: true });
  });

  it('reads `en la` before a municipality as no part of the settlement', () => {
    // A trust fund's information office (cpmx search index file 45966772796): the settlement was `Granada en la`, 122.
    const granada = parseAddress(client, 'Ejército Nacional 359, 3er piso, Col. Granada en la Delegación Miguel Hidalgo, C.P. 11520.');
    expect([granada.asentamiento, granada.municipio, granada.valid]).toEqual(['Granada', 'Miguel Hidalgo', true]);
    // And with the place's title: an accounting firm's privacy notice (cpmx search index file 26624776082), `Reforma en la ciudad de`.
    const reforma = parseAddress(client, 'Pizarro No. 41 Fraccionamiento Reforma en la ciudad de Veracruz, Ver., C.P. 91919');
    expect([reforma.asentamiento, reforma.municipio, reforma.valid]).toEqual(['Reforma', 'Veracruz', true]);
  });

  it('reads `en la` in front of a settlement’s type as no part of it', () => {
    // A company's legal notice, Zapopan (cpmx search index file 31165590636): the settlement was `en la colonia Arboledas 1ª Sección`, 122.
    const zapopan = parseAddress(
      client,
      'Calle Allioth, número exterior 4140, entre las calles Juan Kepler y Carnero, en la colonia Arboledas 1ª Sección, localidad San Gonzalo Torre Vieja, municipio de Zapopan, estado de Jalisco, con código postal 45070',
    );
    expect([zapopan.asentamiento, zapopan.tipo_asentamiento, zapopan.cp, zapopan.valid]).toEqual(['Arboledas 1a Secc', 'Colonia', '45070', true]);
  });

  it('takes five digits after a street’s number and its dot as the code when the city after them is the code’s, written short', () => {
    // A cinema list, Cd. Obregón (cpmx search index file 1890395129): the code was lost into the street (`Calles . 85000 Cd. Obregón`).
    const obregon = parseAddress(client, 'Blvd. Rodolfo Elías Calles #1750. 85000 Cd. Obregón, Son.');
    expect([obregon.cp, obregon.calle, obregon.numero_exterior, obregon.ciudad, obregon.valid]).toEqual(['85000', 'Blvd. Rodolfo Elías Calles', '1750', 'Ciudad Obregón', true]);
    // Five digits in the first piece that no name after them agrees with stay a street's number.
    expect(parseAddress(client, 'Blvd. Rodolfo Elías Calles #1750. 85000 Hermosillo, Son.').cp).not.toBe('85000');
  });

  it('keeps a typed settlement whole when its own name ends with its place’s name', () => {
    // A shop's page (cpmx search index file 58029072611), no code: the settlement was `Estado de`, the state peeled off it, and no code found.
    const neza = parseAddress(client, 'Calle 26 #103 Col. Estado de Mexico, Nezahualcoyotl.');
    expect([neza.asentamiento, neza.municipio, neza.cp, neza.valid]).toEqual(['Estado de México', 'Nezahualcóyotl', '57210', true]);
    // Catalog names that end with their municipality's (*Jardines de Tala*, 45308; *Lomas Xalisco*, 63780) were 122 with their own code.
    expect(parseAddress(client, 'Av. Juárez 10, Fracc. Jardines de Tala, Tala, Jal., C.P. 45308')).toMatchObject({ asentamiento: 'Jardines de Tala', municipio: 'Tala', valid: true });
    expect(parseAddress(client, 'Calle Hidalgo 25, Fraccionamiento Lomas Xalisco, Xalisco, Nayarit, México, 63780')).toMatchObject({ asentamiento: 'Lomas Xalisco', valid: true });
    // A place written after a name that is not the settlement's own is still peeled off it.
    const monterrey = parseAddress(client, 'Av. Juárez 10, Col. Centro Monterrey, N.L., C.P. 64000');
    expect([monterrey.asentamiento, monterrey.valid, monterrey.read.includes('municipio')]).toEqual(['Monterrey Centro', true, true]);
  });

  it('reads the names written after a street’s number without a type or a comma', () => {
    // A branding firm's privacy notice, Mérida (cpmx search index file 5437283299): the settlement was part of the street.
    const merida = parseAddress(client, 'Periférico Norte. Calle 11 #306 x 12-A Santa Gertrudis Copó, C.P. 97305, Mérida, Yucatán');
    expect([merida.asentamiento, merida.numero_exterior, merida.valid]).toEqual(['Santa Gertrudis Copo', '306', true]);
    // Catalog places written so: with a comma after the settlement, or none at all, with a code or without one.
    for (const line of ['Calle Hidalgo 538 San Simón, Texcoco, Edo. Méx.', 'Calle Hidalgo 538 San Simón Texcoco Edo. Méx.', 'Calle Hidalgo No. 538 San Simón, Texcoco, Edo. Méx. 56210']) {
      expect(parseAddress(client, line)).toMatchObject({ cp: '56210', asentamiento: 'San Simón', calle: 'Calle Hidalgo', numero_exterior: '538', valid: true });
    }
    // A street named by a number is tried at each number: `5 de Mayo` stays the street's name.
    expect(parseAddress(client, 'Calle 5 de Mayo 158 Santa Bárbara, Chilpancingo de los Bravo, Gro.')).toMatchObject({ calle: 'Calle 5 de Mayo', numero_exterior: '158', asentamiento: 'Santa Bárbara', cp: '39110' });
    // Words after the number that name no settlement of the place stay the street's (`Av. Juárez 363 Bis`).
    expect(parseAddress(client, 'Av. Juárez 363 Bis, Texcoco, Edo. Méx.').asentamiento).toBeNull();
  });

  it('reads a suite, a floor and a building as no settlement, and a settlement after a building', () => {
    // A gym franchise's club list (cpmx search index file 70482043808): `Suite A114` was the settlement.
    expect(parseAddress(client, 'Av. Carlos Salinas de Gortari #801, Suite A114, Cd Apodaca, Nuevo Leon, C.P. 66600')).toMatchObject({ asentamiento: null, numero_interior: 'A114', valid: true });
    // The passport offices' list (cpmx search index file 12630195239; its accents lost): the floor and the mall were the settlement.
    const tijuana = parseAddress(client, 'AV. PASEO DE LOS HROES 9111, 1er. PISO CENTRO COMERCIAL PAVILION, PLAZA TIJUANA, ESQ. AV. GRAL. M. MRQUEZ DE LEN, ZONA CENTRO C.P. 22010 TIJUANA, BAJA CALIFORNIA');
    expect([tijuana.asentamiento, tijuana.valid]).toEqual([null, true]);
    // A floor written before a street named by a number keeps the number the street's (the fixture's Cd. Obregón office).
    expect(parseAddress(client, 'Edificio Gobierno del Estado, Primer Piso. 5 de Febrero y Prof. Montero Morales Cd. Obregón, Sonora. C.P. 85000.').numero_interior).toBeNull();
    // A local's letter and number joined by a hyphen (a store locator's list, cpmx search index file 44703989569): `-32` was left in the street, no number read.
    expect(parseAddress(client, 'AV. PROLONGACIÓN CANDILES 204 LOCAL D-32, PLAZACANDILES, FRACC. CAMINO REAL, CORREGIDORA, QRO. C.P. 76093')).toMatchObject({
      calle: 'AV. PROLONGACIÓN CANDILES',
      numero_exterior: '204',
      numero_interior: 'LOCAL D-32',
    });
    // A tower written before the colonia in one piece (the fixture's Playa del Carmen line): `Torre Atmosphera Col. Zazil-Ha` was the settlement.
    expect(parseAddress(client, 'Av. 30 Norte, Mz. 96 Lt 10, Torre Atmosphera Col. Zazil-Ha, C.P. 77720.')).toMatchObject({ asentamiento: 'Zazil Ha', valid: true });
  });

  it('drops a code’s mark left without its code, at a piece’s end or before the municipality’s title', () => {
    // A seed list of federal bodies' internal-audit offices (cpmx search index file 6883764675): `C.P` was left in the settlement.
    expect(parseAddress(client, 'AV. INSTITUTO POLITÉCNICO NACIONAL NO. 5160, EDIFICIO B 1ER PISO, ÁREA DE GOBIERNO, COL. MAGDALENA DE LAS SALINAS DELEG. GUSTAVO A. MADERO C.P, 07760, MÉXICO, D.F.')).toMatchObject({
      asentamiento: 'Magdalena de las Salinas',
      municipio: 'Gustavo A. Madero',
      valid: true,
    });
    expect(parseAddress(client, 'PRIVADA DE RELOX NO. 16-A 3ER PISO COL. CHIMALISTAC  C.P.  DEL ÁLVARO OBREGÓN C.P. 01070 MEXICO D.F.')).toMatchObject({ asentamiento: 'Chimalistac', valid: true });
    // A `C.P.` in a street's name (a public accountant's title) stays.
    expect(parseAddress(client, 'Calle C.P. Fernando Montes 12, Col. Centro, C.P. 06000, CDMX').calle).toBe('Calle C.P. Fernando Montes');
  });

  it('takes a typed settlement before a piece without a type, and tries a second typed one', () => {
    // A pumps dealer's branches (cpmx search index file 42240568590), no code: `México` was taken for the settlement.
    expect(parseAddress(client, 'Otavalo número 91, Colonia Lindavista, Delegación Gustavo A. Madero, México, Distrito Federal.')).toMatchObject({ asentamiento: 'Lindavista', cp: '07300', valid: true });
    // Unless the typed one is a downtown: the town after it is the place (the fixture: `Col Centro, Pachuquilla` is 42180).
    expect(parseAddress(client, 'Venustiano Carranza No. 9, Col Centro, Pachuquilla, Mral. De la Reforma, Hgo.')).toMatchObject({ cp: '42180', valid: true });
    // Two typed settlements: the code's one (the fixture: 85430 is *Termoeléctrica*, not Las Batuecas).
    expect(parseAddress(client, 'Fraccionamiento Las Batuecas, Colonia Termoelectrica, Guaymas, Sonora. C.P. 85430')).toMatchObject({ asentamiento: 'Termoeléctrica', valid: true });
  });

  it('keeps a street named by a number whole when the house number comes after it (the fixture)', () => {
    // A scraper's address tests (cpmx search index file 12402054361): the street was `Calle` and its number 28.
    const carmen = parseAddress(client, 'Calle 28, numero 113 entre 29A y 29 ,Colonia centro, Ciudad del Carmen, Campeche ,24100');
    expect([carmen.calle, carmen.numero_exterior, carmen.cp]).toEqual(['Calle 28', '113', '24100']);
    const cordoba = parseAddress(client, 'Avenida 1, número 418 entre calle 4 y 6,Col. Centro,Córdoba, Veracruz,94500.');
    expect([cordoba.calle, cordoba.numero_exterior, cordoba.cp]).toEqual(['Avenida 1', '418', '94500']);
  });
});

describe('cpmx parse', () => {
  it('writes one NDJSON result per input line, blank and binary lines included', () => {
    const input = ['Av. Insurgentes Sur 1602, Col. Crédito Constructor, Benito Juárez, 03940 Ciudad de México, CDMX', '', 'Calle \u0000\u0001 12', 'COL DEL CARMEN 64710 MONTERREY,N.L.'].join('\n');
    const run = cpmx(['parse', '--quiet'], `${input}\n`);
    expect(run.status).toBe(1);
    const results = lines(run.stdout);
    expect(results.map((result) => result.line)).toEqual([1, 2, 3, 4]);
    expect(results[0]).toMatchObject({ cp: '03940', municipio: 'Benito Juárez', valid: true });
    expect(results[1]!.errors[0]).toMatchObject({ code_error: 130, reason: 'empty line' });
    expect(results[2]!.errors[0]).toMatchObject({ code_error: 130, reason: 'binary data, not text' });
    expect(results[3]).toMatchObject({ cp: '64710', estado: 'Nuevo León', valid: true });
    expect(Object.keys(results[0]!)).toEqual(
      expect.arrayContaining(['line', 'cp', 'estado', 'municipio', 'asentamiento', 'tipo_asentamiento', 'ciudad', 'calle', 'numero_exterior', 'numero_interior', 'valid', 'errors', 'suggestions', 'read', 'inferred']),
    );
  });

  it('reads a CSV column (--column), quoted fields and all, and refuses a missing column', () => {
    const file = join(dir, 'offices.csv');
    writeFileSync(file, 'id,domicilio\n1,"Calle Hidalgo No. 103, Col. Centro, C.p. 43300, Atotonilco el Grande, Hidalgo"\n2,"Colonia Roma Norte, Cuauhtémoc, Ciudad de México"\n');
    const run = cpmx(['parse', file, '--column', 'Domicilio', '--quiet']);
    const results = lines(run.stdout);
    expect(results.map((result) => result.line)).toEqual([2, 3]);
    expect(results[0]).toMatchObject({ cp: '43300', municipio: 'Atotonilco el Grande' });
    expect(results[1]).toMatchObject({ cp: '06700' });
    const missing = cpmx(['parse', file, '--column', 'direccion']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/no column "direccion".*domicilio/);
  });

  it('answers a 10 MB line with 130 and goes on', () => {
    const file = join(dir, 'huge.txt');
    writeFileSync(file, `${'x'.repeat(10 * 1024 * 1024)}\nCOL DEL CARMEN 64710 MONTERREY,N.L.\n`);
    const run = cpmx(['parse', file, '--quiet']);
    const results = lines(run.stdout);
    expect(results).toHaveLength(2);
    expect(results[0]!.errors[0]).toMatchObject({ code_error: 130 });
    expect(results[0]!.errors[0]!.reason).toMatch(/longer than/);
    expect(results[1]).toMatchObject({ line: 2, cp: '64710', valid: true });
  });

  it('cpmx validate --address-column judges one-line addresses with validate results', () => {
    const file = join(dir, 'clients.csv');
    writeFileSync(file, 'cliente,direccion\n"Cliente 17, S.A. de C.V.","Av. Hidalgo 212 Norte, Matehuala, Jalisco. C.P. 78700"\nOtro,"COL DEL CARMEN 64710 MONTERREY,N.L."\n');
    const run = cpmx(['validate', file, '--address-column', 'direccion', '--quiet']);
    expect(run.status).toBe(1);
    const results = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(results[0]).toMatchObject({ line: 2, valid: false, suggestions: { estado: 'San Luis Potosí' } });
    expect(results[1]).toEqual({ line: 3, valid: true, errors: [], suggestions: {} });
    expect(cpmx(['validate', file, '--address-column', 'direccion', '--fix', join(dir, 'fixed.csv')]).status).toBe(2);
  });
});
