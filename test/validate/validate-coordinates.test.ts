/**
 * `cpmx validate --coordinates` on the fixture polygons (test/fixtures/geo/mini.geojson) and on
 * the real ones (../shared/data/sepomex-geo/): each valid record's point, a GPS point outside
 * its written code's area flagged 126 with the metres to it, a malformed one 127, CSV and
 * NDJSON alike, the same in worker threads, and an artifact without geodata refused (exit 2).
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/index.js';
import { buildInto, FIXTURE, realCatalogPath, tempDir } from '../helpers.js';
import { buildGeoBeside, realPolygonPaths } from '../support/geo.js';
import { bad, err, ok, validate } from './support.js';

const dir = tempDir();
let withGeo: string;
let withoutGeo: string;

beforeAll(async () => {
  withGeo = await buildInto(FIXTURE, join(dir, 'geo'));
  buildGeoBeside(withGeo);
  withoutGeo = await buildInto(FIXTURE, join(dir, 'plain'));
});

/** The fixture's 09810 (a box) and its point, as the geodata gives it. */
const POINT_09810 = { lat: 19.3535, lng: -99.114 };
const outside = (cp: string, metros: number, holder: string | null) => ({
  ...err('cp', 126),
  reason: `the point lies ${metros} m from ${cp}'s area, ${holder === null ? "in no code's area" : `in ${holder}'s area`}`,
  metros,
  cp_del_punto: holder,
});
const malformed = (reason: string) => ({ ...err(null, 127), reason });

describe('validate --coordinates on the fixture polygons', () => {
  it('adds the point of each valid record, checks lat/lng columns, and flags what is wrong (CSV)', () => {
    const csv = [
      'cp,colonia,lat,lng',
      '09810,,19.353,-99.114', // inside 09810
      '09810,,19.353,-99.106', // inside the neighbour 09819, 420 m east of 09810's edge
      '03100,,19.38,-99.17', // in 03100's hole: in no code's area, about 525 m from its ring
      '09810,,abc,-99.1',
      '09810,,19.353,',
      '09810,,91,-99.1',
      '09810,,,', // no point given: not checked
      '77500,,21.21,-86.77', // the second polygon of a MultiPolygon
      '99998,,19.3,-99.1', // no such code: its own error, no point
    ].join('\n');
    const run = validate(withGeo, ['--coordinates'], csv);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.status).toBe(1);
    const point = (line: number) => ({ ...ok(line), ...POINT_09810 });
    const none = { lat: null, lng: null };
    expect(run.lines[0]).toEqual(point(2));
    expect(run.lines[1]).toEqual({ ...bad(3, [outside('09810', 419.6, '09819')]), ...none });
    expect(run.lines[2]).toEqual({ ...bad(4, [outside('03100', 524.5, null)]), ...none });
    const quoted = (lat: string, lng: string) => `lat ${JSON.stringify(lat)}, lng ${JSON.stringify(lng)} (decimal degrees with a point: 19.43263, -99.13321)`;
    expect(run.lines[3]).toEqual({ ...bad(5, [malformed(`lat o lng no es un número: ${quoted('abc', '-99.1')}`)]), ...none });
    expect(run.lines[4]).toEqual({ ...bad(6, [malformed(`No se recibió lat o lng: ${quoted('19.353', '')}`)]), ...none });
    expect(run.lines[5]).toEqual({ ...bad(7, [malformed(`lat o lng está fuera de rango: ${quoted('91', '-99.1')}`)]), ...none });
    expect(run.lines[6]).toEqual(point(8));
    expect(run.lines[7]).toMatchObject({ line: 9, valid: true, errors: [] });
    expect(run.lines[8]).toMatchObject({ line: 10, valid: false, errors: [{ code_error: 105 }], ...none });
    expect(run.stderr).toContain('126: 2, 127: 3');
  });

  it('gives the same in NDJSON (numbers or text, keys latitud/longitud) and as CSV results with lat,lng columns', () => {
    const ndjson = ['{"cp":"09810","latitud":19.353,"longitud":-99.114}', '{"cp":"09810","latitude":"19.353","longitude":"-99.106"}', '{"cp":"09810","lat":"x","lng":1}', '{"cp":"09810"}'].join('\n');
    const run = validate(withGeo, ['--coordinates'], ndjson);
    expect(run.lines).toEqual([
      { ...ok(1), ...POINT_09810 },
      { ...bad(2, [outside('09810', 419.6, '09819')]), lat: null, lng: null },
      { ...bad(3, [malformed('lat o lng no es un número: lat "x", lng "1" (decimal degrees with a point: 19.43263, -99.13321)')]), lat: null, lng: null },
      { ...ok(4), ...POINT_09810 },
    ]);
    const csv = validate(withGeo, ['--coordinates', '--format', 'csv'], 'cp;latitud;longitud\n09810;19.353;-99.114\n09810;19.353;-99.106\nnope;;\n');
    expect(csv.stdout.split('\n')).toEqual([
      'line,valid,errors,reason,suggested_cp,suggested_estado,suggested_municipio,suggested_asentamiento,suggested_ciudad,codes,warnings,lat,lng',
      '2,true,,,,,,,,,,19.3535,-99.114',
      `3,false,126,"the point lies 419.6 m from 09810's area, in 09819's area",,,,,,,,,`,
      expect.stringMatching(/^4,false,10\d,.*,,$/),
      '',
    ]);
  });

  it('without lat/lng columns adds the points only, and a code without an area gets none', () => {
    const run = validate(withGeo, ['--coordinates'], 'cp\n09810\n01010\n');
    expect(run.status).toBe(0);
    expect(run.lines).toEqual([{ ...ok(2), ...POINT_09810 }, { ...ok(3), lat: null, lng: null }]);
  });

  it('judges the same in worker threads (the geodata read by each worker)', () => {
    const rows = Array.from({ length: 12_000 }, (_, i) => (i % 3 === 0 ? '09810,19.353,-99.106' : i % 3 === 1 ? '09810,19.353,-99.114' : '03100,oops,-99.17'));
    const input = `cp,lat,lng\n${rows.join('\n')}\n`;
    const one = validate(withGeo, ['--coordinates', '--jobs', '1'], input);
    const two = validate(withGeo, ['--coordinates', '--jobs', '2'], input);
    expect(two.status).toBe(1);
    expect(two.lines).toHaveLength(12_000);
    expect(two.stdout).toBe(one.stdout);
    expect(two.stderr).toContain('126: 4,000, 127: 4,000');
  });

  it('refuses an artifact without geodata, and a header with lat but no lng (exit 2, nothing judged)', () => {
    const plain = validate(withoutGeo, ['--coordinates'], 'cp\n09810\n');
    expect(plain.status).toBe(2);
    expect(plain.stdout).toBe('');
    expect(plain.stderr).toContain('--coordinates needs geodata');
    expect(plain.stderr).toContain('cpmx build --geo');
    const half = validate(withGeo, ['--coordinates'], 'cp,lat\n09810,19.35\n');
    expect(half.status).toBe(2);
    expect(half.stderr).toContain('the header has a latitude column (lat) but no longitude column');
    expect(half.stdout).toBe('');
  });

  it('changes nothing without --coordinates (lat/lng columns are not read)', () => {
    expect(validate(withGeo, [], 'cp,lat,lng\n09810,1,1\n').lines).toEqual([ok(2)]);
  });
});

describe('validate --coordinates on the real polygons', () => {
  let data: string;
  beforeAll(async () => {
    data = await buildInto(realCatalogPath(), join(dir, 'real'));
    buildGeoBeside(data, realPolygonPaths());
  }, 180_000);

  it("passes right points, flags the Zócalo written as Iztapalapa's 09000 with the distance to 09000's area", () => {
    const client = createClient({ dataPath: data });
    const point = (cp: string) => {
      const { lat, lng } = (client.infoCpGeocoding(cp) as unknown as { response: { geocoding: { lat: number; lng: number }[] } }).response.geocoding[0]!;
      return { lat, lng };
    };
    const csv = ['cp,municipio,lat,lng', '06060,Cuauhtémoc,19.43263,-99.13321', '09000,Iztapalapa,19.35753,-99.09264', '09000,Iztapalapa,19.43263,-99.13321'].join('\n');
    const run = validate(data, ['--coordinates'], csv);
    expect(run.lines[0]).toEqual({ ...ok(2), ...point('06060') });
    expect(run.lines[1]).toEqual({ ...ok(3), ...point('09000') });
    const flagged = run.lines[2] as unknown as { valid: boolean; errors: { code_error: number; metros: number; cp_del_punto: string }[] };
    expect(flagged.valid).toBe(false);
    expect(flagged.errors).toHaveLength(1);
    expect(flagged.errors[0]).toMatchObject({ code_error: 126, cp_del_punto: '06060' });
    // The Zócalo lies about 9.5 km from Iztapalapa's town hall; 09000's area reaches part of the way.
    const check = client.checkPoint('09000', 19.43263, -99.13321)!;
    expect(flagged.errors[0]!.metros).toBe(check.metros);
    expect(check.metros).toBeGreaterThan(2_000);
    expect(check.metros).toBeLessThan(9_500);
  });

  it("passes 300 codes around the Zócalo at their own points (CSV), and flags each at its neighbour's point (NDJSON)", () => {
    const client = createClient({ dataPath: data });
    const codes = client.nearestCodes(19.43263, -99.13321, { radius: 20_000, limit: 300 }).map(({ cp }) => cp);
    expect(codes).toHaveLength(300);
    const points = codes.map((cp) => {
      const { lat, lng } = (client.infoCpGeocoding(cp) as unknown as { response: { geocoding: { lat: number; lng: number }[] } }).response.geocoding[0]!;
      return { cp, lat, lng };
    });
    const right = validate(data, ['--coordinates'], `cp,latitude,longitude\n${points.map(({ cp, lat, lng }) => `${cp},${lat},${lng}`).join('\n')}\n`);
    expect(right.status).toBe(0);
    expect(right.lines).toEqual(points.map(({ lat, lng }, i) => ({ ...ok(i + 2), lat, lng })));
    // Each code written beside the point of the next one.
    const shifted = points.map(({ lat, lng }, i) => JSON.stringify({ cp: codes[(i + 1) % codes.length], lat, lng })).join('\n');
    const wrong = validate(data, ['--coordinates', '--invalid-only'], shifted);
    expect(wrong.status).toBe(1);
    expect(wrong.lines).toHaveLength(300);
    wrong.lines.forEach((line, i) => {
      const cp = codes[(i + 1) % codes.length]!;
      const check = client.checkPoint(cp, points[i]!.lat, points[i]!.lng)!;
      expect(line.errors, cp).toEqual([{ ...err('cp', 126), reason: `the point lies ${check.metros} m from ${cp}'s area, in ${codes[i]}'s area`, metros: check.metros, cp_del_punto: codes[i] }]);
      expect(check.metros).toBeGreaterThan(0);
      expect(check.metros).toBeLessThan(40_000);
    });
  });
});
