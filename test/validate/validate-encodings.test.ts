/**
 * Excel-style files in every encoding cpmx validate reads (UTF-8 with and without BOM, UTF-16
 * with BOM, Windows-1252), with accented names and headers: each is judged exactly as its
 * UTF-8 twin. A file that is not valid in its encoding is refused with the line.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/index.js';
import { validateStream, type LineResult } from '../../src/validate/index.js';
import { CLI, FIXTURE, buildInto, tempDir } from '../helpers.js';
import { bad, err, ok, utf16, validate, windows1252 } from './support.js';

const dir = tempDir();
let data: string;

beforeAll(async () => {
  data = await buildInto(FIXTURE, dir);
});

/** As Excel for Windows saves a sheet: `;`, CRLF, accented header names and values. */
const EXCEL = [
  'Código Postal;Colonia;Alcaldía;Estado;Ciudad;Notas',
  '09810;Granjas Esmeralda;Iztapalapa;Ciudad de México;Ciudad de México;“Entrega” – mañana',
  '01000;San Ángel;Álvaro Obregón;CDMX;;',
  '1000;San Ángel;;;;',
  '55810;Tepexpan;Acolman;México;Tepexpan;€ 20',
  '09810;Minerba;Iztapalapa;Jalisco;;',
  '91000;Xalapa Enríquez Centro;Xalapa;Veracruz;Xalapa-Enríquez;',
  '61000;El Rincón;Zitácuaro;Michoacán;;',
  '09810;Progreso del Sur;Álvaro Obregón;;;',
].join('\r\n');

const EXPECTED = [
  ok(2),
  ok(3),
  bad(4, [err('cp', 102)], { cp: '01000' }),
  ok(5),
  bad(6, [err('estado', 120), err('asentamiento', 122)], { estado: 'Ciudad de México', asentamiento: 'Minerva' }),
  ok(7),
  ok(8),
  bad(9, [err('municipio', 121)], { municipio: 'Iztapalapa' }),
];

const ENCODINGS = {
  'UTF-8': Buffer.from(EXCEL, 'utf8'),
  'UTF-8 with BOM': Buffer.from(`\uFEFF${EXCEL}`, 'utf8'),
  'UTF-16LE with BOM': utf16(EXCEL, 'le'),
  'UTF-16BE with BOM': utf16(EXCEL, 'be'),
  'Windows-1252': windows1252(EXCEL),
};

describe('cpmx validate on Excel-style files', () => {
  it('judges the UTF-8 file right: accented values match, accented headers are found', () => {
    const run = validate(data, ['-'], ENCODINGS['UTF-8']);
    expect(run.lines).toEqual(EXPECTED);
    expect(run.status).toBe(1);
  });

  it('judges every encoding exactly as its UTF-8 twin, and says which it read', () => {
    const twin = validate(data, ['-'], ENCODINGS['UTF-8']).stdout;
    for (const [name, bytes] of Object.entries(ENCODINGS)) {
      const path = join(dir, `excel-${name.replaceAll(' ', '-')}.csv`);
      writeFileSync(path, bytes);
      for (const jobs of ['1', '2']) {
        const run = validate(data, [path, '--jobs', jobs]);
        expect(run.stdout, `${name}, --jobs ${jobs}`).toBe(twin);
        expect(run.stderr, name).toContain(`; CSV (";") in ${name};`);
      }
    }
  });

  it('judges a file of many ranges (read by workers) in every encoding as its UTF-8 twin', () => {
    const [header, ...rows] = EXCEL.split('\r\n');
    const large = [header, ...Array.from({ length: 3000 }, () => rows).flat()].join('\r\n');
    const twin = validate(data, ['-', '--jobs', '1'], Buffer.from(large));
    expect(twin.lines).toHaveLength(3000 * rows.length);
    const variants = { 'UTF-8 with BOM': Buffer.from(`\uFEFF${large}`), 'UTF-16LE with BOM': utf16(large, 'le'), 'UTF-16BE with BOM': utf16(large, 'be'), 'Windows-1252': windows1252(large) };
    for (const [name, bytes] of Object.entries(variants)) expect(validate(data, ['-', '--jobs', '3'], bytes).stdout, name).toBe(twin.stdout);
  });

  it('reads a UTF-16 file of many reads as its UTF-8 twin, a line end split between two reads', () => {
    // A file is read 64 KB at a time into one buffer that each read reuses: a CR at the end of
    // one read waits for the next (it may be half of a CR LF), so it must be kept as a copy.
    // Lines end in a CR alone (Excel for Mac): a CR overwritten by the next read would join two
    // records into one.
    const [header, ...rows] = EXCEL.split('\r\n');
    let large = [header, ...Array.from({ length: 3000 }, () => rows).flat()].join('\r');
    // The second read ends at character 65,534 after the byte-order mark (64 KB less its 2 bytes, then 64 KB).
    const crAt = 65_534;
    const before = large.lastIndexOf('\r', crAt);
    large = `${large.slice(0, before)}${'x'.repeat(crAt - before)}${large.slice(before)}`;
    expect(large[crAt]).toBe('\r');
    // What the third read leaves where the CR was, were it not copied.
    expect(large[crAt + 32_768]).not.toBe('\r');
    const twin = validate(data, ['-', '--jobs', '1'], Buffer.from(large));
    expect(twin.lines).toHaveLength(3000 * rows.length);
    for (const endian of ['le', 'be'] as const) {
      const path = join(dir, `large-utf-16${endian}.csv`);
      writeFileSync(path, utf16(large, endian));
      for (const jobs of ['1', '2']) expect(validate(data, [path, '--jobs', jobs]).stdout, `UTF-16${endian.toUpperCase()}, --jobs ${jobs}`).toBe(twin.stdout);
    }
  });

  it('takes --encoding over what the bytes suggest', () => {
    // UTF-8 bytes read as Windows-1252: the accents become other letters, and the header no
    // longer names a postal-code column.
    const misread = validate(data, ['-', '--encoding', 'latin1'], ENCODINGS['UTF-8']);
    expect(misread.status).toBe(2);
    expect(misread.stderr).toContain('no postal-code column in the header (CÃ³digo Postal, Colonia, AlcaldÃ­a,');
    expect(validate(data, ['-', '--encoding', 'cp1252'], ENCODINGS['Windows-1252']).lines).toEqual(EXPECTED);
    expect(validate(data, ['-', '--encoding', 'utf-16le'], ENCODINGS['UTF-16LE with BOM']).lines).toEqual(EXPECTED);
    const unknown = validate(data, ['-', '--encoding', 'ebcdic']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/--encoding must name one of utf-8, utf-16le, utf-16be, windows-1252 \(or latin1\), got "ebcdic"/);
  });

  it('refuses a file that is not valid in its encoding, with the line, writing nothing', () => {
    // Valid UTF-8 accents first (so the file is read as UTF-8), then Latin-1 from line 6: its
    // first accent is on line 7.
    const lines = EXCEL.split('\r\n');
    const broken = Buffer.concat([Buffer.from(`${lines.slice(0, 5).join('\r\n')}\r\n`), windows1252(`${lines.slice(5).join('\r\n')}\r\n`)]);
    const path = join(dir, 'mixed.csv');
    writeFileSync(path, broken);
    const out = join(dir, 'mixed.ndjson');
    for (const jobs of ['1', '2']) {
      const run = validate(data, [path, '--output', out, '--jobs', jobs]);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('mixed.csv: line 7 is not valid UTF-8: its start was read as UTF-8');
      expect(run.stderr).toContain('--encoding windows-1252');
      expect(existsSync(out)).toBe(false);
    }
    // Given as UTF-8, a Windows-1252 file is refused at its first accent (the header), without the hint.
    const forced = validate(data, ['-', '--encoding', 'utf-8'], ENCODINGS['Windows-1252']);
    expect(forced.status).toBe(2);
    expect(forced.stderr).toBe('cpmx validate: stdin: line 1 is not valid UTF-8\n');
  });

  it('ends when it refuses the input, even with stdin still open', async () => {
    const [header, ...rows] = EXCEL.split('\r\n');
    const many = `${Array.from({ length: 1000 }, () => rows.join('\r\n')).join('\r\n')}\r\n`;
    const refusals = [
      // Refused in the middle (a Windows-1252 line after UTF-8 ones, with whole ranges of
      // records around it so that it is read before the input ends), and at the header.
      [Buffer.concat([Buffer.from(`${header}\r\n${many}`), windows1252('09810;Minerva;;México;;\r\n'), Buffer.from(many)]), /line 8002 is not valid UTF-8/],
      [Buffer.from('id;nombre\r\n1;Ana\r\n'), /no postal-code column/],
    ] as const;
    for (const [bytes, message] of refusals) {
      for (const jobs of ['1', '2']) {
        const child = spawn(process.execPath, [CLI, 'validate', '--data', data, '-', '--jobs', jobs], { stdio: ['pipe', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
        child.stdin.on('error', () => {});
        child.stdin.write(bytes);
        const status = await exited;
        child.stdin.destroy();
        expect(status).toBe(2);
        expect(stderr).toMatch(message);
      }
    }
  });

  it('refuses broken UTF-16 with the line: a lone surrogate, half a character at the end', () => {
    const lone = Buffer.concat([utf16(`${EXCEL.split('\r\n').slice(0, 3).join('\r\n')}\r\n`, 'le'), Buffer.from([0x00, 0xd8, 0x41, 0x00])]);
    const run = validate(data, ['-'], lone);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('cpmx validate: stdin: line 4 is not valid UTF-16LE\n');
    const odd = Buffer.concat([utf16(`${EXCEL}\r\n`, 'be'), Buffer.from([0x00])]);
    expect(validate(data, ['-'], odd).stderr).toBe('cpmx validate: stdin: line 10 is not valid UTF-16BE: it ends in half a character\n');
  });

  it('refuses UTF-16 without a byte-order mark, saying which option reads it', () => {
    const run = validate(data, ['-'], Buffer.from(EXCEL, 'utf16le'));
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('as UTF-16 does; a UTF-16 file without a byte-order mark needs --encoding utf-16le (or utf-16be)');
    expect(validate(data, ['-', '--encoding', 'utf-16le'], Buffer.from(EXCEL, 'utf16le')).lines).toEqual(EXPECTED);
  });

  it('reads every encoding the same in the library', async () => {
    const client = createClient({ token: 'validate-test', dataPath: data });
    for (const [name, bytes] of Object.entries(ENCODINGS)) {
      const results: LineResult[] = [];
      // Split in small chunks: a character or a CR LF may be cut anywhere.
      const chunks = Array.from({ length: Math.ceil(bytes.length / 7) }, (_, i) => bytes.subarray(i * 7, i * 7 + 7));
      for await (const result of validateStream(client, Readable.from(chunks))) results.push(result);
      expect(results, name).toEqual(EXPECTED);
    }
  });
});
