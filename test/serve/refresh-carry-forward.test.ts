/**
 * A refresh keeps what the served artifact records beyond the official file (issue 24): an
 * artifact built with `--corrections` and `--previous`, served by `cpmx serve --refresh-every`
 * from the local replica of the Correos page, refreshed twice to changed catalogs. The
 * corrections still answer; the ones that no longer apply (their settlement now official, their
 * code gone) are dropped and said in the log, /health, /metrics and the new artifact's header;
 * the history grows (a code removed now is retired since the new catalog's date, an old retired
 * code stays retired, a new code is current since then), read back by codeHistory and
 * validation's 124. `cpmx build --update` does the same from the CLI. Every wait is on /health.
 */
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/index.js';
import { validateAddress } from '../../src/validate/index.js';
import { CLI, tempDir } from '../helpers.js';
import { HEADER, NOTICE, ROWS } from '../support/catalogs.js';
import { catalogZip, CorreosReplica } from '../support/correos-replica.js';
import { outputMatches, startServer, stopServer } from '../support/serve.js';
import { everyWorker } from '../support/worker-health.js';

const run = promisify(execFile);
const dir = tempDir();
const CODE = HEADER.split('|').indexOf('d_codigo');
const NAME = HEADER.split('|').indexOf('d_asenta');

/** The fixture's rows but those of the codes `without`, plus `extra`, as the official file's bytes. */
function catalog({ without = [] as string[], extra = [] as string[] } = {}): Buffer {
  const rows = ROWS.filter((row) => !without.includes(row.split('|')[CODE]!));
  return Buffer.from(`${[NOTICE, HEADER, ...rows, ...extra].join('\r\n')}\r\n`, 'latin1');
}

/** A fixture row of `like` with another code and settlement name. */
function rowAs(like: string, cp: string, settlement: string): string {
  const fields = ROWS.find((row) => row.startsWith(`${like}|`))!.split('|');
  fields[CODE] = cp;
  fields[NAME] = settlement;
  return fields.join('|');
}

// 2025: an older catalog with 58001, which the served one lacks (retired before any refresh).
const OLD = catalog({ extra: [rowAs('58000', '58001', 'Vieja')] });
// Served (January 2026): the fixture, corrected.
const SERVED = catalog();
// February: Correos publishes the settlement a correction added, drops 25000 (which a correction renamed), adds 58002.
const FEBRUARY = catalog({ without: ['25000'], extra: [rowAs('03100', '03100', 'Colonia Corregida'), rowAs('58000', '58002', 'Nueva')] });
// March: 09819 gone too.
const MARCH = catalog({ without: ['25000', '09819'], extra: [rowAs('03100', '03100', 'Colonia Corregida'), rowAs('58000', '58002', 'Nueva')] });
const dates = { old: new Date(2025, 5, 1, 9, 0), served: new Date(2026, 0, 15, 10, 30), february: new Date(2026, 1, 16, 10, 30), march: new Date(2026, 2, 16, 10, 30) };

/** Line 2 stays applicable; line 3 is made official in February; line 4's code is gone in February. */
const CORRECTIONS = [
  'action,cp,asentamiento,tipo_asentamiento,nuevo_asentamiento,nuevo_tipo_asentamiento,estado,municipio,ciudad,nota',
  'rename-settlement,01000,San Ángel,,San Ángel Inn,,,,,the name the neighbours use',
  'add-settlement,03100,Colonia Corregida,Colonia,,,,,,Correos left it out',
  'rename-settlement,25000,Saltillo Zona Centro,,Saltillo Centro,,,,,',
].join('\n');

/** The zip of `bytes` dated `date`, written to `name` in the test's folder. */
function zipFile(name: string, bytes: Buffer, date: Date): string {
  const path = join(dir, name);
  writeFileSync(path, catalogZip(bytes, '00', date));
  return path;
}

/** The artifact served: built with the corrections and the older catalog, as an operator would. */
async function servedArtifact(name: string): Promise<string> {
  const corrections = join(dir, 'corrections.csv');
  writeFileSync(corrections, CORRECTIONS);
  const out = join(dir, `${name}.msgpack`);
  await run(process.execPath, [CLI, 'build', '--source', zipFile(`${name}-served.zip`, SERVED, dates.served), '--corrections', corrections, '--previous', zipFile(`${name}-old.zip`, OLD, dates.old), '--out', out]);
  return out;
}

/** A client of the artifact at `path` as it is now (a client by path loads each path once per process). */
const clientOf = (path: string) => createClient({ data: readFileSync(path) });

const replicas: CorreosReplica[] = [];
afterAll(async () => {
  for (const replica of replicas) await replica.close().catch(() => undefined);
});

/** What a dropped correction looks like in /health and in the artifact's header. */
const droppedRows = (droppedAt: string) => [
  expect.objectContaining({ line: 3, action: 'add-settlement', cp: '03100', reason: 'postal code 03100 already has the settlement "Colonia Corregida" (Colonia)', droppedAt }),
  expect.objectContaining({ line: 4, action: 'rename-settlement', cp: '25000', reason: 'no postal code 25000 in the catalog', droppedAt }),
];

describe('a scheduled refresh carries the served artifact forward', () => {
  it('re-applies its corrections, reports those that no longer apply, and extends its history', async () => {
    const data = await servedArtifact('served');
    const before = clientOf(data);
    const servedDate = before.catalogInfo().source.date!;
    expect(before.codeHistory('58001')).toMatchObject({ status: 'retired', retiredSince: servedDate });
    expect(before.infoCp('01000', { type: 'simplified' })).toMatchObject({ response: { asentamiento: ['San Ángel Inn'] } });

    const replica = await CorreosReplica.start({ catalog: SERVED });
    replicas.push(replica);
    replica.zipFor = (state) => catalogZip(FEBRUARY, state, dates.february);
    const workers = 2;
    // 1 of the 15 codes goes in February: more than the default 1%.
    const server = await startServer(['--workers', String(workers), '--data', data, '--refresh-every', '1s', '--max-loss', '10%', '--page-url', replica.pageUrl, '--metrics']);
    try {
      const swapped = await everyWorker(server.url, workers, (h) => h.lastRefresh?.result === 'swapped' && h.corrections?.dropped === 2, 'the February catalog swapped in');
      const february = clientOf(data);
      const februaryDate = february.catalogInfo().source.date!;
      expect(Date.parse(februaryDate)).toBeGreaterThan(Date.parse(servedDate));
      for (const health of swapped) {
        expect(health.corrections).toEqual({ applied: 1, dropped: 2 });
        expect(health.lastRefresh).toMatchObject({ codes: 15, lost: 1, reason: null });
        expect(health.lastRefresh!.droppedCorrections).toEqual(droppedRows(februaryDate));
      }
      await outputMatches(
        server,
        /refresh: wrote a new catalog \(15 codes, 1 of the served ones gone\); 2 of the served artifact's corrections no longer apply and were dropped \(cpmx status lists them\): line 3 \(add-settlement 03100\): postal code 03100 already has the settlement "Colonia Corregida" \(Colonia\); line 4 \(rename-settlement 25000\): no postal code 25000 in the catalog/,
      );
      const metrics = await (await fetch(`${server.url}/metrics`, { headers: { connection: 'close' } })).text();
      const family = (parsePrometheusTextFormat(metrics) as Array<{ name: string; metrics: Array<{ value: string; labels?: Record<string, string> }> }>).find((f) => f.name === 'cpmx_catalog_corrections');
      expect(family?.metrics.map((m) => [m.labels?.state, Number(m.value)])).toEqual([
        ['applied', 1],
        ['dropped', 2],
      ]);

      // The correction that still applies answers, over HTTP and from the artifact written.
      const answer = await (await fetch(`${server.url}/query/info_cp/01000?token=refresco&type=simplified`, { headers: { connection: 'close' } })).json();
      expect(answer).toMatchObject({ response: { asentamiento: ['San Ángel Inn'] } });
      const info = february.catalogInfo();
      expect(info.corrections!.file).toBe('corrections.csv');
      expect(info.corrections!.applied.map((c) => c.line)).toEqual([2]);
      expect(info.corrections!.dropped).toEqual(droppedRows(februaryDate));
      expect(february.codeHistory('01000')).toMatchObject({ status: 'current', corrected: [expect.objectContaining({ line: 2, nuevo_asentamiento: 'San Ángel Inn' })] });
      // Correos's own row of 03100 now, once.
      expect(february.infoCp('03100', { type: 'simplified' })).toMatchObject({ response: { asentamiento: ['Del Valle Centro', 'Colonia Corregida'] } });

      // The history: the old retired code still retired, the code gone now retired since February at its last (corrected) place, the new one current.
      expect(february.codeHistory('58001')).toMatchObject({ status: 'retired', retiredSince: servedDate, lastPlace: { asentamientos: ['Vieja'] } });
      expect(february.codeHistory('25000')).toMatchObject({
        status: 'retired',
        retiredSince: februaryDate,
        lastSeen: servedDate,
        lastPlace: { estado: 'Coahuila de Zaragoza', municipio: 'Saltillo', ciudad: 'Saltillo', asentamientos: ['Saltillo Centro'] },
      });
      expect(february.codeHistory('58002')).toMatchObject({ status: 'current', since: februaryDate });
      // The catalogs known: the older one the served artifact was built against, and the served one.
      expect(info.history!.previous).toHaveLength(2);
      expect(Date.parse(info.history!.previous[0]!.date)).toBeLessThan(Date.parse(servedDate));
      expect(info.history!.previous[1]!.date).toBe(servedDate);
      expect(validateAddress(february, { cp: '25000', municipio: 'Saltillo' }).errors[0]).toMatchObject({
        code_error: 124,
        reason: `retired since ${februaryDate.slice(0, 10)}; last in Saltillo, Coahuila de Zaragoza (Saltillo Centro)`,
      });
      expect(validateAddress(february, { cp: '58001' }).errors[0]).toMatchObject({ code_error: 124 });
      // The API answers 105 for a retired code, as COPOMEX does.
      const retired = await (await fetch(`${server.url}/query/info_cp/25000?token=refresco`, { headers: { connection: 'close' } })).json();
      expect(retired).toMatchObject({ error: true, code_error: 105 });

      // March, from the artifact the refresh itself wrote: the history and the dropped rows carry on again.
      const februaryId = swapped[0]!.buildId;
      replica.zipFor = (state) => catalogZip(MARCH, state, dates.march);
      await everyWorker(server.url, workers, (h) => h.buildId !== februaryId && h.lastRefresh?.result === 'swapped', 'the March catalog swapped in');
      const march = clientOf(data);
      const marchDate = march.catalogInfo().source.date!;
      expect(march.codeHistory('09819')).toMatchObject({ status: 'retired', retiredSince: marchDate, lastSeen: februaryDate, lastPlace: { municipio: 'Iztapalapa', asentamientos: ['Los Cipreses'] } });
      expect(march.codeHistory('25000')).toMatchObject({ status: 'retired', retiredSince: februaryDate, lastSeen: servedDate });
      expect(march.codeHistory('58001')).toMatchObject({ status: 'retired', retiredSince: servedDate });
      expect(march.codeHistory('58002')).toMatchObject({ status: 'current', since: februaryDate });
      expect(march.codeHistory('99999')).toMatchObject({ status: 'never-existed', catalogsKnown: 4 });
      expect(march.catalogInfo().corrections!.dropped).toEqual(droppedRows(februaryDate));
      expect(march.infoCp('01000', { type: 'simplified' })).toMatchObject({ response: { asentamiento: ['San Ángel Inn'] } });

      // A changed catalog dated before the one served would end its history: refused, said why, nothing written.
      const written = readFileSync(data);
      replica.zipFor = (state) => catalogZip(FEBRUARY, state, dates.served);
      const refused = await everyWorker(server.url, workers, (h) => h.lastRefresh?.result === 'refused', 'the older catalog refused');
      expect(refused[0]!.lastRefresh!.reason).toMatch(/^the downloaded catalog cannot be built: .*\.msgpack: is dated 2026-03-16T10:30:00, not before the catalog being built \(2026-01-15T10:30:00\)/);
      await outputMatches(server, /refresh refused: the downloaded catalog cannot be built: .* is dated .*; the catalog served is kept/);
      expect(readFileSync(data).equals(written)).toBe(true);
    } finally {
      await stopServer(server);
    }
  }, 120_000);
});

describe('cpmx build --update', () => {
  it('builds over the artifact at --out as a refresh does, and says which corrections it dropped', async () => {
    const out = await servedArtifact('update');
    const february = zipFile('update-february.zip', FEBRUARY, dates.february);
    const result = spawnSync(process.execPath, [CLI, 'build', '--source', february, '--update', '--out', out], { encoding: 'utf8' });
    expect(result.stderr).not.toMatch(/refused/);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('1 corrections applied');
    expect(result.stdout).toContain('correction dropped (no longer applies): line 3, add-settlement 03100: postal code 03100 already has the settlement "Colonia Corregida" (Colonia)');
    expect(result.stdout).toContain('correction dropped (no longer applies): line 4, rename-settlement 25000: no postal code 25000 in the catalog');
    expect(result.stdout).toMatch(/against 2 earlier catalog\(s\): 2 codes retired, 1 added/);
    const client = clientOf(out);
    expect(client.codeHistory('25000')).toMatchObject({ status: 'retired', retiredSince: client.catalogInfo().source.date });
    expect(client.codeHistory('58001')).toMatchObject({ status: 'retired' });
    expect(client.infoCp('01000', { type: 'simplified' })).toMatchObject({ response: { asentamiento: ['San Ángel Inn'] } });

    // The same catalog again: nothing new, and its history kept as it was.
    const again = spawnSync(process.execPath, [CLI, 'build', '--source', february, '--update', '--out', out], { encoding: 'utf8' });
    expect(again.status).toBe(0);
    const same = clientOf(out);
    expect(same.catalogInfo().history).toEqual(client.catalogInfo().history);
    expect(same.codeHistory('25000')).toEqual(client.codeHistory('25000'));
    expect(same.catalogInfo().corrections).toEqual(client.catalogInfo().corrections);

    // A catalog older than the artifact would lose its history: refused, the artifact left as it was.
    const before = readFileSync(out);
    const older = spawnSync(process.execPath, [CLI, 'build', '--source', zipFile('update-older.zip', MARCH, dates.served), '--update', '--out', out], { encoding: 'utf8' });
    expect(older.status).toBe(1);
    expect(older.stderr).toMatch(/refused: .*update\.msgpack: is dated .*, not before the catalog being built/);
    expect(readFileSync(out).equals(before)).toBe(true);
  });

  it.each([
    [['--update', '--corrections', 'x.csv'], /--update keeps the corrections and history of the artifact at --out; it takes no --corrections or --previous/, 2],
    [['--update', '--previous', 'old.zip'], /--update keeps the corrections and history of the artifact at --out; it takes no --corrections or --previous/, 2],
  ])('%j is a usage error', (args, message, status) => {
    const result = spawnSync(process.execPath, [CLI, 'build', '--source', join(dir, 'none.zip'), '--out', join(dir, 'none.msgpack'), ...args], { encoding: 'utf8' });
    expect(result.stderr).toMatch(message);
    expect(result.status).toBe(status);
  });

  it('needs an artifact at --out to build over', () => {
    const result = spawnSync(process.execPath, [CLI, 'build', '--source', zipFile('alone.zip', SERVED, dates.served), '--update', '--out', join(dir, 'missing.msgpack')], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/missing\.msgpack: --update builds over the artifact there, and it cannot be read \(no artifact here; .*\); build without --update first/);
  });
});
