/**
 * The catalog's own date and the build time in the artifact's header, and the age reported
 * from them by `cpmx status` (with its warning), `/health` and `client.catalogInfo()`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildArtifact } from '../../build/build.js';
import { encodeArtifact } from '../../build/write.js';
import { catalogSource, loadCatalog } from '../../src/client/catalog-source.js';
import { createClient } from '../../src/client/client.js';
import { readArtifact } from '../../src/core/catalog.js';
import { catalogAge, type Artifact } from '../../src/core/format.js';
import { createResponder } from '../../src/http/respond.js';
import { BUILD_EPOCH, BUILD_TIME, CLI, FIXTURE, realCatalogPath, tempDir } from '../helpers.js';
import { fixtureBytes, zipOf } from '../support/catalogs.js';

const dir = tempDir();
const DAY = 24 * 60 * 60 * 1000;

function cpmx(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Whole days from `date` to now, as the age is computed, bracketing the call that computes it. */
function daysSince(date: string, measure: () => number | null): { age: number | null; low: number; high: number } {
  const time = Date.parse(date.endsWith('Z') ? date : `${date}Z`);
  const low = Math.floor((Date.now() - time) / DAY);
  const age = measure();
  return { age, low, high: Math.floor((Date.now() - time) / DAY) };
}

let zipArtifact: string;
let textArtifact: string;
let undatedArtifact: string;
let realArtifact: string;
const textDate = new Date('2026-03-01T12:00:00Z');

beforeAll(async () => {
  zipArtifact = join(dir, 'from-zip.msgpack');
  await buildArtifact({ source: writeFile('CPdescargatxt.zip', zipOf({ 'CPdescarga.txt': fixtureBytes }, new Date(2026, 0, 15, 10, 30))), out: zipArtifact, builtAt: BUILD_TIME });
  const text = writeFile('CPdescarga.txt', fixtureBytes);
  utimesSync(text, textDate, textDate);
  textArtifact = join(dir, 'from-text.msgpack');
  await buildArtifact({ source: text, out: textArtifact, builtAt: BUILD_TIME });
  // An artifact as an older cpmx wrote it: no date, no build time.
  const artifact = readArtifact(readFileSync(textArtifact)) as Artifact;
  const { date: _date, dateFrom: _from, ...source } = artifact.header.source;
  const { builtAt: _built, ...header } = artifact.header;
  undatedArtifact = join(dir, 'undated.msgpack');
  writeFileSync(undatedArtifact, encodeArtifact({ ...artifact, header: { ...header, source } }));
  realArtifact = join(dir, 'real.msgpack');
  await buildArtifact({ source: realCatalogPath(), out: realArtifact });
});

function writeFile(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

describe('the header records the dates', () => {
  it("takes a zip's date from its catalog member's timestamp, as written (zips record no zone)", () => {
    const { header } = loadCatalog(zipArtifact);
    expect(header.source).toMatchObject({ date: '2026-01-15T10:30:00', dateFrom: 'zip-entry' });
    expect(header.builtAt).toBe(BUILD_TIME.toISOString());
  });

  it("takes a text file's date from its modification time, in UTC", () => {
    expect(loadCatalog(textArtifact).header.source).toMatchObject({ date: '2026-03-01T12:00:00.000Z', dateFrom: 'file-mtime' });
  });

  it('takes the real catalog date from its zip: 2018-10-25', () => {
    expect(loadCatalog(realArtifact).header.source).toMatchObject({ date: '2018-10-25T00:01:36', dateFrom: 'zip-entry' });
  });

  it('records the build time: now, or SOURCE_DATE_EPOCH for byte-identical rebuilds', () => {
    const out = join(dir, 'cli.msgpack');
    const before = Date.now();
    expect(cpmx(['build', '--source', FIXTURE, '--out', out]).status).toBe(0);
    const builtAt = Date.parse(loadCatalog(out).header.builtAt!);
    expect(builtAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
    expect(builtAt).toBeLessThanOrEqual(Date.now());

    const fixed = [join(dir, 'epoch-1.msgpack'), join(dir, 'epoch-2.msgpack')];
    for (const path of fixed) expect(cpmx(['build', '--source', FIXTURE, '--out', path], { SOURCE_DATE_EPOCH: BUILD_EPOCH }).status).toBe(0);
    expect(readFileSync(fixed[0]!).equals(readFileSync(fixed[1]!))).toBe(true);
    expect(loadCatalog(fixed[0]!).header.builtAt).toBe(BUILD_TIME.toISOString());
    const bad = cpmx(['build', '--source', FIXTURE, '--out', join(dir, 'x.msgpack')], { SOURCE_DATE_EPOCH: 'yesterday' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('SOURCE_DATE_EPOCH must be whole seconds since 1970, got "yesterday"');
  });
});

describe('the age', () => {
  it('is whole days from the catalog date; an artifact without one has an unknown age', () => {
    const header = loadCatalog(zipArtifact).header;
    expect(catalogAge(header, Date.UTC(2026, 0, 15, 10, 30))).toEqual({ catalogDate: '2026-01-15T10:30:00', catalogAgeDays: 0 });
    expect(catalogAge(header, Date.UTC(2026, 3, 15, 10, 29))).toEqual({ catalogDate: '2026-01-15T10:30:00', catalogAgeDays: 89 });
    expect(catalogAge(header, Date.UTC(2026, 3, 15, 10, 30))).toEqual({ catalogDate: '2026-01-15T10:30:00', catalogAgeDays: 90 });
    expect(catalogAge(loadCatalog(undatedArtifact).header, Date.now())).toEqual({ catalogDate: null, catalogAgeDays: null });
  });

  it('client.catalogInfo() gives the header with the date and age', () => {
    const { age, low, high } = daysSince('2026-03-01T12:00:00.000Z', () => createClient({ token: 'x', dataPath: textArtifact }).catalogInfo().catalogAgeDays);
    expect(age).toBeGreaterThanOrEqual(low);
    expect(age).toBeLessThanOrEqual(high);
    const info = createClient({ token: 'x', dataPath: textArtifact }).catalogInfo();
    expect(info).toMatchObject({ rows: 22, catalogDate: '2026-03-01T12:00:00.000Z', builtAt: BUILD_TIME.toISOString() });
    expect(createClient({ token: 'x', dataPath: undatedArtifact }).catalogInfo()).toMatchObject({ catalogDate: null, catalogAgeDays: null });
  });

  it('/health reports it, and nulls when no artifact is loaded', async () => {
    const health = async (path: string) => {
      const respond = createResponder({ source: catalogSource(path), version: '0' });
      const { body } = await respond({ method: 'GET', target: '/health', ifNoneMatch: undefined });
      return JSON.parse(typeof body === 'string' ? body : Buffer.from(body).toString());
    };
    const loaded = await health(zipArtifact);
    expect(loaded).toMatchObject({ loaded: true, catalogDate: '2026-01-15T10:30:00', header: { builtAt: BUILD_TIME.toISOString() } });
    expect(loaded.catalogAgeDays).toBe(catalogAge(loadCatalog(zipArtifact).header, Date.now()).catalogAgeDays);
    expect(await health(join(dir, 'absent.msgpack'))).toMatchObject({ loaded: false, catalogDate: null, catalogAgeDays: null });
  });

  it('cpmx status prints it and warns past --max-age (default 90 days), exit 0 either way', () => {
    let run: ReturnType<typeof cpmx> | undefined;
    const { age, low, high } = daysSince('2026-01-15T10:30:00', () => {
      run = cpmx(['status', '--data', zipArtifact]);
      return JSON.parse(run.stdout).catalogAgeDays;
    });
    const old = run!;
    expect(old.status).toBe(0);
    expect(JSON.parse(old.stdout)).toMatchObject({ loaded: true, catalogDate: '2026-01-15T10:30:00', header: { source: { date: '2026-01-15T10:30:00' } } });
    expect(age).toBeGreaterThanOrEqual(low);
    expect(age).toBeLessThanOrEqual(high);
    const days = age!;
    // The machine's clock decides which side of the threshold the fixture falls; both sides are checked.
    const warning = `cpmx status: warning: the catalog is ${days} days old (dated 2026-01-15), more than`;
    if (days > 90) expect(old.stderr).toContain(`${warning} 90;`);
    else expect(old.stderr).toBe('');
    expect(cpmx(['status', '--data', zipArtifact, '--max-age', String(days)]).stderr).toBe('');
    const strict = cpmx(['status', '--data', zipArtifact, '--max-age', String(Math.max(0, days - 1))]);
    expect(strict.status).toBe(0);
    expect(strict.stderr).toContain(`${warning} ${Math.max(0, days - 1)};`);
    expect(strict.stderr).toContain('cpmx build --download');
    expect(cpmx(['status', '--data', zipArtifact, '--max-age', 'soon']).status).toBe(2);
  });

  it('cpmx status warns about the real catalog of 2018, and says when the date is unknown', () => {
    const real = cpmx(['status', '--data', realArtifact]);
    expect(real.stderr).toMatch(/warning: the catalog is \d{4} days old \(dated 2018-10-25\), more than 90;/);
    const unknown = cpmx(['status', '--data', undatedArtifact]);
    expect(unknown.status).toBe(0);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ catalogDate: null, catalogAgeDays: null });
    expect(unknown.stderr).toContain("the catalog's date is unknown");
  });
});
