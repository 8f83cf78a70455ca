/**
 * `cpmx diff`: every kind of change on fixture catalogs, and the real catalog against a copy
 * altered in known ways, where every change must be found and nothing else.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Change, CHANGE_KINDS, diffCatalogs } from '../../build/diff.js';
import { openCatalog } from '../../build/open-catalog.js';
import { buildInto, CLI, FIXTURE, realCatalogPath, tempDir } from '../helpers.js';
import { HEADER, NOTICE, ROWS } from '../support/catalogs.js';

const dir = tempDir();

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, Buffer.from(text, 'latin1'));
  return path;
}

/** The CLI's output: every line parsed, the summary apart. */
function cliDiff(old: string, next: string) {
  const run = spawnSync(process.execPath, [CLI, 'diff', old, next], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const lines = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
  return { status: run.status, stderr: run.stderr, changes: lines.slice(0, -1) as Change[], summary: lines.at(-1) };
}

async function diff(old: string, next: string): Promise<Change[]> {
  return [...diffCatalogs(await openCatalog(old), await openCatalog(next))];
}

/** A row edited by header name. */
function edit(row: string, header: string, fields: Record<string, string>): string {
  const names = header.split('|').map((name) => name.toLowerCase());
  const values = row.split('|');
  for (const [name, value] of Object.entries(fields)) {
    const at = names.indexOf(name.toLowerCase());
    if (at < 0) throw new Error(`no column ${name}`);
    values[at] = value;
  }
  return values.join('|');
}

const field = (row: string, header: string, name: string) => row.split('|')[header.split('|').map((n) => n.toLowerCase()).indexOf(name)]!.trim();

describe('on fixtures: each kind of change', () => {
  const catalogOf = (rows: string[]) => `${[NOTICE, HEADER, ...rows].join('\r\n')}\r\n`;
  const code = (row: string) => row.slice(0, 5);
  let old: string;
  let altered: string;

  beforeAll(() => {
    old = FIXTURE;
    const rows = ROWS.filter((row) => field(row, HEADER, 'c_estado') !== '23' && code(row) !== '61000' && !row.includes('Chalet "La Cumbre"')).map((row) => {
      let r = row;
      if (field(r, HEADER, 'c_estado') === '30') r = edit(r, HEADER, { d_estado: 'Veracruz' });
      if (code(r) === '50000') r = edit(r, HEADER, { d_mnpio: 'Toluca de Lerdo' });
      if (code(r) === '09819') r = edit(r, HEADER, { d_mnpio: 'Álvaro Obregón', c_mnpio: '010' });
      if (code(r) === '27000') r = edit(r, HEADER, { d_estado: 'México', c_estado: '15', d_mnpio: 'Acolman', c_mnpio: '002' });
      if (code(r) === '55800') r = edit(r, HEADER, { d_ciudad: 'Acolman de Nezahualcóyotl' });
      if (r.includes('|Granjas Esmeralda|')) r = r.replace('|Granjas Esmeralda|', '|Granjas Esmeraldas|');
      if (r.includes('|Morelia Centro|Colonia|')) r = r.replace('|Morelia Centro|Colonia|', '|Morelia Centro|Barrio|');
      return r;
    });
    const template = ROWS.find((row) => code(row) === '01000')!;
    const saltillo = ROWS.find((row) => code(row) === '25000')!;
    rows.push(
      edit(template, HEADER, { d_asenta: 'Tizapán', d_tipo_asenta: 'Colonia' }),
      edit(saltillo, HEADER, { d_codigo: '26000', d_asenta: 'Piedras Negras Centro', d_mnpio: 'Piedras Negras', c_mnpio: '025', d_ciudad: 'Piedras Negras' }),
      edit(saltillo, HEADER, { d_codigo: '97000', d_asenta: 'Mérida Centro', d_mnpio: 'Mérida', c_mnpio: '050', d_estado: 'Yucatán', c_estado: '31', d_ciudad: 'Mérida' }),
    );
    altered = write('fixture-altered.txt', catalogOf(rows));
  });

  const EXPECTED: Change[] = [
    { change: 'state-removed', c_estado: '23', estado: 'Quintana Roo' },
    { change: 'state-renamed', c_estado: '30', from: 'Veracruz de Ignacio de la Llave', to: 'Veracruz' },
    { change: 'state-added', c_estado: '31', estado: 'Yucatán' },
    { change: 'municipality-added', c_estado: '05', c_mnpio: '025', estado: 'Coahuila de Zaragoza', municipio: 'Piedras Negras' },
    { change: 'municipality-removed', c_estado: '05', c_mnpio: '035', estado: 'Coahuila de Zaragoza', municipio: 'Torreón' },
    { change: 'municipality-renamed', c_estado: '15', c_mnpio: '106', estado: 'México', from: 'Toluca', to: 'Toluca de Lerdo' },
    { change: 'municipality-removed', c_estado: '16', c_mnpio: '107', estado: 'Michoacán de Ocampo', municipio: 'Zitácuaro' },
    { change: 'municipality-removed', c_estado: '23', c_mnpio: '005', estado: 'Quintana Roo', municipio: 'Benito Juárez' },
    { change: 'municipality-added', c_estado: '31', c_mnpio: '050', estado: 'Yucatán', municipio: 'Mérida' },
    { change: 'settlement-added', cp: '01000', asentamiento: 'Tizapán', tipo_asentamiento: 'Colonia' },
    { change: 'settlement-renamed', cp: '09810', from: { asentamiento: 'Granjas Esmeralda', tipo_asentamiento: 'Colonia' }, to: { asentamiento: 'Granjas Esmeraldas', tipo_asentamiento: 'Colonia' } },
    { change: 'settlement-removed', cp: '09810', asentamiento: 'Chalet "La Cumbre"', tipo_asentamiento: 'Condominio' },
    {
      change: 'code-municipality-changed',
      cp: '09819',
      from: { c_estado: '09', c_mnpio: '007', municipio: 'Iztapalapa' },
      to: { c_estado: '09', c_mnpio: '010', municipio: 'Álvaro Obregón' },
    },
    {
      change: 'code-added',
      cp: '26000',
      estado: 'Coahuila de Zaragoza',
      municipio: 'Piedras Negras',
      ciudad: 'Piedras Negras',
      asentamientos: [{ asentamiento: 'Piedras Negras Centro', tipo_asentamiento: 'Colonia' }],
    },
    { change: 'code-state-changed', cp: '27000', from: { c_estado: '05', estado: 'Coahuila de Zaragoza' }, to: { c_estado: '15', estado: 'México' } },
    {
      change: 'code-municipality-changed',
      cp: '27000',
      from: { c_estado: '05', c_mnpio: '035', municipio: 'Torreón' },
      to: { c_estado: '15', c_mnpio: '002', municipio: 'Acolman' },
    },
    { change: 'code-city-changed', cp: '55800', from: '', to: 'Acolman de Nezahualcóyotl' },
    { change: 'settlement-retyped', cp: '58000', asentamiento: 'Morelia Centro', from: 'Colonia', to: 'Barrio' },
    { change: 'code-removed', cp: '61000', estado: 'Michoacán de Ocampo', municipio: 'Zitácuaro', ciudad: '', asentamientos: [{ asentamiento: 'El Rincón', tipo_asentamiento: 'Ranchería' }] },
    { change: 'code-removed', cp: '77500', estado: 'Quintana Roo', municipio: 'Benito Juárez', ciudad: 'Cancún', asentamientos: [{ asentamiento: 'Cancún Centro', tipo_asentamiento: 'Supermanzana' }] },
    { change: 'code-added', cp: '97000', estado: 'Yucatán', municipio: 'Mérida', ciudad: 'Mérida', asentamientos: [{ asentamiento: 'Mérida Centro', tipo_asentamiento: 'Colonia' }] },
  ];

  it('finds every change, and nothing else, in its order (states, municipalities, then codes ascending)', async () => {
    expect(await diff(old, altered)).toEqual(EXPECTED);
    expect(new Set(EXPECTED.map((c) => c.change))).toEqual(new Set(CHANGE_KINDS));
  });

  it('reads artifacts and catalog files alike', async () => {
    const oldArtifact = await buildInto(old, dir, 'fixture-old.msgpack');
    const newArtifact = await buildInto(altered, dir, 'fixture-new.msgpack');
    expect(await diff(oldArtifact, newArtifact)).toEqual(EXPECTED);
    expect(await diff(oldArtifact, altered)).toEqual(EXPECTED);
  });

  it('read backwards, every change is its inverse', async () => {
    const inverse: Partial<Record<Change['change'], Change['change']>> = {
      'state-added': 'state-removed',
      'state-removed': 'state-added',
      'municipality-added': 'municipality-removed',
      'municipality-removed': 'municipality-added',
      'code-added': 'code-removed',
      'code-removed': 'code-added',
      'settlement-added': 'settlement-removed',
      'settlement-removed': 'settlement-added',
    };
    const backwards = await diff(altered, old);
    const kinds = (changes: Change[]) => changes.map((c) => `${inverse[c.change] ?? c.change} ${'cp' in c ? c.cp : 'c_mnpio' in c ? `${c.c_estado}/${c.c_mnpio}` : c.c_estado}`).sort();
    expect(backwards.map((c) => `${c.change} ${'cp' in c ? c.cp : 'c_mnpio' in c ? `${c.c_estado}/${c.c_mnpio}` : c.c_estado}`).sort()).toEqual(kinds(EXPECTED));
  });

  it('cpmx diff prints NDJSON and a summary; exit 1 when they differ, 0 when not, 2 when one cannot be read', () => {
    const run = cliDiff(old, altered);
    expect(run.status).toBe(1);
    expect(run.changes).toEqual(EXPECTED);
    expect(run.summary).toMatchObject({ change: 'summary', changes: EXPECTED.length, old: { file: 'catalog-mini.txt', codes: 15, rows: 22 }, new: { file: 'fixture-altered.txt', codes: 15 } });
    expect(run.summary.counts).toEqual(Object.fromEntries(CHANGE_KINDS.map((kind) => [kind, EXPECTED.filter((c) => c.change === kind).length])));
    const same = cliDiff(old, old);
    expect(same.status).toBe(0);
    expect(same.changes).toEqual([]);
    expect(same.summary).toMatchObject({ changes: 0 });
    const bad = spawnSync(process.execPath, [CLI, 'diff', old, join(dir, 'absent.txt')], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe(`cpmx diff: cannot read ${join(dir, 'absent.txt')}: file not found\n`);
    expect(spawnSync(process.execPath, [CLI, 'diff', old], { encoding: 'utf8' }).status).toBe(2);
  });

  it('pairs renames by likeness within a code: a settlement replaced by an unlike one is removed and added', async () => {
    const replaced = write('replaced.txt', catalogOf(ROWS.map((row) => row.replace('|Progreso del Sur|', '|Ejército de Oriente|'))));
    expect(await diff(old, replaced)).toEqual([
      { change: 'settlement-removed', cp: '09810', asentamiento: 'Progreso del Sur', tipo_asentamiento: 'Colonia' },
      { change: 'settlement-added', cp: '09810', asentamiento: 'Ejército de Oriente', tipo_asentamiento: 'Colonia' },
    ]);
    // A name listed twice (Minerva, as Colonia and as Barrio) is matched once each way.
    const twice = write('twice.txt', catalogOf(ROWS.map((row) => row.replace('|Minerva|Barrio|', '|Minerva|Colonia|'))));
    expect(await diff(old, twice)).toEqual([{ change: 'settlement-retyped', cp: '09810', asentamiento: 'Minerva', from: 'Barrio', to: 'Colonia' }]);
  });
});

describe('on the real catalog against a copy altered in known ways', () => {
  let header: string;
  let rows: string[];
  let altered: string;
  const byCode = (cp: string) => rows.filter((row) => row.startsWith(`${cp}|`));

  beforeAll(() => {
    const text = Buffer.from(unzipSync(readFileSync(realCatalogPath()))['CPdescarga.txt']!).toString('latin1');
    const lines = text.split('\r\n').filter(Boolean);
    header = lines[1]!;
    rows = lines.slice(2);
    const f = (row: string, name: string) => field(row, header, name);
    // Preconditions of the alterations below, so that a different catalog fails here, by name.
    expect(byCode('09999')).toEqual([]);
    expect(byCode('29999')).toEqual([]);
    expect(rows.some((row) => f(row, 'c_estado') === '07' && f(row, 'c_mnpio') === '125')).toBe(false);
    expect(byCode('09810').filter((row) => f(row, 'd_asenta') === 'Granjas Esmeralda')).toHaveLength(1);
    expect(byCode('29000').filter((row) => f(row, 'd_asenta') === 'Guadalupe')).toHaveLength(1);

    const out: string[] = [];
    for (const row of rows) {
      const cp = row.slice(0, 5);
      if (cp === '06600') continue; // code removed
      if (cp === '97000' && f(row, 'd_asenta') === 'Los Cocos') continue; // settlement removed
      let r = row;
      if (cp === '09810' && f(r, 'd_asenta') === 'Granjas Esmeralda') r = edit(r, header, { d_asenta: 'Granjas Esmeraldas' });
      if (cp === '29000' && f(r, 'd_asenta') === 'Guadalupe') r = edit(r, header, { d_tipo_asenta: 'Colonia' });
      if (cp === '76000') r = edit(r, header, { d_ciudad: 'Querétaro' });
      if (cp === '01000') r = edit(r, header, { d_mnpio: 'Cuauhtémoc', c_mnpio: '015' });
      if (cp === '20000') r = edit(r, header, { d_estado: 'Jalisco', c_estado: '14', d_mnpio: 'Guadalajara', c_mnpio: '039' });
      if (f(r, 'c_estado') === '07' && f(r, 'c_mnpio') === '008') r = edit(r, header, { d_mnpio: 'Ángel Albino Corzo' });
      out.push(r);
      if (cp === '64000' && r === byCode('64000').at(-1)) out.push(edit(r, header, { d_asenta: 'Nueva Colonia Inventada', d_tipo_asenta: 'Colonia' }));
    }
    const iztapalapa = byCode('09810')[0]!;
    out.push(
      edit(iztapalapa, header, { d_codigo: '09999', d_asenta: 'Colonia de Prueba Uno', d_tipo_asenta: 'Colonia' }),
      edit(iztapalapa, header, { d_codigo: '09999', d_asenta: 'Barrio de Prueba Dos', d_tipo_asenta: 'Barrio' }),
      edit(byCode('29000')[0]!, header, { d_codigo: '29999', d_asenta: 'Honduras de la Sierra Centro', d_tipo_asenta: 'Pueblo', d_mnpio: 'Honduras de la Sierra', c_mnpio: '125', d_ciudad: '' }),
    );
    altered = write('real-altered.txt', `${[lines[0], header, ...out].join('\r\n')}\r\n`);
  });

  it('finds every change and nothing else, from the zip and from an artifact', async () => {
    const f = (row: string, name: string) => field(row, header, name);
    const expected: Change[] = [
      { change: 'municipality-renamed', c_estado: '07', c_mnpio: '008', estado: 'Chiapas', from: 'Angel Albino Corzo', to: 'Ángel Albino Corzo' },
      { change: 'municipality-added', c_estado: '07', c_mnpio: '125', estado: 'Chiapas', municipio: 'Honduras de la Sierra' },
      {
        change: 'code-municipality-changed',
        cp: '01000',
        from: { c_estado: '09', c_mnpio: '010', municipio: 'Álvaro Obregón' },
        to: { c_estado: '09', c_mnpio: '015', municipio: 'Cuauhtémoc' },
      },
      {
        change: 'code-removed',
        cp: '06600',
        estado: 'Ciudad de México',
        municipio: 'Cuauhtémoc',
        ciudad: f(byCode('06600')[0]!, 'd_ciudad'),
        asentamientos: byCode('06600').map((row) => ({ asentamiento: f(row, 'd_asenta'), tipo_asentamiento: f(row, 'd_tipo_asenta') })),
      },
      { change: 'settlement-renamed', cp: '09810', from: { asentamiento: 'Granjas Esmeralda', tipo_asentamiento: 'Colonia' }, to: { asentamiento: 'Granjas Esmeraldas', tipo_asentamiento: 'Colonia' } },
      {
        change: 'code-added',
        cp: '09999',
        estado: 'Ciudad de México',
        municipio: 'Iztapalapa',
        ciudad: 'Ciudad de México',
        asentamientos: [
          { asentamiento: 'Colonia de Prueba Uno', tipo_asentamiento: 'Colonia' },
          { asentamiento: 'Barrio de Prueba Dos', tipo_asentamiento: 'Barrio' },
        ],
      },
      { change: 'code-state-changed', cp: '20000', from: { c_estado: '01', estado: 'Aguascalientes' }, to: { c_estado: '14', estado: 'Jalisco' } },
      {
        change: 'code-municipality-changed',
        cp: '20000',
        from: { c_estado: '01', c_mnpio: '001', municipio: 'Aguascalientes' },
        to: { c_estado: '14', c_mnpio: '039', municipio: 'Guadalajara' },
      },
      { change: 'settlement-retyped', cp: '29000', asentamiento: 'Guadalupe', from: 'Barrio', to: 'Colonia' },
      {
        change: 'code-added',
        cp: '29999',
        estado: 'Chiapas',
        municipio: 'Honduras de la Sierra',
        ciudad: '',
        asentamientos: [{ asentamiento: 'Honduras de la Sierra Centro', tipo_asentamiento: 'Pueblo' }],
      },
      { change: 'settlement-added', cp: '64000', asentamiento: 'Nueva Colonia Inventada', tipo_asentamiento: 'Colonia' },
      { change: 'code-city-changed', cp: '76000', from: 'Santiago de Querétaro', to: 'Querétaro' },
      { change: 'settlement-removed', cp: '97000', asentamiento: 'Los Cocos', tipo_asentamiento: 'Fraccionamiento' },
    ];
    expect(await diff(realCatalogPath(), altered)).toEqual(expected);
    const artifact = await buildInto(realCatalogPath(), dir, 'real.msgpack');
    const run = cliDiff(artifact, altered);
    expect(run.status).toBe(1);
    expect(run.changes).toEqual(expected);
    expect(run.summary).toMatchObject({ changes: expected.length, old: { file: 'CPdescargatxt.zip', catalogDate: '2018-10-25T00:01:36', codes: 32_166 }, new: { codes: 32_166 + 1 } });
  });
});
