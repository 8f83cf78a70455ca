/**
 * Several catalog files built into one artifact (the site serves the catalog per state), and
 * the 2026 download of Chiapas, whose columns are in another order than the 2018 file's.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildArtifact } from '../../build/build.js';
import { CatalogError } from '../../build/errors.js';
import { loadCatalog } from '../../src/client/catalog-source.js';
import { createClient } from '../../src/client/client.js';
import { CLI, FIXTURE, ok, realCatalogPath, tempDir } from '../helpers.js';
import { contentOf, HEADER, NOTICE, ROWS, stateFile } from '../support/catalogs.js';

const dir = tempDir();
const CHIAPAS_2026 = join(realCatalogPath(), '..', 'CPdescarga-chiapas-2026.txt');
const FIXTURE_STATES = ['09', '15', '05', '16', '23', '30'];
let count = 0;
let reference: unknown;

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, Buffer.from(text, 'latin1'));
  return path;
}

async function build(source: string[]): Promise<{ out: string; bytes: Buffer }> {
  const out = join(dir, `${++count}.msgpack`);
  await buildArtifact({ source, out });
  return { out, bytes: readFileSync(out) };
}

async function refusal(source: string[]): Promise<CatalogError> {
  const error = await build(source).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CatalogError);
  return error as CatalogError;
}

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  reference = contentOf((await build([FIXTURE])).bytes);
});

describe('several sources', () => {
  it('builds the fixture split per state into the same catalog, recording each source', async () => {
    const files = FIXTURE_STATES.map((state) => write(`state-${state}.txt`, stateFile(state)));
    for (const [i, file] of files.entries()) utimesSync(file, new Date(Date.UTC(2026, 0, 10 + i)), new Date(Date.UTC(2026, 0, 10 + i)));
    const { out, bytes } = await build([...files].reverse());
    expect(contentOf(bytes)).toEqual(reference);
    const { header } = loadCatalog(out);
    const names = files.map((file) => file.split('/').pop()!).reverse();
    expect(header.sources?.map((s) => s.file)).toEqual(names);
    expect(header.source).toEqual({
      file: names.join(' + '),
      sha256: sha256(files.map((file) => sha256(readFileSync(file))).reverse().join('\n')),
      bytes: files.reduce((sum, file) => sum + readFileSync(file).length, 0),
      encoding: 'latin1',
      // The oldest part's date: the merged catalog is as current as its oldest file.
      date: '2026-01-10T00:00:00.000Z',
    });
    expect(header.sources![5]).toMatchObject({ date: '2026-01-10T00:00:00.000Z', dateFrom: 'file-mtime' });
    expect(header.notice).toBe(NOTICE);
  });

  it('keeps once a code that two files give identically', async () => {
    expect(contentOf((await build([FIXTURE, write('cdmx.txt', stateFile('09'))])).bytes)).toEqual(reference);
  });

  it('refuses two files that disagree about a code, naming both, the lines and the first difference', async () => {
    const cdmx = write('cdmx-a.txt', stateFile('09'));
    const renamed = write('cdmx-b.txt', stateFile('09').replace('Progreso del Sur', 'Progreso del Norte'));
    const error = await refusal([cdmx, renamed]);
    expect(error.message).toBe(
      'cdmx-b.txt, line 7: postal code 09810 is also in cdmx-a.txt (from line 6), and the two disagree: its settlement 2 is ' +
        '"Progreso del Sur" (Colonia), Iztapalapa (09/007), Ciudad de México, city "Ciudad de México" there (line 7), ' +
        'but "Progreso del Norte" (Colonia), Iztapalapa (09/007), Ciudad de México, city "Ciudad de México" here',
    );
    const shorter = write('cdmx-c.txt', stateFile('09', ROWS.filter((row) => !row.includes('Minerva|Barrio'))));
    expect((await refusal([cdmx, shorter])).message).toBe(
      'cdmx-c.txt, line 6: postal code 09810 is also in cdmx-a.txt (from line 6), and the two disagree: it has 5 settlements there and 4 here',
    );
  });

  it('refuses two files that name one state key differently, naming the other file', async () => {
    const a = write('key-a.txt', stateFile('09'));
    const b = write('key-b.txt', `${[NOTICE, HEADER, '04000|Coyoacán Centro|Colonia|Coyoacán|CDMX|Ciudad de México|04001|09|04001||09|003|0001|Urbano|01'].join('\r\n')}\r\n`);
    expect((await refusal([a, b])).message).toBe('key-b.txt, line 3: c_estado 09 is named "CDMX" here but "Ciudad de México" in key-a.txt, line 3');
  });

  it('cpmx build takes --source several times', () => {
    const files = FIXTURE_STATES.map((state) => write(`cli-${state}.txt`, stateFile(state)));
    const out = join(dir, 'cli.msgpack');
    const run = spawnSync(process.execPath, [CLI, 'build', ...files.flatMap((file) => ['--source', file]), '--out', out], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain(`reading ${files.join(', ')} (--source)`);
    expect(contentOf(readFileSync(out))).toEqual(reference);
  });
});

describe('the 2026 download of Chiapas (c_CP last, an empty c_CP on every row)', () => {
  /** The file read by hand, by header names: what the artifact must answer. */
  function rawRows(text: string) {
    const lines = text.split('\r\n').filter(Boolean);
    const names = lines[1]!.split('|').map((name) => name.toLowerCase());
    const at = (name: string) => names.indexOf(name);
    return lines.slice(2).map((line) => {
      const f = line.split('|').map((field) => field.trim());
      return { cp: f[at('d_codigo')]!, name: f[at('d_asenta')]!, municipio: f[at('d_mnpio')]!, estado: f[at('d_estado')]!, ciudad: f[at('d_ciudad')]! };
    });
  }

  it('is read by column names: every code answers as its rows say', async () => {
    const text = readFileSync(CHIAPAS_2026).toString('latin1');
    expect(text.split('\r\n')[1]!.endsWith('|c_cve_ciudad|c_CP')).toBe(true);
    const { out } = await build([CHIAPAS_2026]);
    const client = createClient({ token: 't', dataPath: out });
    expect(client.catalogInfo()).toMatchObject({ rows: 9_592, codes: 1_151, states: 1, municipalities: 124 });
    const byCode = new Map<string, ReturnType<typeof rawRows>>();
    for (const row of rawRows(text)) byCode.set(row.cp, [...(byCode.get(row.cp) ?? []), row]);
    expect(byCode.size).toBe(1_151);
    for (const [cp, rows] of byCode) {
      const answer = ok(client.infoCp(cp, { type: 'simplified' })).response;
      expect(answer, cp).toMatchObject({ asentamiento: rows.map((r) => r.name), municipio: rows[0]!.municipio, estado: 'Chiapas', ciudad: rows.find((r) => r.ciudad)?.ciudad ?? '' });
    }
    expect(ok(client.getMunicipioPorEstado('Chiapas')).response.municipios).toContain('Honduras de la Sierra');
  });

  it('merges with the 2018 catalog of every other state; with the whole 2018 catalog it is refused, since they disagree about Chiapas', async () => {
    const real = Buffer.from(unzipSync(readFileSync(realCatalogPath()))['CPdescarga.txt']!).toString('latin1');
    const lines = real.split('\r\n').filter(Boolean);
    const column = lines[1]!.split('|').indexOf('c_estado');
    const others = write('2018-without-chiapas.txt', `${[lines[0], lines[1], ...lines.slice(2).filter((line) => line.split('|')[column] !== '07')].join('\r\n')}\r\n`);
    const { out } = await build([others, CHIAPAS_2026]);
    const info = loadCatalog(out).header;
    expect(info).toMatchObject({ codes: 32_166 - 1_104 + 1_151, states: 32 });
    const client = createClient({ token: 't', dataPath: out });
    expect(ok(client.infoCp('29000', { type: 'simplified' })).response.asentamiento).toEqual(
      rawRows(readFileSync(CHIAPAS_2026).toString('latin1'))
        .filter((r) => r.cp === '29000')
        .map((r) => r.name),
    );
    expect(ok(client.infoCp('09810', { type: 'simplified' })).response.municipio).toBe('Iztapalapa');

    const error = await refusal([realCatalogPath(), CHIAPAS_2026]);
    // The first disagreement met is a municipality renamed since 2018 (the merge refuses that too).
    expect(error.message).toBe(
      'CPdescarga-chiapas-2026.txt, line 5840: c_mnpio 008 of c_estado 07 is named "Ángel Albino Corzo" here but "Angel Albino Corzo" in CPdescargatxt.zip (CPdescarga.txt), line 16421',
    );
  });
});
