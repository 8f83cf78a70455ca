/**
 * Attacks on the new rules of `cpmx validate --fix` and of the reader (issues 33 and 37):
 * hostile rows never make --fix write anything worse than what was given, a stray quote does
 * not swallow the customers after it, huge and strange fields cost nothing and change nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultJobs } from '../../src/cli/commands/validate.js';
import { buildInto, FIXTURE, tempDir } from '../helpers.js';
import { validate } from './support.js';

const dir = tempDir();
let data: string;

beforeAll(async () => {
  data = await buildInto(FIXTURE, dir);
});

const HEADER = 'cp,colonia,municipio,estado,cliente';

/** Runs --fix on `rows` (after the header) and gives the run and the fixed file's text. */
function fix(name: string, rows: string[], args: string[] = []) {
  const input = join(dir, `${name}.csv`);
  const fixed = join(dir, `${name}.fixed.csv`);
  writeFileSync(input, `${[HEADER, ...rows].join('\n')}\n`);
  const run = validate(data, [input, '--fix', fixed, ...args]);
  return { run, text: readFileSync(fixed, 'utf8') };
}

describe('a stray quote', () => {
  it('makes only its own line unreadable, says where it opened and where reading resumed, and loses no customer', () => {
    const rows = [
      '09810,Minerva,Iztapalapa,CDMX,Ana',
      '09810,"Col. La Loma,Iztapalapa,CDMX,Beto',
      '09810,Minerva,Iztapalapa,CDMX,Carla',
      '09810,Granjas Esmeralda,Iztapalapa,CDMX,Dora',
      '09810,Minerva,Iztapalapa,CDMX,Eva',
      '09810,Minerva,Iztapalapa,CDMX,Fer',
      '09810,Minerva,Iztapa"lapa,CDMX,Gus',
      '09810,Minerva,Iztapalapa,CDMX,Hugo',
    ];
    for (const jobs of ['1', '2']) {
      const { run, text } = fix('stray', rows, ['--jobs', jobs]);
      const invalid = run.lines.filter((line) => !line.valid);
      expect(invalid.map((line) => line.line)).toEqual([3, 8]);
      expect(invalid[0]).toMatchObject({ line: 3, errors: [{ code_error: 130, reason: 'a quote opened on line 3 runs to line 8 (expected 5 fields, found 4); reading resumed on line 4' }] });
      expect(run.lines.map((line) => line.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
      expect(run.stderr).toContain('8 records, 6 valid, 2 invalid (121: 1, 130: 1)');
      expect(run.stderr).toContain('unreadable for a quote: line 3: a quote opened on line 3 runs to line 8');
      // Every customer written back, the unreadable one as it was.
      const written = text.trimEnd().split('\n');
      expect(written).toHaveLength(rows.length + 1);
      expect(written[2]).toBe('09810,"Col. La Loma,Iztapalapa,CDMX,Beto,invalid,130');
      // The quote that closed the stray one is read as part of its name: a municipality misspelt.
      expect(written[7]).toBe('09810,Minerva,Iztapalapa,CDMX,Gus,fixed,121');
    }
  });
});

describe('--fix against hostile rows', () => {
  it('rewrites only the field at fault, quoting the others exactly as csv-parse reads them back', () => {
    const hostile = ['"=HYPERLINK(""http://x"",""y"")"', '"a,b;c|d\ttab"', '"line\nbreak"', '"say ""hi"""', '"\u202Ebidi\u0007bel"', '"__proto__"'];
    const rows = hostile.map((client) => `1000,San Ángel,Álvaro Obregón,CDMX,${client}`);
    const { text } = fix('hostile', rows);
    const given = parseCsv(`${[HEADER, ...rows].join('\n')}\n`, { relax_column_count: true }) as string[][];
    const written = parseCsv(text, { relax_column_count: true }) as string[][];
    expect(written).toHaveLength(given.length);
    for (let i = 1; i < given.length; i++) {
      expect(written[i]!.slice(0, 5)).toEqual(['01000', ...given[i]!.slice(1, 5)]);
      expect(written[i]!.slice(5)).toEqual(['fixed', '102']);
    }
  });

  it('never writes a value the catalog did not give, and leaves huge and strange fields as they were', () => {
    const huge = 'M'.repeat(60_000);
    const rows = [
      `09810,${huge},Iztapalapa,CDMX,Ana`,
      '09810,=1+1,Iztapalapa,CDMX,Beto',
      '09810,Minerva\u0000,Iztapalapa,CDMX,Carla',
      '=1+1,Minerva,Iztapalapa,CDMX,Dora',
      '09810,Minerva,Iztapalapa,"=cmd|\' /C calc\'!A0",Eva',
    ];
    const { run, text } = fix('strange', rows);
    const written = text.trimEnd().split('\n');
    // No suggestion for a huge or formula-like settlement: written back as it was.
    expect(written[1]).toBe(`09810,${huge},Iztapalapa,CDMX,Ana,invalid,122`);
    expect(written[2]).toBe('09810,=1+1,Iztapalapa,CDMX,Beto,invalid,122');
    // A code the names name replaces a formula in the code column: a value of the catalog.
    expect(written[4]).toBe('09810,Minerva,Iztapalapa,CDMX,Dora,fixed,102');
    // A state field holding a formula is the one at fault: the code's state, from the catalog.
    expect(written[5]).toBe('09810,Minerva,Iztapalapa,Ciudad de México,Eva,fixed,120');
    expect(run.lines[0]).toMatchObject({ line: 2, suggestions: {} });
  });

  it('leaves a record whose names fit several codes, or none, as it was', () => {
    // Benito Juárez is a municipality of two states in the fixture: without a state, and with a
    // settlement of neither, it names no one code.
    const { text } = fix('ambiguous', ['99999,Roma Sur,Benito Juárez,,Ana', '99999,No Existe,No Existe,No Existe,Beto', ',,,,Carla']);
    expect(text.trimEnd().split('\n').slice(1)).toEqual(['99999,Roma Sur,Benito Juárez,,Ana,invalid,105', '99999,No Existe,No Existe,No Existe,Beto,invalid,105', ',,,,Carla,invalid,101']);
  });

  it('writes NDJSON back whole for hostile keys, changing only the field at fault', () => {
    const input = join(dir, 'hostile.ndjson');
    const fixed = join(dir, 'hostile.fixed.ndjson');
    const lines = [
      '{"__proto__":{"polluted":true},"cp":"1000","colonia":"San Ángel","constructor":"x"}',
      '{"cp":"","colonia":"Minerva","municipio":"Iztapalapa","estado":"CDMX","cpmx_status":"forged"}',
    ];
    writeFileSync(input, `${lines.join('\n')}\n`);
    validate(data, [input, '--fix', fixed]);
    const written = readFileSync(fixed, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(written[0]).toMatchObject({ cp: '01000', colonia: 'San Ángel', constructor: 'x', cpmx_status: 'fixed', cpmx_errors: [102] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(written[1]).toMatchObject({ cp: '09810', cpmx_status: 'fixed', cpmx_errors: [101] });
  });
});

describe('--jobs by default', () => {
  it('is one thread below 4 cores (measured: a second thread on 2 cores was slower), one per core from 4', () => {
    expect([1, 2, 3, 4, 8].map(defaultJobs)).toEqual([1, 1, 1, 4, 8]);
  });
});
