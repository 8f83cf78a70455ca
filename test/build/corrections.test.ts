/**
 * `cpmx build --corrections`: every action applied and answered by every way in (library,
 * HTTP-shaped query, validation, the CLI's status and diff), and every kind of bad row refused
 * with its line, nothing written.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildArtifact, CatalogError } from '../../build/build.js';
import { SHAPE_LIMITS } from '../../build/limits.js';
import { createClient } from '../../src/index.js';
import { validateAddress } from '../../src/validate/index.js';
import { staticServer } from '../../bench/static-server.js';
import { BUILD_EPOCH, BUILD_TIME, CLI, FIXTURE, ok, root, tempDir } from '../helpers.js';
import { listen } from '../support/http.js';
import { exportWeb } from '../support/web.js';

const dir = tempDir();
const HEADER = 'action,cp,asentamiento,tipo_asentamiento,nuevo_asentamiento,nuevo_tipo_asentamiento,estado,municipio,ciudad,nota';

function csv(name: string, ...rows: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${[HEADER, ...rows].join('\n')}\n`);
  return path;
}

const GOOD = csv(
  'good.csv',
  'rename-settlement,01000,san angel,,San Ángel Inn,,,,,"typo in the catalog, ticket 12"',
  'remove-settlement,01010,Los Alpes,,,,,,,',
  'add-settlement,03100,Nueva Colonia,Colonia,,,,,,',
  'move-code-municipality,09810,,,,,Ciudad de México,Benito Juárez,,',
  'move-code-city,58000,,,,,,,Ciudad Nueva,',
  'add-settlement,02999,Colonia Nueva,Colonia,,,09,Iztapalapa,,',
);

async function build(corrections: string, out = join(dir, 'out.msgpack')) {
  return buildArtifact({ source: FIXTURE, out, builtAt: BUILD_TIME, corrections });
}

describe('applied corrections', async () => {
  const plain = join(dir, 'plain.msgpack');
  await buildArtifact({ source: FIXTURE, out: plain, builtAt: BUILD_TIME });
  const out = join(dir, 'corrected.msgpack');
  const summary = await build(GOOD, out);
  const client = createClient({ dataPath: out });
  const before = createClient({ dataPath: plain });

  it('answers the corrected catalog', () => {
    expect(summary.corrections).toBe(6);
    const names = (cp: string) => ok(client.infoCp(cp, { type: 'simplified' })).response.asentamiento;
    expect(names('01000')).toContain('San Ángel Inn');
    expect(names('01000')).not.toContain('San Ángel');
    // Los Alpes was 01010's only settlement: the code is gone.
    expect(before.infoCp('01010', { type: 'simplified' })).toMatchObject({ error: false });
    expect(client.infoCp('01010', { type: 'simplified' })).toMatchObject({ error: true, code_error: 105 });
    expect(names('03100')).toEqual([...ok(before.infoCp('03100', { type: 'simplified' })).response.asentamiento, 'Nueva Colonia']);
    expect(ok(client.infoCp('09810', { type: 'simplified' })).response.municipio).toBe('Benito Juárez');
    expect(ok(client.getCpPorMunicipio('Benito Juárez', { estado: 'Ciudad de México' })).response.cp).toContain('09810');
    expect(ok(client.getCpPorMunicipio('Iztapalapa')).response.cp).not.toContain('09810');
    expect(ok(client.infoCp('58000', { type: 'simplified' })).response.ciudad).toBe('Ciudad Nueva');
    expect(ok(client.infoCp('02999', { type: 'simplified' })).response).toMatchObject({ municipio: 'Iztapalapa', estado: 'Ciudad de México', asentamiento: ['Colonia Nueva'] });
    expect(client.query('/query/info_cp/02999?type=simplified&token=demo').status).toBe(200);
  });

  it('validates against the corrected catalog', () => {
    expect(validateAddress(client, { cp: '01000', asentamiento: 'San Ángel Inn' }).valid).toBe(true);
    expect(validateAddress(client, { cp: '09810', municipio: 'Benito Juárez' }).valid).toBe(true);
    expect(validateAddress(client, { cp: '09810', municipio: 'Iztapalapa' }).errors[0]).toMatchObject({ code_error: 121 });
  });

  it('records them in the artifact: catalogInfo and cpmx status list them', () => {
    const info = client.catalogInfo();
    expect(info.corrections).toMatchObject({ file: 'good.csv', applied: expect.any(Array) });
    expect(info.corrections!.applied).toHaveLength(6);
    expect(info.corrections!.applied[0]).toEqual({
      line: 2,
      action: 'rename-settlement',
      cp: '01000',
      asentamiento: 'san angel',
      nuevo_asentamiento: 'San Ángel Inn',
      nota: 'typo in the catalog, ticket 12',
    });
    const status = spawnSync(process.execPath, [CLI, 'status', '--data', out], { encoding: 'utf8' });
    expect(status.status).toBe(0);
    expect(JSON.parse(status.stdout).header.corrections.applied.map((c: { action: string }) => c.action)).toEqual([
      'rename-settlement',
      'remove-settlement',
      'add-settlement',
      'move-code-municipality',
      'move-code-city',
      'add-settlement',
    ]);
    expect(client.codeHistory('09810')).toMatchObject({ status: 'current', corrected: [{ line: 5, action: 'move-code-municipality' }] });
  });

  it('cpmx diff shows which corrections made each change', () => {
    const run = spawnSync(process.execPath, [CLI, 'diff', plain, out], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line));
    const summary = lines.pop();
    expect(summary.new.corrections).toHaveLength(6);
    expect(summary.old.corrections).toEqual([]);
    expect(lines.find((c) => c.change === 'code-municipality-changed')).toMatchObject({ cp: '09810', corrections: [{ side: 'new', line: 5, action: 'move-code-municipality' }] });
    expect(lines.find((c) => c.change === 'code-removed')).toMatchObject({ cp: '01010', corrections: [{ side: 'new', line: 3 }] });
    expect(lines.every((c) => Array.isArray(c.corrections))).toBe(true);
  });

  it('a web export answers the corrected catalog, over real HTTP', async () => {
    const tree = join(dir, 'tree');
    expect(exportWeb(out, tree).status).toBe(0);
    const server = await listen(staticServer({ '/tree/': tree }));
    const web = (await import(join(root, 'dist', 'web.js'))) as typeof import('../../src/web/index.js');
    const remote = web.createWebClient({ base: `${server.url}/tree/`, token: 'demo' });
    for (const cp of ['01000', '01010', '02999', '03100', '09810', '58000']) {
      expect(await remote.infoCp(cp, { type: 'simplified' })).toEqual(client.infoCp(cp, { type: 'simplified' }));
    }
    expect(await remote.getCpPorMunicipio('Benito Juárez', { estado: 'Ciudad de México' })).toEqual(client.getCpPorMunicipio('Benito Juárez', { estado: 'Ciudad de México' }));
  });

  it('the CLI builds with --corrections and says how many', () => {
    const target = join(dir, 'cli.msgpack');
    const run = spawnSync(process.execPath, [CLI, 'build', '--source', FIXTURE, '--corrections', GOOD, '--out', target], {
      encoding: 'utf8',
      env: { ...process.env, SOURCE_DATE_EPOCH: BUILD_EPOCH },
    });
    expect(run.stderr).not.toContain('refused');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('6 corrections applied');
    expect(readFileSync(target)).toEqual(readFileSync(out));
  });
});

describe('refused corrections', () => {
  const cases: [string, string[], RegExp, number][] = [
    ['an unknown action', ['rename-code,01000,,,,,,,,'], /unknown action "rename-code"/, 2],
    ['a code not in the catalog', ['remove-settlement,29019,Centro,,,,,,,'], /no postal code 29019 in the catalog/, 2],
    ['a settlement not under the code', ['remove-settlement,01000,Roma Norte,,,,,,,'], /01000 has no settlement "Roma Norte"; it has "San Ángel"/, 2],
    ['a missing column value', ['add-settlement,03100,Nueva,,,,,,,'], /add-settlement needs tipo_asentamiento/, 2],
    ['a column the action does not use', ['remove-settlement,01000,San Ángel,,,,,,Ciudad X,'], /remove-settlement does not use ciudad/, 2],
    ['two corrections of one settlement', ['rename-settlement,01000,San Ángel,,Inn,,,,,', 'remove-settlement,01000,San Angel,,,,,,,'], /already corrected on line 2/, 3],
    ['a code moved twice', ['move-code-city,58000,,,,,,,A,', 'move-code-city,58000,,,,,,,B,'], /already moved on line 2/, 3],
    ['an unknown municipality', ['move-code-municipality,09810,,,,,Ciudad de México,Gotham,,'], /no municipality "Gotham" in Ciudad de México/, 2],
    ['a settlement added twice', ['add-settlement,03100,Nueva,Colonia,,,,,,', 'add-settlement,03100,nueva,colonia,,,,,,'], /03100 already has the settlement "nueva"/, 3],
    ['a rename onto an existing settlement', ['rename-settlement,09810,Granjas Esmeralda,,Progreso del Sur,,,,,'], /09810 already has a settlement "Progreso del Sur"/, 2],
    ['a name two settlements share', ['remove-settlement,09810,Minerva,,,,,,,'], /09810 has 2 settlements named "Minerva"; give tipo_asentamiento/, 2],
    ['a new code with no place', ['add-settlement,29019,Centro,Colonia,,,,,,'], /to add a code, give estado and municipio/, 2],
    ['a bad postal code', ['remove-settlement,1000,San Ángel,,,,,,,'], /cp "1000" is not a 5-digit postal code/, 2],
  ];
  it.each(cases)('%s: the build is refused with the line, nothing written', async (_name, rows, message, line) => {
    const out = join(dir, `refused-${line}-${rows.length}.msgpack`);
    const error = await build(csv(`bad-${_name.replaceAll(' ', '-')}.csv`, ...rows), out).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CatalogError);
    expect((error as CatalogError).line).toBe(line);
    expect((error as CatalogError).message).toMatch(message);
    expect((error as CatalogError).message).toContain('no correction was applied');
    expect(existsSync(out)).toBe(false);
  });

  it('lists every problem of a file, each with its line, and leaves the existing artifact as it was', async () => {
    const out = join(dir, 'kept.msgpack');
    await buildArtifact({ source: FIXTURE, out, builtAt: BUILD_TIME });
    const kept = readFileSync(out);
    const path = csv('many.csv', 'rename-settlement,01000,San Ángel,,Inn,,,,,', 'remove-settlement,29019,X,,,,,,,', 'frobnicate,01000,,,,,,,,', 'remove-settlement,01010,Nada,,,,,,,');
    const run = spawnSync(process.execPath, [CLI, 'build', '--source', FIXTURE, '--corrections', path, '--out', out], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('line 3');
    expect(run.stderr).toMatch(/line 4: unknown action "frobnicate"/);
    expect(run.stderr).toMatch(/line 5: postal code 01010 has no settlement "Nada"/);
    expect(run.stderr).toContain('The existing artifact, if any, was left as it was.');
    expect(readFileSync(out)).toEqual(kept);
  });

  it('a corrected row past the catalog limits is refused naming the corrections file and line', async () => {
    const path = csv('long.csv', 'remove-settlement,01010,Los Alpes,,,,,,,', `rename-settlement,01000,San Ángel,,${'x'.repeat(SHAPE_LIMITS.maxNameChars + 1)},,,,,`);
    const error = await build(path, join(dir, 'long.msgpack')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CatalogError);
    expect(error).toMatchObject({ file: path, line: 3 });
    expect((error as Error).message).toMatch(/d_asenta is \d+ characters long/);
  });

  it('refuses a file with unknown columns, without the key columns, or not UTF-8', async () => {
    const unknown = join(dir, 'unknown.csv');
    writeFileSync(unknown, 'action,cp,colonia\nremove-settlement,01000,San Ángel\n');
    await expect(build(unknown)).rejects.toThrow(/unknown column\(s\) "colonia"/);
    const noCp = join(dir, 'nocp.csv');
    writeFileSync(noCp, 'action,asentamiento\nremove-settlement,San Ángel\n');
    await expect(build(noCp)).rejects.toThrow(/no "cp" column/);
    const latin1 = join(dir, 'latin1.csv');
    writeFileSync(latin1, Buffer.from('action,cp,asentamiento\nremove-settlement,01000,San Ángel\n', 'latin1'));
    await expect(build(latin1)).rejects.toThrow(/not UTF-8/);
    const empty = join(dir, 'empty.csv');
    writeFileSync(empty, `${HEADER}\n`);
    await expect(build(empty)).rejects.toThrow(/header but no corrections/);
  });
});
