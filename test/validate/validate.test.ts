/**
 * Address validation: the library (`validateAddress`, `validateStream`) and `cpmx validate`
 * on hand-written fixtures against the fixture catalog (more in test/validate/).
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient, type CpmxClient } from '../../src/index.js';
import { validateAddress, validateStream, type LineResult } from '../../src/validate/index.js';
import { FIXTURE, buildInto, root, tempDir } from '../helpers.js';
import { bad, err, ok, unreadable, unverifiedCity, validate } from './support.js';

const dir = tempDir();
const CSV = join(root, 'test', 'fixtures', 'addresses.csv');
const NDJSON = join(root, 'test', 'fixtures', 'addresses.ndjson');
let dataPath: string;
let client: CpmxClient;

const cpmx = (args: string[], input?: string) => validate(dataPath, args, input);

/** What the fixture CSV must give, line by line (line = the record's line in the file). */
const EXPECTED_CSV = [
  ok(2),
  ok(3),
  bad(4, [err('cp', 102)], { cp: '01000' }),
  bad(5, [err('cp', 104)]),
  bad(6, [err('cp', 105)]),
  bad(7, [err('cp', 101)]),
  bad(8, [err('estado', 120)], { estado: 'Ciudad de México' }),
  bad(9, [err('municipio', 121)], { municipio: 'Iztapalapa' }),
  // `COL. GRANJAS ESMERALDA`: the type in front is set aside (core/names).
  ok(10),
  bad(11, [err('asentamiento', 122)]),
  bad(12, [err('ciudad', 123)], { ciudad: 'Tepexpan' }),
  // 55800 has no city in the catalog: Texcoco cannot be checked, so it is a warning (125), not an error.
  unverifiedCity(13),
  ok(14),
  bad(15, [unreadable('expected 5 fields, found 3')]),
  ok(16),
  ok(17),
  ok(19),
];

beforeAll(async () => {
  dataPath = await buildInto(FIXTURE, dir);
  client = createClient({ token: 'validate-test', dataPath });
});

describe('validateAddress', () => {
  it('accepts a right address, folding case, accents, punctuation, spaces, and state aliases', () => {
    expect(validateAddress(client, { cp: '09810', asentamiento: 'Granjas Esmeralda', municipio: 'Iztapalapa', estado: 'Ciudad de México', ciudad: 'Ciudad de México' }).valid).toBe(true);
    expect(validateAddress(client, { cp: '09810', asentamiento: '  GRANJAS   esmeralda ', estado: 'Distrito Federal' }).valid).toBe(true);
    expect(validateAddress(client, { cp: '09810', asentamiento: 'chalet la cumbre' }).valid).toBe(true);
    expect(validateAddress(client, { cp: '55800', estado: 'Edomex', ciudad: '' }).valid).toBe(true);
    expect(validateAddress(client, { cp: '09810' })).toEqual({ valid: true, errors: [], suggestions: {} });
  });

  it('reads a record by the same names as the command’s columns: colonia, codigo_postal, alcaldia ...', () => {
    expect(validateAddress(client, { cp: '09810', colonia: 'Minerva' }).valid).toBe(true);
    expect(validateAddress(client, { cp: '09810', colonia: 'Narvarte' })).toEqual({ valid: false, errors: [err('asentamiento', 122)], suggestions: {} });
    expect(validateAddress(client, { codigo_postal: '09810', alcaldia: 'Coyoacán', 'Código Postal': '99999' })).toEqual({
      valid: false,
      errors: [err('municipio', 121)],
      suggestions: { municipio: 'Iztapalapa' },
    });
    expect(validateAddress(client, { 'Código Postal': '1000' }).suggestions).toEqual({ cp: '01000' });
    expect(validateAddress(client, { d_codigo: '55810', 'D Ciudad': 'Texcoco' }).errors).toEqual([err('ciudad', 123)]);
  });

  it('does not match a different name, however close, and suggests the closest only when close', () => {
    expect(validateAddress(client, { cp: '09810', asentamiento: 'COL. GRANJAS ESMERALDO' })).toEqual({
      valid: false,
      errors: [err('asentamiento', 122)],
      suggestions: { asentamiento: 'Granjas Esmeralda' },
    });
    expect(validateAddress(client, { cp: '09810', asentamiento: 'COL. GRANJAS ESMERALDA' }).valid).toBe(true);
    expect(validateAddress(client, { cp: '09810', asentamiento: 'Col. Narvarte' }).errors).toEqual([err('asentamiento', 122)]);
    expect(validateAddress(client, { cp: '09810', asentamiento: 'Minerba' }).suggestions).toEqual({ asentamiento: 'Minerva' });
    expect(validateAddress(client, { cp: '09810', asentamiento: 'Polanco' }).suggestions).toEqual({});
  });

  it('reports only the code’s error for a bad code, with the contract’s code and message', () => {
    expect(validateAddress(client, { cp: '99999', estado: 'Texas', asentamiento: 'x' })).toEqual({ valid: false, errors: [err('cp', 105)], suggestions: {} });
    expect(validateAddress(client, { cp: '' }).errors).toEqual([err('cp', 101)]);
    expect(validateAddress(client, { cp: undefined }).errors).toEqual([err('cp', 101)]);
    expect(validateAddress(client, { cp: '098100' }).errors).toEqual([err('cp', 102)]);
    expect(validateAddress(client, { cp: '-0981' }).errors).toEqual([err('cp', 104)]);
  });

  it('suggests the code a spreadsheet damaged, only when it exists', () => {
    expect(validateAddress(client, { cp: 1000 })).toEqual({ valid: false, errors: [err('cp', 102)], suggestions: { cp: '01000' } });
    expect(validateAddress(client, { cp: '9810.0' }).suggestions).toEqual({ cp: '09810' });
    expect(validateAddress(client, { cp: ' 9810' }).suggestions).toEqual({ cp: '09810' });
    expect(validateAddress(client, { cp: '1001' })).toEqual({ valid: false, errors: [err('cp', 102)], suggestions: {} });
    // Written with its mark in front, as records that keep the code as printed do (`C.P. 30840`, test/validate/settlement-readings.test.ts).
    for (const cp of ['C.P. 09810', 'CP09810', 'c.p.: 09810', 'C. P. 9810']) expect(validateAddress(client, { cp }).suggestions, cp).toEqual({ cp: '09810' });
    expect(validateAddress(client, { cp: 'C.P. 99999' }).suggestions).toEqual({});
  });

  it('reports every wrong field in order, each with the code’s right value', () => {
    expect(validateAddress(client, { cp: '55810', asentamiento: 'Tepexpan', municipio: 'Texcoco', estado: 'Puebla', ciudad: 'Texcoco' })).toEqual({
      valid: false,
      errors: [err('estado', 120), err('municipio', 121), err('ciudad', 123)],
      suggestions: { estado: 'México', municipio: 'Acolman', ciudad: 'Tepexpan' },
    });
  });
});

describe('cpmx validate', () => {
  it('answers the fixture CSV line by line, every code and suggestion, exit 1', () => {
    const run = cpmx([CSV]);
    expect(run.status).toBe(1);
    expect(run.lines).toEqual(EXPECTED_CSV);
    expect(run.stdout.split('\n')[0]).toBe('{"line":2,"valid":true,"errors":[],"suggestions":{}}');
    expect(run.stderr).toMatch(
      /cpmx validate: 17 records, 8 valid \(1 with a city the catalog cannot check: 125\), 9 invalid \(101: 1, 102: 1, 104: 1, 105: 1, 120: 1, 121: 1, 122: 1, 123: 1, 130: 1\); CSV \(","\) in UTF-8; [\d.]+ s, [\d,]+ records\/s/,
    );
  });

  it('detects the delimiter (, ; | tab) and accepts a BOM, with the same answers', () => {
    const text = readFileSync(CSV, 'utf8');
    for (const [name, delimiter] of [['semicolon', ';'], ['tab', '\t'], ['pipe', '|']] as const) {
      // Commas outside quotes become the delimiter (a quoted field may span lines).
      let quoted = false;
      const converted = [...text]
        .map((c) => {
          if (c === '"') quoted = !quoted;
          return c === ',' && !quoted ? delimiter : c;
        })
        .join('');
      const path = join(dir, `${name}.csv`);
      writeFileSync(path, `\uFEFF${converted}`);
      expect(cpmx([path]).lines, name).toEqual(EXPECTED_CSV);
    }
    const crlf = join(dir, 'crlf.csv');
    writeFileSync(crlf, `\uFEFF${text.replaceAll('\n', '\r\n')}`);
    expect(cpmx([crlf]).lines).toEqual(EXPECTED_CSV);
  });

  it('reads stdin, as - or with no file', () => {
    const input = readFileSync(CSV, 'utf8');
    expect(cpmx(['-'], input).lines).toEqual(EXPECTED_CSV);
    expect(cpmx([], input).lines).toEqual(EXPECTED_CSV);
  });

  it('reads NDJSON (detected or forced), answering a broken line and a non-object with 130, skipping blank lines', () => {
    const expected = [
      ok(1),
      bad(2, [err('cp', 102)], { cp: '01000' }),
      bad(3, [unreadable('invalid JSON at column 2')]),
      bad(5, [unreadable('not a JSON object')]),
      bad(6, [err('ciudad', 123)], { ciudad: 'Tepexpan' }),
    ];
    expect(cpmx([NDJSON]).lines).toEqual(expected);
    expect(cpmx(['--input-format', 'ndjson', '-'], readFileSync(NDJSON, 'utf8')).lines).toEqual(expected);
  });

  it('gives every 130 its reason, next to the code', () => {
    const csv = cpmx(['-', '--invalid-only'], 'cp,colonia,municipio,estado,ciudad\n09810,Minerva,Iztapalapa,CDMX\n09810,"Minerva\n');
    expect(csv.lines).toEqual([bad(2, [unreadable('expected 5 fields, found 4')]), bad(3, [unreadable('unterminated quote opened on line 3; reading resumed on line 4')])]);
    const ndjson = cpmx(['-', '--invalid-only'], '{"cp":"09810","colonia":Minerva}\n["09810"]\n');
    expect(ndjson.lines).toEqual([bad(1, [unreadable('invalid JSON at column 25')]), bad(2, [unreadable('not a JSON object')])]);
    const long = cpmx(['-', '--invalid-only', '--max-record-bytes', '1024'], `cp,colonia\n09810,${'M'.repeat(2000)}\n09810,Minerva\n`);
    expect(long.lines).toEqual([bad(2, [unreadable('record longer than 1024 bytes')])]);
    expect(long.stderr).toContain('2 records, 1 valid, 1 invalid (130: 1)');
  });

  it('writes results as CSV rows with --format csv, and only the invalid ones with --invalid-only', () => {
    const run = cpmx([CSV, '--format', 'csv']);
    const rows = run.stdout.split('\n');
    expect(rows[0]).toBe('line,valid,errors,reason,suggested_cp,suggested_estado,suggested_municipio,suggested_asentamiento,suggested_ciudad,codes,warnings');
    expect(rows.slice(1, 4)).toEqual(['2,true,,,,,,,,,', '3,true,,,,,,,,,', '4,false,102,,01000,,,,,,']);
    expect(rows).toContain('8,false,120,,,Ciudad de México,,,,,');
    expect(rows).toContain('15,false,130,"expected 5 fields, found 3",,,,,,,');
    expect(rows).toHaveLength(EXPECTED_CSV.length + 2);
    const invalid = cpmx([CSV, '--invalid-only']);
    expect(invalid.status).toBe(1);
    expect(invalid.lines).toEqual(EXPECTED_CSV.filter((result) => !result.valid));
    expect(cpmx([CSV, '--invalid-only', '--format', 'csv']).stdout.split('\n')).toHaveLength(EXPECTED_CSV.filter((r) => !r.valid).length + 2);
  });

  it('finds the columns spreadsheets, INEGI’s DENUE and English exports name, the state’s too', () => {
    // DENUE's own column names (cod_postal, nomb_asent, entidad; its localidad is no city), a form's `C.P.` and `Entidad Federativa`, English names.
    const denue = join(dir, 'denue.csv');
    writeFileSync(denue, 'id,nomb_asent,cod_postal,entidad,municipio,localidad\n1,XALAPA ENRIQUEZ CENTRO,91000,Veracruz de Ignacio de la Llave,Xalapa,Xalapa-Enríquez\n2,XALAPA ENRIQUEZ CENTRO,91000,Oaxaca,Xalapa,Xalapa-Enríquez\n');
    const denueRun = cpmx([denue]);
    expect(denueRun.lines).toEqual([ok(2), bad(3, [err('estado', 120)], { estado: 'Veracruz de Ignacio de la Llave' })]);
    // What has no column is said to go unchecked: here the city.
    expect(denueRun.stderr).toContain('CSV (",") in UTF-8; no column for ciudad (not checked);');
    const form = join(dir, 'form.csv');
    writeFileSync(form, 'C.P.,Colonia,Delegación o Municipio,Entidad Federativa\n09810,Minerva,Iztapalapa,CDMX\n09810,Minerva,Coyoacán,CDMX\n');
    expect(cpmx([form]).lines).toEqual([ok(2), bad(3, [err('municipio', 121)], { municipio: 'Iztapalapa' })]);
    const english = join(dir, 'english.csv');
    writeFileSync(english, 'zip_code,neighborhood,municipality,state,city\n09810,Minerva,Iztapalapa,Jalisco,Ciudad de México\n');
    const englishRun = cpmx([english]);
    expect(englishRun.lines).toEqual([bad(2, [err('estado', 120)], { estado: 'Ciudad de México' })]);
    expect(englishRun.stderr).not.toContain('no column');
  });

  it('takes --column overrides, matching header names without case or accents', () => {
    const path = join(dir, 'custom.csv');
    writeFileSync(path, 'ID,Clave,Barrio,CIUDAD\n1,09810,Minerva,Ciudad de México\n2,09810,Nada,Ciudad de México\n');
    const run = cpmx([path, '--column', 'cp=clave', '--column', 'asentamiento=BARRIO']);
    expect(run.lines).toEqual([ok(2), bad(3, [err('asentamiento', 122)])]);
    const missing = cpmx([path]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/no postal-code column in the header \(ID, Clave, Barrio, CIUDAD\)/);
    const wrong = cpmx([path, '--column', 'cp=postal']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('--column cp=postal: the header has no column "postal"');
    expect(cpmx([path, '--column', 'zip=cp']).status).toBe(2);
  });

  it('exits 0 when every record is valid, 2 when the input cannot be read (empty too), writing nothing then', () => {
    const good = join(dir, 'good.csv');
    writeFileSync(good, 'cp,colonia\n09810,Minerva\n01000,San Ángel\n');
    expect(cpmx([good]).status).toBe(0);
    const headerOnly = join(dir, 'header-only.csv');
    writeFileSync(headerOnly, 'cp,colonia\n');
    expect(cpmx([headerOnly])).toMatchObject({ status: 0, stdout: '' });
    const missing = cpmx([join(dir, 'nope.csv')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/nope\.csv: file not found/);
    for (const [name, bytes, reason] of [
      ['empty.csv', '', 'the input is empty'],
      ['bom-only.csv', '\uFEFF', 'the input is empty'],
      ['blank-lines.csv', '\n \r\n', 'the input holds only blank lines'],
    ] as const) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const out = join(dir, `${name}.out`);
      const run = cpmx([path, '--output', out]);
      expect(run.status, name).toBe(2);
      expect(run.stderr, name).toContain(`${name}: ${reason}`);
      expect(existsSync(out), name).toBe(false);
    }
    expect(cpmx(['-'], '')).toMatchObject({ status: 2, stderr: 'cpmx validate: stdin: the input is empty\n' });
    const blank = join(dir, 'blank-header.csv');
    writeFileSync(blank, '\n09810,Minerva\n');
    const out = join(dir, 'blank.out');
    expect(cpmx([blank, '--output', out]).status).toBe(2);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('refuses an --output it cannot write before doing any work, exit 2, no trace', () => {
    const run = cpmx([CSV, '--output', join(dir, 'no-such-dir', 'out.ndjson')]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/cannot write --output .*no-such-dir\/out\.ndjson: ENOENT/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe('');
  });

  it('writes --output whole, the same bytes as stdout', () => {
    const out = join(dir, 'results.ndjson');
    const run = cpmx([CSV, '--output', out]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(readFileSync(out, 'utf8')).toBe(cpmx([CSV]).stdout);
  });
});

describe('validateStream', () => {
  it('validates an iterable of records in order, line = position', async () => {
    const results: LineResult[] = [];
    for await (const result of validateStream(client, [{ cp: '09810' }, { cp: '1000' }, 'not an object', { codigo_postal: '99999' }])) results.push(result);
    expect(results).toEqual([ok(1), bad(2, [err('cp', 102)], { cp: '01000' }), bad(3, [unreadable('not an object')]), bad(4, [err('cp', 105)])]);
  });

  it('validates a Readable of CSV bytes like the command does', async () => {
    const results: LineResult[] = [];
    for await (const result of validateStream(client, Readable.from([readFileSync(CSV)]))) results.push(result);
    expect(results).toEqual(EXPECTED_CSV);
  });
});
