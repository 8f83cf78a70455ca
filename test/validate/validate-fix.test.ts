/**
 * `cpmx validate --fix`: the input written back in its own encoding, delimiter and line ends,
 * with every unambiguous suggestion applied and `cpmx_status`, `cpmx_errors` added; a value
 * that was right is never rewritten.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, FIXTURE, buildInto, tempDir } from '../helpers.js';
import { utf16, validate, windows1252 } from './support.js';

const dir = tempDir();
let data: string;

beforeAll(async () => {
  data = await buildInto(FIXTURE, dir);
});

/** Each row: the record as given, then what --fix must write for it. */
const ROWS: [given: string, fixed: string][] = [
  ['1000,San Ángel,Álvaro Obregón,Ciudad de México,,Ana', '01000,San Ángel,Álvaro Obregón,Ciudad de México,,Ana,fixed,102'],
  ['9810.0,Minerva,Iztapalapa,,,Beto', '09810,Minerva,Iztapalapa,,,Beto,fixed,102'],
  [' 9810,Minerva,,,,"Carla, S.A."', '09810,Minerva,,,,"Carla, S.A.",fixed,104'],
  ['09810,Granjas Esmeralda,Iztapalapa,Jalisco,,Dora', '09810,Granjas Esmeralda,Iztapalapa,Ciudad de México,,Dora,fixed,120'],
  ['09810,Granjas Esmeralda,Coyoacán,,,Eva', '09810,Granjas Esmeralda,Iztapalapa,,,Eva,fixed,121'],
  ['55810,Tepexpan,Acolman,México,Texcoco,Fer', '55810,Tepexpan,Acolman,México,Tepexpan,Fer,fixed,123'],
  ['09810,Minerba,Iztapalapa,,,Gus', '09810,Minerva,Iztapalapa,,,Gus,fixed,122'],
  // The code first: once corrected, the record is checked again under it.
  ['1000,San Angel,,Jalisco,,Hugo', '01000,San Angel,,Ciudad de México,,Hugo,fixed,102 120'],
  ['55810,Tepexpn,Acolmn,Puebla,,Noe', '55810,Tepexpan,Acolman,México,,Noe,fixed,120 121 122'],
  // No unambiguous suggestion: left as written, invalid.
  ['99999,Centro,,,,Iris', '99999,Centro,,,,Iris,invalid,105'],
  ['09810,Polanco,,,,Juan', '09810,Polanco,,,,Juan,invalid,122'],
  // 55800 has no city in the catalog: a city written there cannot be checked (warning 125), so it is no error.
  ['55800,Santa Catarina,Acolman,México,Texcoco,Kim', '55800,Santa Catarina,Acolman,México,Texcoco,Kim,valid,'],
  ['55800,Santa Catarin,Acolman,,Texcoco,Lalo', '55800,Santa Catarina,Acolman,,Texcoco,Lalo,fixed,122'],
  ['09810,Minerva', '09810,Minerva,invalid,130'],
  // Right as written, or right once folded: never rewritten, byte for byte.
  ['09810,granjas  esmeralda,IZTAPALAPA,cdmx,ciudad de mexico,Luis', '09810,granjas  esmeralda,IZTAPALAPA,cdmx,ciudad de mexico,Luis,valid,'],
  ['"09810","Chalet ""La Cumbre""",Iztapalapa,CDMX,,Mar', '"09810","Chalet ""La Cumbre""",Iztapalapa,CDMX,,Mar,valid,'],
  ['', ''],
  ['09810,Minerva,Iztapalapa,Ciudad de México,Ciudad de México,Oscar', '09810,Minerva,Iztapalapa,Ciudad de México,Ciudad de México,Oscar,valid,'],
  // Written as people write names: right, so left as written; wrong, so fixed as any value.
  ['09810,Col. Granjas Esmeralda,Alc. Iztapalapa,CDMX,,Pia', '09810,Col. Granjas Esmeralda,Alc. Iztapalapa,CDMX,,Pia,valid,'],
  // Still invalid with every suggestion applied: written back as it was, never half-rewritten (issue 33).
  ['09810,Col. Narvarte,Alc. Coyoacán,Jal.,,Quique', '09810,Col. Narvarte,Alc. Coyoacán,Jal.,,Quique,invalid,120 121 122'],
];
/** What --canonical writes instead, where it differs from --fix: every accepted value in the catalog's spelling. */
const CANONICAL: Record<string, string> = {
  Hugo: '01000,San Ángel,,Ciudad de México,,Hugo,fixed,102 120',
  Luis: '09810,Granjas Esmeralda,Iztapalapa,Ciudad de México,Ciudad de México,Luis,valid,',
  Mar: '09810,"Chalet ""La Cumbre""",Iztapalapa,Ciudad de México,,Mar,valid,',
  Pia: '09810,Granjas Esmeralda,Iztapalapa,Ciudad de México,,Pia,valid,',
};
const HEADER = 'codigo_postal,colonia,municipio,estado,ciudad,cliente';
const GIVEN = `${[HEADER, ...ROWS.map(([given]) => given)].join('\n')}\n`;
const FIXED = `${[`${HEADER},cpmx_status,cpmx_errors`, ...ROWS.map(([, fixed]) => fixed)].join('\n')}\n`;

describe('cpmx validate --fix', () => {
  it('applies every kind of suggestion, and only where the record is wrong', () => {
    const path = join(dir, 'customers.csv');
    writeFileSync(path, GIVEN);
    const fixedPath = join(dir, 'customers.fixed.csv');
    for (const jobs of ['1', '2']) {
      const run = validate(data, [path, '--fix', fixedPath, '--jobs', jobs]);
      expect(run.status).toBe(1);
      expect(readFileSync(fixedPath, 'utf8')).toBe(FIXED);
      // The results are those of the records as given.
      expect(run.lines.map((r) => r.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 20, 21]);
      expect(run.lines[7]).toMatchObject({ line: 9, errors: [{ code_error: 102 }], suggestions: { cp: '01000' } });
    }
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('with --canonical, also writes every accepted value in the catalog’s spelling; refused without --fix', () => {
    const path = join(dir, 'canonical.csv');
    writeFileSync(path, GIVEN);
    const fixedPath = join(dir, 'canonical.fixed.csv');
    const expected = `${[`${HEADER},cpmx_status,cpmx_errors`, ...ROWS.map(([given, fixed]) => CANONICAL[given.split(',').at(-1)!] ?? fixed)].join('\n')}\n`;
    for (const jobs of ['1', '2']) {
      const run = validate(data, [path, '--fix', fixedPath, '--canonical', '--jobs', jobs]);
      expect(run.status).toBe(1);
      expect(readFileSync(fixedPath, 'utf8')).toBe(expected);
    }
    const ndjson = '{"cp":"09810","colonia":"COL. GRANJAS ESMERALDA","estado":"cdmx","municipio":"Alc. Iztapalapa"}\n';
    validate(data, ['-', '--fix', fixedPath, '--canonical'], ndjson);
    expect(readFileSync(fixedPath, 'utf8')).toBe(
      '{"cp":"09810","colonia":"Granjas Esmeralda","estado":"Ciudad de México","municipio":"Iztapalapa","cpmx_status":"valid","cpmx_errors":[]}\n',
    );
    const refused = validate(data, [path, '--canonical']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('--canonical rewrites the file --fix writes: give --fix FILE too');
  });

  it('writes the same from workers, in a file of many ranges', () => {
    const times = 2000;
    const path = join(dir, 'many.csv');
    writeFileSync(path, `${[HEADER, ...Array.from({ length: times }, () => ROWS.map(([given]) => given)).flat()].join('\n')}\n`);
    const fixedPath = join(dir, 'many.fixed.csv');
    validate(data, [path, '--fix', fixedPath, '--jobs', '3', '--quiet']);
    const expected = `${[`${HEADER},cpmx_status,cpmx_errors`, ...Array.from({ length: times }, () => ROWS.map(([, fixed]) => fixed)).flat()].join('\n')}\n`;
    expect(readFileSync(fixedPath, 'utf8') === expected).toBe(true);
  });

  it('changes nothing in a file that is right, beyond adding the two columns', () => {
    const rows = ROWS.filter(([, fixed]) => fixed.endsWith(',valid,'));
    const path = join(dir, 'right.csv');
    writeFileSync(path, `${HEADER}\r\n${rows.map(([given]) => given).join('\r\n')}`);
    const fixedPath = join(dir, 'right.fixed.csv');
    expect(validate(data, [path, '--fix', fixedPath]).status).toBe(0);
    expect(readFileSync(fixedPath, 'utf8')).toBe(`${HEADER},cpmx_status,cpmx_errors\r\n${rows.map(([given]) => `${given},valid,`).join('\r\n')}`);
  });

  it('writes back in the same encoding, delimiter and line ends', () => {
    // Excel on Windows: Windows-1252, ";" and CR LF; a curly-quoted note must come back as it was.
    const semicolons = (text: string) => text.replaceAll('"Carla, S.A."', '“Carla; S.A.”').replaceAll(',', ';').replaceAll('\n', '\r\n');
    const given = semicolons(GIVEN).replace('“Carla; S.A.”', '"“Carla; S.A.”"');
    const expected = semicolons(FIXED).replace('“Carla; S.A.”', '"“Carla; S.A.”"');
    const encodings = { 'Windows-1252': windows1252, 'UTF-16LE': (text: string) => utf16(text, 'le'), 'UTF-8 BOM': (text: string) => Buffer.from(`\uFEFF${text}`) };
    for (const [name, encode] of Object.entries(encodings)) {
      const path = join(dir, `excel-${name}.csv`);
      writeFileSync(path, encode(given));
      const fixedPath = join(dir, `excel-${name}.fixed.csv`);
      validate(data, [path, '--fix', fixedPath]);
      expect(readFileSync(fixedPath).equals(encode(expected)), name).toBe(true);
    }
  });

  it('writes NDJSON back with the two keys added, suggestions applied, unreadable lines as they were', () => {
    const given = [
      '{"cp":1000,"colonia":"San Ángel","id":1}',
      '{"cp": "09810", "colonia": "Minerva"}',
      '{"codigo_postal":"09810","colonia":"Minerba","Estado":"Jalisco"}',
      '{broken',
      '',
      '{}',
      '{"cp":"99999"}\r',
    ].join('\n');
    const fixed = [
      '{"cp":"01000","colonia":"San Ángel","id":1,"cpmx_status":"fixed","cpmx_errors":[102]}',
      '{"cp": "09810", "colonia": "Minerva","cpmx_status":"valid","cpmx_errors":[]}',
      '{"codigo_postal":"09810","colonia":"Minerva","Estado":"Ciudad de México","cpmx_status":"fixed","cpmx_errors":[120,122]}',
      '{broken',
      '',
      '{"cpmx_status":"invalid","cpmx_errors":[101]}',
      '{"cp":"99999","cpmx_status":"invalid","cpmx_errors":[105]}\r',
    ].join('\n');
    const fixedPath = join(dir, 'orders.fixed.ndjson');
    const run = validate(data, ['-', '--fix', fixedPath], given);
    expect(run.lines.map((r) => r.line)).toEqual([1, 2, 3, 4, 6, 7]);
    expect(readFileSync(fixedPath, 'utf8')).toBe(fixed);
  });

  it('writes the results and the fixed file together, each whole or not at all', () => {
    const path = join(dir, 'both.csv');
    writeFileSync(path, GIVEN);
    const output = join(dir, 'both.ndjson');
    const fixedPath = join(dir, 'both.fixed.csv');
    const run = validate(data, [path, '--fix', fixedPath, '--output', output, '--format', 'csv', '--invalid-only']);
    expect(run.stdout).toBe('');
    expect(readFileSync(fixedPath, 'utf8')).toBe(FIXED);
    expect(readFileSync(output, 'utf8').split('\n')[0]).toBe('line,valid,errors,reason,suggested_cp,suggested_estado,suggested_municipio,suggested_asentamiento,suggested_ciudad,codes,warnings');
    // A record too long to keep cannot be written back: refused, and neither file is written.
    const long = join(dir, 'long.csv');
    writeFileSync(long, `${HEADER}\n09810,${'x'.repeat(200_000)},,,,\n`);
    const refused = validate(data, [long, '--fix', join(dir, 'long.fixed.csv'), '--output', join(dir, 'long.ndjson')]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('line 2 holds a record longer than 65536 bytes, which --fix cannot write back; raise --max-record-bytes');
    expect(existsSync(join(dir, 'long.fixed.csv')) || existsSync(join(dir, 'long.ndjson'))).toBe(false);
    expect(validate(data, [path, '--fix', output, '--output', output]).stderr).toContain('--fix and --output must be different files');
  });
});

describe('cpmx validate stopped by a signal', () => {
  it('leaves neither --output nor --fix behind, nor their temporary files', async () => {
    const out = join(dir, 'stopped');
    mkdirSync(out);
    const child = spawn(process.execPath, [CLI, 'validate', '--data', data, '-', '--output', join(out, 'r.ndjson'), '--fix', join(out, 'f.csv')], { stdio: ['pipe', 'ignore', 'pipe'] });
    // Waits for the command to open its temporary files (the event itself, no sleep), the input still open.
    const opened = new Promise<void>((resolve) => {
      const watcher = watch(out, () => {
        if (readdirSync(out).filter((name) => name.endsWith('.tmp')).length === 2) {
          watcher.close();
          resolve();
        }
      });
    });
    child.stdin.write(`${HEADER}\n${ROWS.map(([given]) => given).join('\n')}\n`);
    await opened;
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(readdirSync(out)).toEqual([]);
  });
});
