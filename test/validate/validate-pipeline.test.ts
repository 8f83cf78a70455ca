/**
 * Issue 33's "Done when", on the real catalog (built from ../shared/data/sepomex; these tests
 * fail, never skip, without it), with cases sampled from it by a fixed seed
 * (test/support/pipeline-cases.ts; scripts/measure-pipeline.ts prints the same figures):
 * records with mistyped or missing codes and right names, misspelt settlements, right records
 * in everyday forms. Also which field is wrong on the issue's own examples, and a city the
 * catalog cannot check.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/core/catalog.js';
import type { CpmxClient } from '../../src/index.js';
import { validateAddress } from '../../src/validate/index.js';
import { validatorFor } from '../../src/validate/address.js';
import { buildRealCatalog, CLI, root, tempDir } from '../helpers.js';
import { everydayRecords, measurePipeline, mistypings, pipelineCases, typeForms } from '../support/pipeline-cases.js';

const dir = tempDir();
let artifact: string;
let catalog: Catalog;
let client: CpmxClient;

beforeAll(async () => ({ artifact, catalog, client } = await buildRealCatalog(dir, 'pipeline-test')));

describe('5,000 records with mistyped or missing codes and right names (issue 33)', () => {
  it('rewrites no right name, leaves no record invalid with fields changed, suggests and fills the right code', () => {
    const cases = pipelineCases(catalog, 5000, 33);
    const figures = measurePipeline(client, cases);
    expect(figures.records.mistyped).toBeGreaterThan(1000);
    expect(figures.records.missing).toBeGreaterThan(500);
    expect(figures.rightNamesRewritten).toBe(0);
    expect(figures.invalidWithChanges).toBe(0);
    for (const kind of ['mistyped', 'missing'] as const) expect(figures.rightCodeSuggested[kind] / figures.records[kind], kind).toBeGreaterThanOrEqual(0.9);
    expect(figures.codeFilled / (figures.records.mistyped + figures.records.missing)).toBeGreaterThanOrEqual(0.9);
    expect(figures.restored / figures.records.misspelt).toBeGreaterThanOrEqual(0.95);
    expect(figures.rightInvalid).toBe(0);
  });

  it('judges right records written with everyday forms (Rcha., Fracc., U.H., N.L., ...) invalid at most 1%', () => {
    const forms = typeForms(readFileSync(join(root, 'test', 'fixtures', 'settlement-type-forms.csv'), 'utf8'));
    const records = everydayRecords(catalog, forms, 5000, 34);
    expect(measurePipeline(client, records).rightInvalid / records.length).toBeLessThanOrEqual(0.01);
  });
});

describe('which field is wrong', () => {
  it('suggests the code the names name, never the names of the code as written (the issue’s example)', () => {
    // LOMAS DE CHAPULTEPEC I SECCIÓN is 11000; 01100 is a code of Álvaro Obregón.
    const result = validateAddress(client, { cp: '01100', asentamiento: 'LOMAS DE CHAPULTEPEC I SECCIÓN', municipio: 'Miguel Hidalgo', estado: 'Ciudad de México' });
    expect(result.valid).toBe(false);
    expect(result.suggestions).toEqual({ cp: '11000' });
    expect(result.codes).toBeUndefined();
  });

  it('suggests the code for a record without one, or with an impossible one', () => {
    const record = { asentamiento: 'LOMAS DE CHAPULTEPEC I SECCIÓN', municipio: 'Miguel Hidalgo', estado: 'CDMX' };
    for (const cp of ['', '1100a', '99999', 'abc']) {
      const result = validateAddress(client, { ...record, cp });
      expect(result.valid, cp).toBe(false);
      expect(result.suggestions, cp).toEqual({ cp: '11000' });
    }
  });

  it('takes a code back with its zero only where the names given allow it, else the code they name', () => {
    // A real office list that keeps its codes as numbers (cpmx search index file 49215892530): its zeros are lost, its names right.
    expect(validateAddress(client, { cp: 6030, colonia: 'TABACALERA', municipio: 'CUAUHTEMOC', estado: 'DISTRITO FEDERAL' }).suggestions).toEqual({ cp: '06030' });
    expect(validateAddress(client, { cp: 9820, colonia: 'SANTA ISABEL INDUSTRIAL', municipio: 'IZTAPALAPA', estado: 'DISTRITO FEDERAL' }).suggestions).toEqual({ cp: '09820' });
    // One name wrong, the others the code's: the code stands, as for any code (the state is the field at fault).
    expect(validateAddress(client, { cp: '6030', colonia: 'Tabacalera', municipio: 'Cuauhtémoc', estado: 'Jalisco' }).suggestions).toEqual({ cp: '06030' });
    // Names of another code: 60000 lost its last digit, not its first; 06000 is the capital's Centro.
    expect(validateAddress(client, { cp: '6000', colonia: 'Uruapan Centro', municipio: 'Uruapan', estado: 'Michoacán' }).suggestions).toEqual({ cp: '60000' });
    // A name that is not the code's, naming none alone: nothing is suggested (no longer 06000).
    expect(validateAddress(client, { cp: '6000', colonia: 'Uruapan Centro' }).suggestions).toEqual({});
  });

  it('reads no side after a joining word as a section: La Villa is no Villa del Sur', () => {
    // The fixture's real line `5 de Febrero y Vicente Villada Col. La Villa, C.P. 7050, Ciudad de México` (the Basilica's Villa,
    // Gustavo A. Madero's 07050) suggested Tlalpan's 14307 *Villa del Sur*, read as a *Villa* divided by a side.
    expect(validateAddress(client, { cp: '07050', asentamiento: 'La Villa', estado: 'Ciudad de México' }).suggestions).toEqual({});
  });

  it('reads the city written for a missing municipality, as the places it is in, and only the codes of that city', () => {
    // Real records without code, municipality or state: a pharmacy chain's branches in Los Mochis (municipality Ahome),
    // https://github.com/IvanDLaCruz/farmacias-ahorramax-page/blob/4a13cc15fcfe7d1fc4d009847441f75cb53751e8/src/components/Sucursales/sucursalesSinaloa.js
    const branch = (colonia: string, ciudad = 'Los Mochis') => validateAddress(client, { cp: '', colonia, ciudad });
    expect(branch('Fracc. Nuevo Horizonte').suggestions).toEqual({ cp: '81233' });
    expect(branch('Fracc. Alamos Country').suggestions).toEqual({ cp: '81271' });
    expect(branch('Col. Libertad').suggestions).toEqual({ cp: '81230' });
    expect(branch('Col. Jiquilpan').codes).toEqual(['81220', '81229']);
    // Ahome's other downtowns are in other cities (Ahome Centro, Topolobampo Centro): never listed for Los Mochis.
    expect(branch('Col. Centro')).toMatchObject({ suggestions: {} });
    expect(branch('Col. Centro').codes).toBeUndefined();
    // A municipality written as the city names it too (store locators write it so); a city alone names no code.
    expect(validateAddress(client, { cp: '', asentamiento: 'Nuevo Horizonte', ciudad: 'Ahome' }).suggestions).toEqual({ cp: '81233' });
    expect(validateAddress(client, { cp: '', ciudad: 'Los Mochis' }).suggestions).toEqual({});
  });

  it('lists a few codes and suggests none when the names fit several', () => {
    // Find a settlement name that one municipality has under two to five codes.
    const finder = new Map<string, Set<string>>();
    for (let code = 0; code < catalog.postalCodes().length && finder.size < 200_000; code++) {
      for (let s = catalog.settlementStartOf(code); s < catalog.settlementEndOf(code); s++) {
        const key = `${catalog.stateOf(code)}\u0000${catalog.municipalityOf(code)}\u0000${catalog.settlementName(s)}`;
        finder.set(key, (finder.get(key) ?? new Set()).add(catalog.postalCode(code)));
      }
    }
    const [key, codes] = [...finder].find(([, found]) => found.size >= 2 && found.size <= 5)!;
    const [estado, municipio, asentamiento] = key.split('\u0000') as [string, string, string];
    const result = validateAddress(client, { cp: '', asentamiento, municipio, estado });
    expect(result.suggestions).toEqual({});
    expect(new Set(result.codes)).toEqual(codes);

    // --format csv carries them in its `codes` column, separated by spaces.
    const input = join(dir, 'several.csv');
    writeFileSync(input, `cp,asentamiento,municipio,estado\n,"${asentamiento}","${municipio}","${estado}"\n`);
    const run = spawnSync(process.execPath, [CLI, 'validate', input, '--format', 'csv', '--data', artifact, '--quiet'], { encoding: 'utf8' });
    const [header, row] = run.stdout.split('\n') as [string, string];
    const columns = header.split(',');
    const values = row.split(',');
    expect(new Set(values[columns.indexOf('codes')]!.split(' '))).toEqual(codes);
    expect(values[columns.indexOf('warnings')]).toBe('');
  });

  it('still suggests the code’s right value for a field that alone is wrong', () => {
    const result = validateAddress(client, { cp: '11000', asentamiento: 'Lomas de Chapultepec I Sección', municipio: 'Álvaro Obregón', estado: 'Ciudad de México' });
    expect(result.suggestions).toEqual({ municipio: 'Miguel Hidalgo' });
    const misspelt = validateAddress(client, { cp: '11000', asentamiento: 'Lomas de Chapultepek I Sección', municipio: 'Miguel Hidalgo', estado: 'Ciudad de México' });
    expect(misspelt.suggestions).toEqual({ asentamiento: 'Lomas de Chapultepec I Sección' });
  });

  it('reads a downtown as people write it (Centro), and --fix never moves a right code to another Centro', () => {
    // 64000's settlements are La Finca and Monterrey Centro; 64720 has a Fraccionamiento named Centro.
    const right = [
      { cp: '64000', asentamiento: 'Centro', municipio: 'Monterrey', estado: 'Nuevo León' },
      { cp: '64000', asentamiento: 'Col. Centro', municipio: 'Monterrey', estado: 'N.L.' },
      { cp: '22000', asentamiento: 'Centro', municipio: 'Tijuana', estado: 'Baja California' },
      { cp: '06000', asentamiento: 'COL. CENTRO', municipio: 'Cuauhtémoc', estado: 'CDMX' },
      { cp: '44100', asentamiento: 'Centro', municipio: 'Guadalajara', estado: 'Jalisco' },
      { cp: '64000', asentamiento: 'Zona Centro', municipio: 'Monterrey', estado: 'Nuevo León' },
      { cp: '06000', asentamiento: 'Centro Histórico', municipio: 'Cuauhtémoc', estado: 'Ciudad de México' },
    ];
    for (const record of right) expect(validateAddress(client, record), record.cp).toMatchObject({ valid: true, errors: [] });
    // Del Valle is neither the municipality nor the city of 03100: Centro is not its Del Valle Centro.
    expect(validateAddress(client, { cp: '03100', asentamiento: 'Centro', municipio: 'Benito Juárez', estado: 'CDMX' }).errors.map((e) => e.code_error)).toEqual([122]);
    // Without a code, Centro in Monterrey names both codes: listed, not filled.
    for (const asentamiento of ['Centro', 'Zona Centro']) {
      const missing = validateAddress(client, { cp: '', asentamiento, municipio: 'Monterrey', estado: 'Nuevo León' });
      expect(missing.suggestions, asentamiento).toEqual({});
      expect(missing.codes, asentamiento).toEqual(['64000', '64720']);
    }

    const input = join(dir, 'downtown.csv');
    const fixed = join(dir, 'downtown.fixed.csv');
    writeFileSync(input, `cp,asentamiento,municipio,estado\n${right.map((r) => `${r.cp},${r.asentamiento},${r.municipio},${r.estado}`).join('\n')}\n`);
    const run = spawnSync(process.execPath, [CLI, 'validate', input, '--fix', fixed, '--data', artifact, '--quiet'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(readFileSync(fixed, 'utf8')).toBe(`${readFileSync(input, 'utf8').split('\n').map((line, i) => (line === '' ? line : `${line},${i === 0 ? 'cpmx_status,cpmx_errors' : 'valid,'}`)).join('\n')}`);
  });

  it('reads Centro as the code\'s town itself where the catalog does not divide the town (a Pueblo named as its place)', () => {
    // Real records of a satellite TV chain's stores, written CENTRO where the code's settlement is the town:
    // https://github.com/anahiarguellodish/on/blob/d82a9df91fdcbab542db031c2438c059d1ae9f52/on-web-prod/src/locations/dishonLocations.js
    const stores = [
      { cp: '54240', colonia: 'CENTRO', ciudad: 'JILOTEPEC', seat: 'Jilotepec de Molina Enríquez' },
      { cp: '51900', colonia: 'CENTRO', ciudad: 'IXTAPAN DE LA SAL', seat: 'Ixtapan de la Sal' },
      { cp: '56800', colonia: 'CENTRO', ciudad: 'OZUMBA', seat: 'Ozumba de Alzate' },
      { cp: '51000', colonia: 'COL CENTRO', ciudad: 'VILLA DE ALLENDE', seat: undefined },
      { cp: '50400', colonia: 'CENTRO', ciudad: 'TEMASCALCINGO', seat: 'Temascalcingo de José María Velazco' },
    ];
    for (const { cp, colonia, ciudad, seat } of stores) {
      const result = validateAddress(client, { cp, colonia, estado: 'MEXICO', ciudad });
      expect(result, `${colonia} ${cp}`).toMatchObject({ valid: true, errors: [] });
      const fix = validatorFor(client).fix(cp, colonia, '', 'MEXICO', ciudad, result, true);
      if (seat) expect(fix.changes.asentamiento, cp).toBe(seat);
    }
    // A code whose town has colonias of its own, none a downtown, and no Pueblo of its name: still 122 (Del Valle, above).
    expect(validateAddress(client, { cp: '03100', asentamiento: 'Col. Centro' }).errors.map((e) => e.code_error)).toEqual([122]);
    // A code with a Centro of its own answers with it, never with a town: 64000 is Monterrey Centro.
    const monterrey = validatorFor(client).fix('64000', 'Centro', '', '', '', validateAddress(client, { cp: '64000', asentamiento: 'Centro' }), true);
    expect(monterrey.changes.asentamiento).toBe('Monterrey Centro');
    // Only a downtown is read so: another name at a town's code is still judged (Perote's 91270 has Los Pescados and Perote).
    expect(validateAddress(client, { cp: '91270', asentamiento: 'Col. Centro' })).toMatchObject({ valid: true });
    // Without a code, Centro in a municipality where the catalog has none names its undivided towns; Monterrey's Centro is as above.
    expect(validateAddress(client, { cp: '', asentamiento: 'Centro', municipio: 'Perote', estado: 'Veracruz' }).suggestions).toEqual({ cp: '91270' });
    expect(validateAddress(client, { cp: '99999', asentamiento: 'Col. Centro', municipio: 'Ozumba', estado: 'México' }).suggestions).toEqual({ cp: '56800' });
    // A town named as its municipality without the municipality's surname: Alto Lucero, a Villa, of Alto Lucero de Gutiérrez Barrios.
    expect(validateAddress(client, { cp: '91460', asentamiento: 'COL. CENTRO', estado: 'VER.' })).toMatchObject({ valid: true });
    expect(validateAddress(client, { cp: '91270', asentamiento: 'Col. Las Flores' }).errors.map((e) => e.code_error)).toEqual([122]);
  });

  it('reads a settlement with the code\'s municipality or city written after it, and only that place', () => {
    // The same file writes FUENTES DEL VALLE TULTITLAN for Fuentes del Valle, 54910 (Tultitlán).
    expect(validateAddress(client, { cp: '54910', colonia: 'FUENTES DEL VALLE TULTITLAN', estado: 'MEXICO', ciudad: 'TULTITLAN' })).toMatchObject({ valid: true });
    expect(validateAddress(client, { cp: '91270', colonia: 'Centro Perote' })).toMatchObject({ valid: true });
    // Another municipality after the name is no place of the code's: still 122; the municipality alone names no settlement.
    expect(validateAddress(client, { cp: '54910', colonia: 'Fuentes del Valle Ecatepec' }).errors.map((e) => e.code_error)).toEqual([122]);
    expect(validateAddress(client, { cp: '54910', colonia: 'Tultitlán' }).errors.map((e) => e.code_error)).toEqual([122]);
  });

  it('mistypings are the codes one digit or one swap away that exist', () => {
    expect(mistypings(catalog, '11000')).toContain('01100');
    expect(mistypings(catalog, '11000')).not.toContain('11000');
  });
});

describe('a city written as people write it', () => {
  it('is its municipality’s name when the city’s name holds it (Puebla for Heroica Puebla de Zaragoza), never another city', () => {
    const right = [
      { cp: '72000', asentamiento: 'Centro', municipio: 'Puebla', estado: 'Puebla', ciudad: 'Puebla' },
      { cp: '76000', asentamiento: 'Centro', municipio: 'Querétaro', estado: 'Querétaro', ciudad: 'Querétaro' },
      { cp: '34000', asentamiento: 'Zona Centro', municipio: 'Durango', estado: 'Durango', ciudad: 'DURANGO' },
    ];
    for (const record of right) expect(validateAddress(client, record), record.cp).toMatchObject({ valid: true, errors: [] });
    // Cancún's municipality is Benito Juárez: that name is no name of the city.
    const cancun = validateAddress(client, { cp: '77500', asentamiento: 'Cancún Centro', municipio: 'Benito Juárez', estado: 'Quintana Roo', ciudad: 'Benito Juárez' });
    expect(cancun.errors.map((e) => e.code_error)).toEqual([123]);
    expect(cancun.suggestions).toEqual({ ciudad: 'Cancún' });
  });
});

describe('a city the catalog cannot check', () => {
  it('is a warning (125), not error 123, where the code has no city; counted apart in the summary', () => {
    const codes = catalog.postalCodes();
    let code = 0;
    while (catalog.cityOf(code).trim() !== '') code++;
    const cp = codes[code]!;
    const result = validateAddress(client, { cp, ciudad: 'Una Localidad Cualquiera' });
    expect(result.valid).toBe(true);
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([{ field: 'ciudad', code_error: 125, error_message: 'La ciudad no se puede verificar: el cp no tiene ciudad' }]);
    // A code with a city still says a wrong one is wrong.
    let withCity = 0;
    while (catalog.cityOf(withCity).trim() === '') withCity++;
    expect(validateAddress(client, { cp: codes[withCity]!, ciudad: 'Una Localidad Cualquiera' }).errors.map((e) => e.code_error)).toEqual([123]);

    const input = join(dir, 'cities.csv');
    writeFileSync(input, `cp,ciudad\n${cp},Una Localidad Cualquiera\n${cp},\n`);
    const run = spawnSync(process.execPath, [CLI, 'validate', input, '--data', artifact], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stderr).toContain('2 records, 2 valid (1 with a city the catalog cannot check: 125), 0 invalid');
    expect(JSON.parse(run.stdout.split('\n')[0]!).warnings[0].code_error).toBe(125);
    // --format csv carries it in its `warnings` column; the record with no city has none.
    const csv = spawnSync(process.execPath, [CLI, 'validate', input, '--format', 'csv', '--data', artifact], { encoding: 'utf8' });
    expect(csv.stdout.split('\n').slice(0, 3)).toEqual([
      'line,valid,errors,reason,suggested_cp,suggested_estado,suggested_municipio,suggested_asentamiento,suggested_ciudad,codes,warnings',
      '2,true,,,,,,,,,125',
      '3,true,,,,,,,,,',
    ]);
  });
});

describe('cpmx validate --fix on the real catalog', () => {
  it('fills a missing code and corrects a mistyped one; leaves a record it cannot make valid as it was', () => {
    const input = join(dir, 'customers.csv');
    const fixed = join(dir, 'customers.fixed.csv');
    writeFileSync(
      input,
      [
        'cp,colonia,municipio,estado,cliente',
        '01100,LOMAS DE CHAPULTEPEC I SECCIÓN,Miguel Hidalgo,Ciudad de México,Ana',
        ',Lomas de Chapultepec I Sección,Miguel Hidalgo,CDMX,Beto',
        '01100,Colonia Que No Existe,Miguel Hidalgo,Jalisco,Carla',
      ].join('\n') + '\n',
    );
    const run = spawnSync(process.execPath, [CLI, 'validate', input, '--fix', fixed, '--data', artifact, '--quiet'], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(readFileSync(fixed, 'utf8').split('\n')).toEqual([
      'cp,colonia,municipio,estado,cliente,cpmx_status,cpmx_errors',
      '11000,LOMAS DE CHAPULTEPEC I SECCIÓN,Miguel Hidalgo,Ciudad de México,Ana,fixed,121 122',
      '11000,Lomas de Chapultepec I Sección,Miguel Hidalgo,CDMX,Beto,fixed,101',
      '01100,Colonia Que No Existe,Miguel Hidalgo,Jalisco,Carla,invalid,120 121 122',
      '',
    ]);
  });
});
