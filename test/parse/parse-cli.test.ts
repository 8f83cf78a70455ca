/**
 * `cpmx parse` and `cpmx validate --address-column` at their edges (issue 33.5): a CSV given
 * without --column has its header detected and its address column found by name, or is
 * refused with exit 2 and the columns it has (never its header and ids read as addresses);
 * --output (whole or not at all), --format csv and --id-column passed through.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_PARTS } from '../../src/validate/index.js';
import { buildInto, CLI, FIXTURE, tempDir } from '../helpers.js';

const dir = tempDir();
let dataPath: string;

beforeAll(async () => {
  dataPath = await buildInto(FIXTURE, dir);
});

function cpmx(args: string[], input = '') {
  const result = spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, CPMX_DATA: dataPath, CPMX_TOKEN: '' }, input, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const results = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));

const CUSTOMERS = 'id,direccion\n1,"Col. Minerva, Iztapalapa, C.P. 09810, CDMX"\n2,"Av. Juárez 10, Col. Minerva, Iztapalapa, C.P. 99999"\n';

describe('cpmx parse FILE.csv without --column', () => {
  it('finds the address column by name, never reading the header or an id as an address', () => {
    const file = join(dir, 'customers.csv');
    writeFileSync(file, CUSTOMERS);
    const run = cpmx(['parse', file, '--quiet']);
    const parsed = results(run.stdout);
    expect(parsed.map((result) => result.line)).toEqual([2, 3]);
    expect(parsed[0]).toMatchObject({ cp: '09810', asentamiento: 'Minerva', estado: 'Ciudad de México', valid: true });
    expect(parsed[1]).toMatchObject({ cp: '99999', valid: false, errors: [{ code_error: 105 }], suggestions: { cp: '09810' } });
  });

  it('reads a header in a file not named .csv too, and one address a line otherwise', () => {
    const file = join(dir, 'customers.txt');
    writeFileSync(file, CUSTOMERS);
    expect(results(cpmx(['parse', file, '--quiet']).stdout).map((result) => result.line)).toEqual([2, 3]);
    const plain = join(dir, 'plain.txt');
    writeFileSync(plain, 'Col. Minerva, Iztapalapa, CDMX, C.P. 09810\nCentro, Iztapalapa, Jalisco\n');
    expect(results(cpmx(['parse', plain, '--quiet']).stdout).map((result) => result.line)).toEqual([1, 2]);
  });

  it('reads a CSV of one column whose header is the address column, .csv or not', () => {
    for (const name of ['addresses.csv', 'addresses.txt']) {
      const file = join(dir, name);
      writeFileSync(file, 'Direccion\n"Col. Minerva, Iztapalapa, C.P. 09810, CDMX"\n"Av. Madero 63, Centro, 58000 Morelia, Mich."\n');
      const parsed = results(cpmx(['parse', file, '--quiet']).stdout);
      expect(parsed.map((result) => [result.line, result.cp, result.valid]), name).toEqual([
        [2, '09810', true],
        [3, '58000', true],
      ]);
    }
  });

  it('refuses a CSV without an address column, exit 2, listing its columns', () => {
    const file = join(dir, 'no-address.csv');
    writeFileSync(file, 'id,nombre,telefono\n1,Ana,555\n');
    const run = cpmx(['parse', file]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('names no address column (it has: "id", "nombre", "telefono"): say which with --column NAME');
    const two = join(dir, 'two.csv');
    writeFileSync(two, 'direccion,domicilio\na,b\n');
    expect(cpmx(['parse', two]).stderr).toContain('several address columns ("direccion", "domicilio")');
  });
});

describe('cpmx parse options', () => {
  it('passes an id column through, in NDJSON and in CSV rows', () => {
    const file = join(dir, 'ids.csv');
    writeFileSync(file, CUSTOMERS);
    const ndjson = results(cpmx(['parse', file, '--id-column', 'id', '--quiet']).stdout);
    expect(ndjson.map((result) => [result.line, result.id])).toEqual([
      [2, '1'],
      [3, '2'],
    ]);
    const csv = parseCsv(cpmx(['parse', file, '--id-column', 'id', '--format', 'csv', '--quiet']).stdout, { columns: true }) as Record<string, string>[];
    expect(Object.keys(csv[0]!)).toEqual(['line', 'id', ...ADDRESS_PARTS, 'valid', 'errors', 'reason', 'suggested_cp', 'codes']);
    expect(csv[0]).toMatchObject({ line: '2', id: '1', cp: '09810', valid: 'true', errors: '' });
    expect(csv[1]).toMatchObject({ line: '3', id: '2', cp: '99999', valid: 'false', errors: '105', suggested_cp: '09810' });
    const missing = cpmx(['parse', file, '--id-column', 'cliente']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('--id-column cliente: the header has no column "cliente"');
    expect(cpmx(['parse', '-', '--id-column', 'id'], 'Col. Minerva 09810\n').status).toBe(2);
  });

  it('writes --output whole, and nothing when the input cannot be read', () => {
    const file = join(dir, 'out-input.csv');
    writeFileSync(file, CUSTOMERS);
    const output = join(dir, 'parsed.ndjson');
    const run = cpmx(['parse', file, '--output', output, '--quiet']);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(results(readFileSync(output, 'utf8')).map((result) => result.line)).toEqual([2, 3]);
    const refused = join(dir, 'refused.ndjson');
    expect(cpmx(['parse', join(dir, 'no-address.csv'), '--output', refused]).status).toBe(2);
    expect(existsSync(refused)).toBe(false);
    expect(cpmx(['parse', file, '--output', file]).status).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe(CUSTOMERS);
  });

  it('cpmx validate --address-column writes --output and --format csv', () => {
    const file = join(dir, 'validate-lines.csv');
    writeFileSync(file, CUSTOMERS);
    const output = join(dir, 'validated.csv');
    expect(cpmx(['validate', file, '--address-column', 'direccion', '--output', output, '--format', 'csv', '--quiet']).status).toBe(1);
    expect(readFileSync(output, 'utf8').split('\n').slice(0, 3)).toEqual(['line,valid,errors,reason,suggested_cp,codes', '2,true,,,,', '3,false,105,,09810,']);
  });
});
