/**
 * `cpmx build --previous`: retired codes with the date they vanished and their last place,
 * codes added since; codeHistory, validation's 124, parse, the API's unchanged 105; earlier
 * artifacts carrying their history on; per-state catalogs; and the real 2018 catalog against
 * the 2026 Chiapas file, the expected sets computed from the files themselves.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildArtifact, CatalogError } from '../../build/build.js';
import { openCatalog } from '../../build/open-catalog.js';
import { encodeArtifact } from '../../build/write.js';
import { codeHistoryOf } from '../../src/core/catalog-history.js';
import { ArtifactError, decodeCatalog, ENTRY_CIUDAD, ENTRY_MUNICIPIO, ENTRY_NAMES, entrySettlements, readArtifact } from '../../src/core/catalog.js';
import { createClient } from '../../src/index.js';
import { parseAddress, validateAddress } from '../../src/validate/index.js';
import { BUILD_TIME, CLI, FIXTURE, ok, realCatalogPath, root, tempDir } from '../helpers.js';
import { HEADER, NOTICE, ROWS, zipOf } from '../support/catalogs.js';

const dir = tempDir();
const column = (name: string) => HEADER.split('|').indexOf(name);
const CODE = column('d_codigo');

/** A catalog in the official form (Latin-1, CRLF, `|`) of the fixture's rows but those of `without`, plus `extra`, dated `date` (its mtime). */
function catalog(name: string, date: string, { without = [] as string[], extra = [] as string[] } = {}): string {
  const rows = ROWS.filter((row) => !without.includes(row.split('|')[CODE]!));
  const path = join(dir, name);
  writeFileSync(path, Buffer.from(`${[NOTICE, HEADER, ...rows, ...extra].join('\r\n')}\r\n`, 'latin1'));
  utimesSync(path, new Date(date), new Date(date));
  return path;
}

/** A row of the fixture with another code (and settlement name). */
function rowAs(cp: string, settlement: string, like = '58000'): string {
  const fields = ROWS.find((row) => row.startsWith(`${like}|`))!.split('|');
  fields[CODE] = cp;
  fields[column('d_asenta')] = settlement;
  return fields.join('|');
}

describe('retired and added codes, fixture catalogs', async () => {
  // 2019: the fixture plus 58001; 2020: without 55810 and 58001; 2021 (built): 55810 is back, 27000 gone, 58002 new.
  const y2019 = catalog('2019.txt', '2019-03-01T00:00:00Z', { extra: [rowAs('58001', 'Vieja')] });
  const y2020 = catalog('2020.txt', '2020-06-01T00:00:00Z', { without: ['55810'] });
  const y2021 = catalog('2021.txt', '2021-09-01T00:00:00Z', { without: ['27000'], extra: [rowAs('58002', 'Nueva')] });
  const out = join(dir, 'history.msgpack');
  // Given out of order: the build orders them by date.
  const summary = await buildArtifact({ source: y2021, out, builtAt: BUILD_TIME, previous: [y2020, y2019] });
  const client = createClient({ dataPath: out });

  it('records what vanished, when, and where it was', () => {
    expect(summary.history).toMatchObject({ retired: 2, added: 2 });
    expect(summary.history!.previous.map((p) => p.file)).toEqual(['2019.txt', '2020.txt']);
    expect(client.codeHistory('58001')).toEqual({
      cp: '58001',
      status: 'retired',
      catalogDate: '2021-09-01T00:00:00.000Z',
      retiredSince: '2020-06-01T00:00:00.000Z',
      lastSeen: '2019-03-01T00:00:00.000Z',
      lastPlace: { estado: 'Michoacán de Ocampo', c_estado: '16', municipio: 'Morelia', ciudad: 'Morelia', asentamientos: ['Vieja'] },
    });
    expect(client.codeHistory('27000')).toMatchObject({ status: 'retired', retiredSince: '2021-09-01T00:00:00.000Z', lastSeen: '2020-06-01T00:00:00.000Z' });
  });

  it('says since when a code is back or new, and what never existed', () => {
    expect(client.codeHistory('55810')).toMatchObject({ status: 'current', since: '2021-09-01T00:00:00.000Z', corrected: [] });
    expect(client.codeHistory('58002')).toMatchObject({ status: 'current', since: '2021-09-01T00:00:00.000Z' });
    expect(client.codeHistory('09810')).toMatchObject({ status: 'current', since: null });
    expect(client.codeHistory('99999')).toEqual({ cp: '99999', status: 'never-existed', catalogDate: '2021-09-01T00:00:00.000Z', catalogsKnown: 3 });
    expect(() => client.codeHistory('5800')).toThrow(TypeError);
    expect(client.catalogInfo().history).toMatchObject({ retired: 2, added: 2 });
  });

  it('the API still answers 105, as COPOMEX does; validate and parse say retired since when', () => {
    expect(client.infoCp('58001')).toMatchObject({ error: true, code_error: 105 });
    expect(client.query('/query/info_cp/58001?token=demo')).toEqual({ ...client.query('/query/info_cp/99999?token=demo') });
    const result = validateAddress(client, { cp: '58001', municipio: 'Morelia' });
    expect(result.errors).toEqual([
      {
        field: 'cp',
        code_error: 124,
        error_message: 'El cp fue dado de baja',
        reason: 'retired since 2020-06-01; last in Morelia, Michoacán de Ocampo (Vieja)',
        retired: expect.objectContaining({ retiredSince: '2020-06-01T00:00:00.000Z' }),
      },
    ]);
    expect(validateAddress(client, { cp: '99999' }).errors[0]).toMatchObject({ code_error: 105 });
    const parsed = parseAddress(client, 'Av. Madero 100, C.P. 58001, Morelia, Mich.');
    expect(parsed.errors[0]).toMatchObject({ code_error: 124, reason: expect.stringMatching(/^retired since 2020-06-01/) });
  });

  it('cpmx validate and parse print the reason', () => {
    const input = join(dir, 'addresses.csv');
    writeFileSync(input, 'cp,municipio\n58001,Morelia\n09810,Iztapalapa\n');
    const run = spawnSync(process.execPath, [CLI, 'validate', '--data', out, input], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    const [first] = run.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(first.errors[0]).toMatchObject({ code_error: 124, reason: expect.stringContaining('retired since 2020-06-01; last in Morelia') });
    expect(run.stderr).toContain('124: 1');
    const csv = spawnSync(process.execPath, [CLI, 'validate', '--data', out, '--format', 'csv', input], { encoding: 'utf8' });
    expect(csv.stdout.split('\n')[1]).toMatch(/^2,false,124,"retired since 2020-06-01; last in Morelia/);
    const parse = spawnSync(process.execPath, [CLI, 'parse', '--data', out], { input: 'C.P. 58001, Morelia, Mich.\n', encoding: 'utf8' });
    expect(JSON.parse(parse.stdout).errors[0].reason).toMatch(/^retired since 2020-06-01/);
  });

  it('an earlier artifact carries its history on to the next build', async () => {
    // 2022 lacks 58001 too, and only the 2021 artifact is given: 58001 stays retired since 2020.
    const y2022 = catalog('2022.txt', '2022-01-15T00:00:00Z', { without: ['27000', '09819'], extra: [rowAs('58002', 'Nueva')] });
    const next = join(dir, 'next.msgpack');
    await buildArtifact({ source: y2022, out: next, builtAt: BUILD_TIME, previous: [out] });
    const later = createClient({ dataPath: next });
    expect(later.codeHistory('58001')).toMatchObject({ status: 'retired', retiredSince: '2020-06-01T00:00:00.000Z', lastPlace: { asentamientos: ['Vieja'] } });
    expect(later.codeHistory('27000')).toMatchObject({ status: 'retired', retiredSince: '2021-09-01T00:00:00.000Z' });
    expect(later.codeHistory('09819')).toMatchObject({ status: 'retired', retiredSince: '2022-01-15T00:00:00.000Z' });
    expect(later.codeHistory('55810')).toMatchObject({ status: 'current', since: '2021-09-01T00:00:00.000Z' });
  });

  it('dates come from a zip member too; a catalog not older than the one built is refused, nothing written', async () => {
    const zip = join(dir, 'old.zip');
    writeFileSync(zip, zipOf({ 'CPdescarga.txt': `${[NOTICE, HEADER, ...ROWS, rowAs('58009', 'Zip')].join('\r\n')}\r\n` }, new Date(2018, 9, 25, 12, 0)));
    const fromZip = join(dir, 'zip.msgpack');
    await buildArtifact({ source: y2019, out: fromZip, builtAt: BUILD_TIME, previous: [zip] });
    expect(createClient({ dataPath: fromZip }).codeHistory('58009')).toMatchObject({ status: 'retired', lastSeen: expect.stringMatching(/^2018-10-25/), retiredSince: '2019-03-01T00:00:00.000Z' });
    const refused = join(dir, 'refused.msgpack');
    const error = await buildArtifact({ source: y2020, out: refused, builtAt: BUILD_TIME, previous: [y2021] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CatalogError);
    expect((error as Error).message).toMatch(/2021\.txt: is dated 2021-09-01T00:00:00.000Z, not before the catalog being built \(2020-06-01/);
    expect(existsSync(refused)).toBe(false);
  });

  it('a per-state catalog retires codes of its own states only', async () => {
    const michoacan = join(dir, 'michoacan.txt');
    const state = column('c_estado');
    writeFileSync(michoacan, Buffer.from(`${[NOTICE, HEADER, ...ROWS.filter((row) => row.split('|')[state] === '16' && !row.startsWith('61000|'))].join('\r\n')}\r\n`, 'latin1'));
    utimesSync(michoacan, new Date('2022-01-01T00:00:00Z'), new Date('2022-01-01T00:00:00Z'));
    const one = join(dir, 'one-state.msgpack');
    const built = await buildArtifact({ source: michoacan, out: one, builtAt: BUILD_TIME, previous: [y2019] });
    expect(built.history).toMatchObject({ retired: 2 });
    const history = createClient({ dataPath: one });
    expect(history.codeHistory('61000')).toMatchObject({ status: 'retired', lastPlace: { municipio: 'Zitácuaro' } });
    // Of a state the catalog does not cover, nothing is known.
    expect(history.codeHistory('09810')).toMatchObject({ status: 'never-existed' });
  });

  it('an artifact built without --previous knows only its own codes', async () => {
    const plain = join(dir, 'plain.msgpack');
    await buildArtifact({ source: y2021, out: plain, builtAt: BUILD_TIME });
    const alone = createClient({ dataPath: plain });
    expect(alone.codeHistory('58001')).toMatchObject({ status: 'never-existed', catalogsKnown: 1 });
    expect(alone.codeHistory('58002')).toMatchObject({ status: 'current', since: null });
    expect(validateAddress(alone, { cp: '58001' }).errors[0]).toMatchObject({ code_error: 105 });
  });
});

describe('the real 2018 catalog before the 2026 Chiapas file', async () => {
  const chiapas = join(dir, 'CPdescarga-chiapas-2026.txt');
  copyFileSync(resolve(root, '..', 'shared', 'data', 'sepomex', 'CPdescarga-chiapas-2026.txt'), chiapas);
  // The file as served in 2026 (its copy's mtime is when it was copied; the 2018 zip dates itself).
  utimesSync(chiapas, new Date('2026-06-01T00:00:00Z'), new Date('2026-06-01T00:00:00Z'));
  const zip = realCatalogPath();
  const out = join(dir, 'chiapas.msgpack');
  const summary = await buildArtifact({ source: chiapas, out, builtAt: BUILD_TIME, previous: [zip] });
  const client = createClient({ dataPath: out });
  const [old, next] = [await openCatalog(zip), await openCatalog(chiapas)];
  const chiapasCodes = (catalog: typeof old) =>
    new Set(catalog.postalCodes().filter((_, i) => catalog.municipalityEntry(catalog.municipalityIndexOf(i)).stateKey === 7));
  const [before, after] = [chiapasCodes(old), chiapasCodes(next)];
  const gone = [...before].filter((cp) => !after.has(cp));
  const added = [...after].filter((cp) => !before.has(cp));

  it('retires exactly the Chiapas codes of 2018 that 2026 lacks, with their 2018 place', () => {
    expect(gone.length).toBeGreaterThan(0);
    expect(summary.history).toMatchObject({ retired: gone.length, added: added.length });
    for (const cp of gone) {
      const entry = old.codeEntry(old.codeIndex(cp));
      expect(client.codeHistory(cp)).toMatchObject({
        status: 'retired',
        retiredSince: '2026-06-01T00:00:00.000Z',
        lastSeen: old.header.source.date,
        lastPlace: {
          estado: 'Chiapas',
          c_estado: '07',
          municipio: entry[ENTRY_MUNICIPIO],
          ciudad: entry[ENTRY_CIUDAD],
          asentamientos: entry.slice(ENTRY_NAMES, ENTRY_NAMES + entrySettlements(entry)),
        },
      });
      expect(client.infoCp(cp)).toMatchObject({ code_error: 105 });
      expect(validateAddress(client, { cp }).errors[0]).toMatchObject({ code_error: 124, reason: expect.stringContaining(`last in`) });
    }
    for (const cp of added) expect(client.codeHistory(cp)).toMatchObject({ status: 'current', since: '2026-06-01T00:00:00.000Z' });
    // Codes of other states are not retired by a catalog of Chiapas only.
    expect(client.codeHistory('09810')).toMatchObject({ status: 'never-existed' });
    expect(ok(client.infoCp([...after][0]!, { type: 'simplified' })).response.estado).toBe('Chiapas');
  });
});

describe('the history section in the file', async () => {
  const plain = join(dir, 'section-plain.msgpack');
  await buildArtifact({ source: FIXTURE, out: plain, builtAt: BUILD_TIME });
  const bytes = readFileSync(plain);

  it('a history section that is not JSON is a damaged artifact, said when first read', () => {
    const artifact = readArtifact(bytes);
    const forged = encodeArtifact({ ...artifact, history: new Uint8Array(Buffer.from('{"retired":')) });
    const catalog = decodeCatalog(forged, 'forged.msgpack');
    expect(catalog.codeIndex('09810')).toBeGreaterThanOrEqual(0);
    expect(() => codeHistoryOf(catalog, '58001')).toThrow(ArtifactError);
    expect(() => codeHistoryOf(catalog, '58001')).toThrow(/is damaged \(the history section is not JSON\)/);
    const wrongShape = decodeCatalog(encodeArtifact({ ...artifact, history: new Uint8Array(Buffer.from('[1,2]')) }), 'shape.msgpack');
    expect(() => codeHistoryOf(wrongShape, '58001')).toThrow(/the history section is not one/);
  });
});
