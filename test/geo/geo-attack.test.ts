/**
 * Attacks on the geodata's inputs (issue 37's last round): hostile polygon files given to
 * `cpmx build --geo` (huge coordinates, NaN and strings, unclosed rings, self-intersections,
 * too many vertices, too large a file, not GeoJSON at all) are refused with a message that
 * names the file, the feature and the limit, never a stack trace, and nothing is written; what
 * is accepted is answered without a crash.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/index.js';
import { CLI, FIXTURE, tempDir } from '../helpers.js';

const dir = tempDir();
let n = 0;

const square = (w: number, s: number, e: number, nn: number) => [
  [w, s],
  [e, s],
  [e, nn],
  [w, nn],
  [w, s],
];
const collection = (features: unknown[]) => JSON.stringify({ type: 'FeatureCollection', name: 'CP_attack_v1', features });
const feature = (d_codigo: unknown, geometry: unknown) => ({ type: 'Feature', properties: { d_codigo }, geometry });

/** Builds the fixture catalog with `text` as the polygon file; the run and where it would have written. */
function build(text: string | Buffer, extra: string[] = []) {
  const folder = join(dir, `run${n++}`);
  mkdirSync(folder);
  const polygons = join(folder, 'polygons.geojson');
  writeFileSync(polygons, text);
  const out = join(folder, 'cpmx.msgpack');
  const run = spawnSync(process.execPath, [CLI, 'build', '--source', FIXTURE, '--out', out, '--geo', polygons, ...extra], { encoding: 'utf8' });
  return { ...run, out, geo: join(folder, 'cpmx.geo') };
}

function refused(run: ReturnType<typeof build>, message: RegExp): void {
  expect(run.status, run.stderr).toBe(1);
  expect(run.stderr).toMatch(message);
  expect(run.stderr).not.toMatch(/\n\s+at |TypeError|RangeError/);
  expect(run.stderr).toContain('Nothing was written.');
  expect(existsSync(run.out)).toBe(false);
  expect(existsSync(run.geo)).toBe(false);
}

describe('hostile polygon files', () => {
  it('refuses coordinates that are not two finite numbers in range, naming the feature, ring and position', () => {
    const cases: [unknown, RegExp][] = [
      [[1e300, 19], /feature 1 \(cp 09810\), ring 1, position 1: \[1e\+300,19\] is not \[longitude, latitude\]/],
      [[-99, 'NaN'], /position 1: \[-99,"NaN"\] is not/],
      [[-99, null], /position 1: \[-99,null\] is not/],
      [['-99', '19'], /is not \[longitude, latitude\]/],
      [[-99], /is not \[longitude, latitude\]/],
      [{ x: 1 }, /is not \[longitude, latitude\]/],
      [[-99, 91], /-90 to 90/],
    ];
    for (const [position, message] of cases) {
      const ring = [position, ...square(-99.118, 19.35, -99.11, 19.357)];
      refused(build(collection([feature(9810, { type: 'Polygon', coordinates: [ring] })])), message);
    }
  });

  it('refuses what is not GeoJSON polygons of postal codes', () => {
    refused(build('{"type":"FeatureCollection","features":[{'), /polygons\.geojson: not JSON/);
    refused(build(Buffer.from([0xff, 0xfe, 0, 1, 2])), /not JSON/);
    refused(build('{"type":"Topology"}'), /not a GeoJSON FeatureCollection/);
    refused(build('[]'), /not a GeoJSON FeatureCollection/);
    refused(build(collection([feature(9810, { type: 'Point', coordinates: [-99, 19] })])), /feature 1 \(cp 09810\): the geometry is Point; a Polygon or MultiPolygon is needed/);
    refused(build(collection([feature(9810, null)])), /the geometry is missing/);
    refused(build(collection([null])), /feature 1: d_codigo missing is not a postal code/);
    for (const code of [-1, 0, 100000, 1.5, '9810x', '', '123456', { a: 1 }]) {
      refused(build(collection([feature(code, { type: 'Polygon', coordinates: [square(-99.118, 19.35, -99.11, 19.357)] })])), /d_codigo .* is not a postal code \(1 to 5 digits\)/);
    }
    refused(build(collection([feature(9810, { type: 'Polygon', coordinates: 'x' })])), /a polygon must be a list of rings/);
    refused(build(collection([feature(9810, { type: 'Polygon', coordinates: ['x'] })])), /a ring must be a list of positions/);
    refused(build(collection([feature(9810, { type: 'MultiPolygon', coordinates: 5 })])), /the geometry is MultiPolygon; a Polygon or MultiPolygon is needed/);
  });

  it('refuses a file over the size limit, and more vertices than the limit, before reading them all', () => {
    const big = collection([feature(9810, { type: 'Polygon', coordinates: [square(-99.118, 19.35, -99.11, 19.357)] })]);
    refused(build(big, ['--geo-max-bytes', '100']), /polygons\.geojson: \d+ bytes, more than the 100 a polygon file may have \(--geo-max-bytes raises it\)/);
    const ring = Array.from({ length: 5001 }, (_, i) => [-99.1 + Math.cos(i) * 0.01, 19.35 + Math.sin(i) * 0.01]);
    refused(build(collection([feature(9810, { type: 'Polygon', coordinates: [ring] })]), ['--geo-max-vertices', '5000']), /more than 5000 vertices in all \(--geo-max-vertices raises it\)/);
    // A polygon file that is a FIFO, a device or a folder is refused, never waited on.
    const folder = join(dir, 'a-folder.geojson');
    mkdirSync(folder);
    const run = spawnSync(process.execPath, [CLI, 'build', '--source', FIXTURE, '--out', join(dir, 'x.msgpack'), '--geo', folder, '/dev/zero'], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/a-folder\.geojson: not a regular file/);
  });

  it('accepts unclosed rings, self-intersections and repeated vertices, and answers without a crash', () => {
    const unclosed = square(-99.118, 19.35, -99.11, 19.357).slice(0, 4);
    // A bowtie whose lobes differ in size: both answer (the even-odd rule), its area is their signed sum.
    const bowtie = [
      [-99.11, 19.35],
      [-99.102, 19.357],
      [-99.102, 19.352],
      [-99.11, 19.357],
      [-99.11, 19.35],
    ];
    const repeated = square(-99.18, 19.37, -99.16, 19.39).flatMap((position) => [position, position]);
    const run = build(
      collection([
        feature(9810, { type: 'Polygon', coordinates: [unclosed] }),
        feature('09819', { type: 'Polygon', coordinates: [bowtie] }),
        feature(3100, { type: 'Polygon', coordinates: [repeated] }),
        // A bowtie whose lobes cancel out encloses no signed area: said so, left out.
        feature(1000, { type: 'Polygon', coordinates: [[[-99.2, 19.3], [-99.19, 19.31], [-99.19, 19.3], [-99.2, 19.31], [-99.2, 19.3]]] }),
      ]),
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('1 codes whose polygons enclose no area (left out): 01000');
    const client = createClient({ dataPath: run.out });
    expect(client.infoCpGeocodingReverse(19.3535, -99.114)).toMatchObject({ response: { cp: '09810' } });
    expect(client.infoCpGeocodingReverse(19.3545, -99.1035)).toMatchObject({ response: { cp: '09819' } });
    expect(client.infoCpGeocodingReverse(19.3535, -99.109)).toMatchObject({ response: { cp: '09819' } });
    expect(client.infoCpGeocodingReverse(19.38, -99.17)).toMatchObject({ response: { cp: '03100' } });
    expect(client.infoCpGeocoding('09819')).toMatchObject({ error: false });
  });

  it('points far outside anything, at the poles and the antimeridian, answer and never throw', () => {
    const run = build(collection([feature(9810, { type: 'Polygon', coordinates: [square(-99.118, 19.35, -99.11, 19.357)] })]));
    const client = createClient({ dataPath: run.out });
    for (const [lat, lng] of [
      [90, 180],
      [-90, -180],
      [0, 0],
      [19.35, -180],
      [1e-300, -1e-300],
    ] as const) {
      const body = client.infoCpGeocodingReverse(lat, lng) as { code_error: number };
      expect([141, 142], `${lat},${lng}`).toContain(body.code_error);
    }
    expect(client.nearestCodes(19.35, -99.114, { radius: 100_000, limit: 1000 })).toEqual([{ cp: '09810', metros: 0 }]);
  });
});
