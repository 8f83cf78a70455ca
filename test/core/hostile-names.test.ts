/**
 * Names and notes that would reach answers, MCP output and terminals (issue 37, item 7): control
 * characters (ESC, BEL, NUL), bidi overrides, a name made only of zero-width characters, a name
 * with no letter or digit, an invented settlement type, a 5 MB note. One rule
 * (build/name-rule.ts) refuses them, whether they come in a corrections file or a catalog, with
 * the line and the character named by its code point (never echoed raw); nothing is written.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildArtifact, CatalogError } from '../../build/build.js';
import { MAX_NOTE_CHARS } from '../../build/name-rule.js';
import { BUILD_TIME, FIXTURE, tempDir } from '../helpers.js';
import { HEADER, NOTICE, ROWS } from '../support/catalogs.js';

const dir = tempDir();
const CSV_HEADER = 'action,cp,asentamiento,tipo_asentamiento,nuevo_asentamiento,nuevo_tipo_asentamiento,nota';
/** What must never be in a message: the raw characters refused. */
const RAW = /(?!\n)[\p{Cc}\p{Cf}]/u;

async function refused(out: string, build: () => Promise<unknown>): Promise<CatalogError> {
  const error = await build().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(CatalogError);
  expect((error as Error).message).not.toMatch(RAW);
  expect(existsSync(out)).toBe(false);
  return error as CatalogError;
}

describe('hostile names and notes in a corrections file', () => {
  const cases: [string, string, RegExp][] = [
    ['ESC', 'rename-settlement,01000,San Ángel,,\u001b[31mRojo\u001b[0m,,', /nuevo_asentamiento "<U\+001B>\[31mRojo<U\+001B>\[0m" holds a control character \(U\+001B\); names may not/],
    ['BEL', 'add-settlement,03100,Campana\u0007,Colonia,,,', /asentamiento "Campana<U\+0007>" holds a control character \(U\+0007\)/],
    ['NUL', 'add-settlement,03100,Nul\u0000a,Colonia,,,', /asentamiento "Nul<U\+0000>a" holds a control character \(U\+0000\)/],
    ['a bidi override', 'rename-settlement,01000,San Ángel,,\u202eleGnÁ naS,,', /nuevo_asentamiento "<U\+202E>leGnÁ naS" holds an invisible format character \(U\+202E\)/],
    ['only zero-width spaces', 'add-settlement,03100,\u200b\u200b,Colonia,,,', /asentamiento "<U\+200B><U\+200B>" holds an invisible format character \(U\+200B\)/],
    ['no letter or digit', 'add-settlement,03100,- . -,Colonia,,,', /asentamiento "- \. -" has no letter or digit/],
    ['an invented type', 'add-settlement,03100,Nueva,Zona Alienígena,,,', /tipo_asentamiento "Zona Alienígena" is not a settlement type of the catalog; the types are Barrio, Colonia, /],
    ['an invented new type', 'rename-settlement,01000,San Ángel,,,Castillo,', /nuevo_tipo_asentamiento "Castillo" is not a settlement type of the catalog/],
    ['a control character in the type', 'add-settlement,03100,Nueva,Colonia\u001b,,,', /tipo_asentamiento "Colonia<U\+001B>" holds a control character/],
    ['a 5 MB note', `remove-settlement,01010,Los Alpes,,,,${'x'.repeat(5_000_000)}`, new RegExp(`nota "x{57}\\.\\.\\." is 5000000 characters long, more than a note may be \\(${MAX_NOTE_CHARS}\\)`)],
    ['ESC in a note', 'remove-settlement,01010,Los Alpes,,,,ticket\u001b]0;pwned\u0007', /nota "ticket<U\+001B>\]0;pwned<U\+0007>" holds a control character \(U\+001B\); notes may not/],
  ];
  it.each(cases)('%s: refused with its line, nothing written', async (name, row, message) => {
    const path = join(dir, `${name.replaceAll(' ', '-')}.csv`);
    writeFileSync(path, `${CSV_HEADER}\nremove-settlement,01010,Los Alpes,,,,fine\n${row}\n`);
    const out = join(dir, `${name.replaceAll(' ', '-')}.msgpack`);
    const error = await refused(out, () => buildArtifact({ source: FIXTURE, out, builtAt: BUILD_TIME, corrections: path }));
    expect(error.line).toBe(3);
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/ \(no correction was applied\)$/);
  });

  it('takes a note of the bound and a type in another case, spelled as the catalog spells it', async () => {
    const path = join(dir, 'fine.csv');
    writeFileSync(path, `${CSV_HEADER}\nadd-settlement,03100,Nueva,COLONIA,,,${'n'.repeat(MAX_NOTE_CHARS)}\n`);
    const out = join(dir, 'fine.msgpack');
    await buildArtifact({ source: FIXTURE, out, builtAt: BUILD_TIME, corrections: path });
    const { createClient } = await import('../../src/index.js');
    const body = createClient({ dataPath: out }).infoCp('03100');
    expect(JSON.stringify(body)).toContain('"asentamiento":"Nueva","tipo_asentamiento":"Colonia"');
  });
});

describe('hostile names in a catalog', () => {
  /** The fixture with one field of its first row replaced, as Latin-1 or UTF-8 text. */
  function catalog(name: string, field: number, value: string, encoding: 'latin1' | 'utf8'): string {
    const rows = ROWS.slice();
    const fields = rows[0]!.split('|');
    fields[field] = value;
    rows[0] = fields.join('|');
    const path = join(dir, `${name}.txt`);
    // The notice is Latin-1 in the fixture; in a UTF-8 catalog it is UTF-8 too.
    writeFileSync(path, `${[NOTICE, HEADER, ...rows].join('\r\n')}\r\n`, encoding);
    return path;
  }
  const cases: [string, number, string, 'latin1' | 'utf8', RegExp][] = [
    ['esc', 1, 'Roma\u001b[2J', 'latin1', /d_asenta "Roma<U\+001B>\[2J" holds a control character \(U\+001B\); names may not/],
    ['c1', 3, 'Benito\u0085Juárez', 'latin1', /d_mnpio "Benito<U\+0085>Juárez" holds a control character \(U\+0085\)/],
    ['soft-hyphen', 1, 'Ro\u00adma', 'latin1', /d_asenta "Ro<U\+00AD>ma" holds an invisible format character \(U\+00AD\)/],
    ['bidi', 4, '\u202eCiudad de México', 'utf8', /d_estado "<U\+202E>Ciudad de México" holds an invisible format character \(U\+202E\)/],
    ['zero-width', 1, '\u200b', 'utf8', /d_asenta "<U\+200B>" holds an invisible format character/],
    ['type', 2, 'Colonia\u0007', 'latin1', /d_tipo_asenta "Colonia<U\+0007>" holds a control character/],
  ];
  it.each(cases)('%s: the build is refused with the line', async (name, field, value, encoding, message) => {
    const out = join(dir, `catalog-${name}.msgpack`);
    const error = await refused(out, () => buildArtifact({ source: catalog(name, field, value, encoding), out, builtAt: BUILD_TIME }));
    expect(error.line).toBe(3);
    expect(error.message).toMatch(message);
  });
});
