/**
 * Geodata on fixture polygons written by hand (test/fixtures/geo/mini.geojson): holes,
 * MultiPolygons, a crescent whose centroid lies outside, an area-less polygon, a shared border,
 * a polygon of a code the catalog lacks, codes without polygons; the two COPOMEX methods and
 * their errors, the helpers beyond them, every door alike, and the geodata read only by geo calls.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CpmxClient, GeodataError, createClient } from '../../src/index.js';
import { CLI, FIXTURE, buildInto, tempDir } from '../helpers.js';
import { GEO_FIXTURE, buildGeoBeside } from '../support/geo.js';
import { startServer, type Started } from '../support/serve.js';

const dir = tempDir();
let dataPath: string;
let client: CpmxClient;
let summary: ReturnType<typeof buildGeoBeside>;

type Envelope<R> = { error: boolean; code_error: number; error_message: string | null; response: R | null };
type Reverse = Envelope<{ cp: string; estado: string; asentamiento: string[] }>;
type Forward = Envelope<{ cp: string; geocoding: { lat: number; lng: number; precision: string }[]; area: { centroide: { lat: number; lng: number } }; asentamiento: string[]; estado: string }>;

const reverse = (lat: number | string, lng: number | string) => client.infoCpGeocodingReverse(lat, lng) as unknown as Reverse;
const forward = (cp: string) => client.infoCpGeocoding(cp) as unknown as Forward;
const codeAt = (lat: number, lng: number) => reverse(lat, lng).response?.cp;
/** Metres as degrees of latitude, and of longitude at CDMX's latitude. */
const M_LAT = 1 / 111_195;
const M_LNG = 1 / (111_195 * Math.cos((19.35 * Math.PI) / 180));

beforeAll(async () => {
  dataPath = await buildInto(FIXTURE, dir);
  summary = buildGeoBeside(dataPath);
  client = createClient({ dataPath });
});

describe('the build', () => {
  it('says which codes have a polygon and no settlements, settlements and no polygon, and polygons without area', () => {
    expect(summary.withoutSettlements).toEqual(['99999']);
    expect(summary.arealess).toEqual(['11000']);
    // The states the file covers (by the catalog's state of its codes): their codes without a polygon.
    expect(summary.states.map((state) => state.estado)).toEqual(['Ciudad de México', 'Quintana Roo']);
    expect(summary.withoutArea).toEqual(['01010', '11000']);
    expect(summary.version).toBe('v1');
  });

  it('runs from the command line: cpmx build --geo FILE... writes cpmx.geo beside --out and reports', () => {
    const out = join(dir, 'cli', 'cpmx.msgpack');
    const run = spawnSync(process.execPath, [CLI, 'build', '--source', FIXTURE, '--out', out, '--geo', GEO_FIXTURE], { encoding: 'utf8' });
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`wrote ${join(dir, 'cli', 'cpmx.geo')} (geodata v1)`);
    expect(run.stdout).toContain('1 codes with a polygon and no settlements in the catalog: 99999');
    expect(run.stdout).toContain('2 codes with settlements and no polygon (in those states): 01010 11000');
    expect(run.stdout).toContain('1 codes whose polygons enclose no area (left out): 11000');
    const status = JSON.parse(spawnSync(process.execPath, [CLI, 'status', '--data', out], { encoding: 'utf8' }).stdout);
    expect(status.geodata).toMatchObject({ file: join(dir, 'cli', 'cpmx.geo'), version: 'v1', codes: 6, states: [{ estado: 'Ciudad de México', codes: 4 }, { estado: 'Quintana Roo', codes: 1 }] });
  });
});

describe('info_cp_geocoding', () => {
  it('answers a point inside the area with the place, at the code’s level, in COPOMEX’s shape', () => {
    const body = forward('09810');
    expect(body.error).toBe(false);
    expect(Object.keys(body.response!)).toEqual(['cp', 'calle', 'numero', 'asentamiento', 'tipo_asentamiento', 'municipio', 'estado', 'ciudad', 'pais', 'geocoding', 'area']);
    expect(body.response).toMatchObject({ cp: '09810', calle: null, numero: null, municipio: 'Iztapalapa', estado: 'Ciudad de México', pais: 'México' });
    expect(body.response!.geocoding).toEqual([{ lat: 19.3535, lng: -99.114, label: '09810, Iztapalapa, Ciudad de México', precision: 'cp' }]);
    expect(client.infoCpGeocoding('09810', { type: 'simplified' })).toEqual(body);
    expect(client.query('/query/info_cp_geocoding/09810?type=complete&token=t').body).toMatchObject({ code_error: 112 });
  });

  it('gives a crescent a point inside it, though its centroid lies outside', () => {
    const body = forward('01000');
    const [point] = body.response!.geocoding;
    const centroid = body.response!.area.centroide;
    expect(codeAt(point!.lat, point!.lng)).toBe('01000');
    expect(codeAt(centroid.lat, centroid.lng)).not.toBe('01000');
  });

  it('answers 140 for a code of the catalog without area (no polygon, or one without area), 105 for a code of neither, the point for a code only the polygons have', () => {
    expect(forward('01010')).toEqual({ error: true, code_error: 140, error_message: 'El cp no tiene área', response: null });
    expect(forward('11000').code_error).toBe(140);
    expect(forward('00000').code_error).toBe(105);
    const newer = forward('99999');
    expect(newer.error).toBe(false);
    expect(newer.response).toMatchObject({ cp: '99999', asentamiento: [], estado: '' });
    expect(client.infoCpGeocoding('0981').code_error).toBe(102);
  });
});

describe('info_cp_geocoding_reverse', () => {
  it('answers the code whose area holds the point, with its place as simplified info_cp', () => {
    const body = reverse(19.3535, -99.114);
    expect(body.response).toEqual({ ...(client.infoCp('09810', { type: 'simplified' }) as { response: object }).response, lat: 19.3535, lng: -99.114 });
    expect(reverse('19.3535', '-99.114')).toEqual(body);
  });

  it('reads holes, MultiPolygons and shared borders: 5 m inside is always the right code', () => {
    expect(codeAt(19.372, -99.17)).toBe('03100');
    expect(reverse(19.38, -99.17).code_error).toBe(144); // in the hole
    expect(codeAt(21.16, -86.85)).toBe('77500');
    expect(codeAt(21.21, -86.77)).toBe('77500');
    for (const lat of [19.3501, 19.353, 19.3569]) {
      expect(codeAt(lat, -99.11 - 5 * M_LNG)).toBe('09810');
      expect(codeAt(lat, -99.11 + 5 * M_LNG)).toBe('09819');
    }
    expect(codeAt(19.35 + 5 * M_LAT, -99.114)).toBe('09810');
    expect(codeAt(19.35 - 5 * M_LAT, -99.114)).not.toBe('09810');
  });

  it('says why no code’s area holds a point: sea, abroad, a state whose polygons were not given, a gap', () => {
    expect(reverse(23, -92)).toEqual({ error: true, code_error: 141, error_message: 'El punto está en el mar', response: null });
    expect(reverse(29.76, -95.37).code_error).toBe(142); // Houston
    expect(reverse(40.4, -3.7).code_error).toBe(142); // Madrid
    const monterrey = reverse(25.67, -100.31);
    expect(monterrey.code_error).toBe(143);
    expect(monterrey.error_message).toBe('El punto está en un estado sin polígonos: los polígonos cargados son de Ciudad de México, Quintana Roo');
    expect(reverse(19.37, -99.13).code_error).toBe(144); // in CDMX, between the fixture's few areas
  });

  it('checks lat and lng: missing 145, not a decimal number 146, out of range 147 (HTTP 400)', () => {
    const code = (path: string) => client.query(`/query/info_cp_geocoding_reverse?token=t&${path}`);
    expect(code('lat=19.4')).toEqual({ status: 400, body: { error: true, code_error: 145, error_message: 'No se recibió lat o lng', response: null } });
    expect(code('lng=-99').body).toMatchObject({ code_error: 145 });
    expect(code('lat=&lng=-99').body).toMatchObject({ code_error: 145 });
    for (const bad of ['abc', 'NaN', 'Infinity', '0x10', '19,4', '--1', '19.4.4', '1e', 'e5']) expect(code(`lat=${bad}&lng=-99`).body, bad).toMatchObject({ code_error: 146 });
    expect(code('lat=90.0001&lng=0').status).toBe(400);
    expect(code('lat=0&lng=-180.5').body).toMatchObject({ code_error: 147 });
    expect(code('lat=1e5&lng=0').body).toMatchObject({ code_error: 147 });
    expect(code('lat=1.93535e1&lng=-99.114').body).toMatchObject({ error: false });
    expect(reverse(Number.NaN, 1).code_error).toBe(146);
    expect(code('lat=%2B19.3535&lng=-99.114').body).toMatchObject({ error: false });
  });
});

describe('beyond COPOMEX', () => {
  it('finds the codes nearest a point within a radius, sorted, limited', () => {
    const near = client.nearestCodes(19.3535, -99.1105, { radius: 2_000 });
    expect(near[0]).toEqual({ cp: '09810', metros: 0 });
    expect(near[1]!.cp).toBe('09819');
    expect(near[1]!.metros).toBeGreaterThan(45);
    expect(near[1]!.metros).toBeLessThan(60);
    expect(near.map((n) => n.metros)).toEqual(near.map((n) => n.metros).sort((a, b) => a - b));
    expect(client.nearestCodes(19.3535, -99.1105, { radius: 2_000, limit: 1 })).toHaveLength(1);
    expect(client.nearestCodes(23, -92)).toEqual([]);
    expect(() => client.nearestCodes(19, -99, { radius: 0 })).toThrow(RangeError);
    expect(() => client.nearestCodes(91, -99)).toThrow(/lat must be a number of degrees from -90 to 90/);
  });

  it('checks a GPS point against its written code: inside, or how far and in which code it lies', () => {
    expect(client.checkPoint('09810', 19.3535, -99.114)).toEqual({ dentro: true, metros: 0, cp_del_punto: '09810' });
    const next = client.checkPoint('09810', 19.3535, -99.106)!;
    expect(next.dentro).toBe(false);
    expect(next.cp_del_punto).toBe('09819');
    expect(next.metros).toBeGreaterThan(400);
    expect(next.metros).toBeLessThan(440);
    expect(client.checkPoint('09810', 23, -92)).toMatchObject({ dentro: false, cp_del_punto: null });
    expect(client.checkPoint('01010', 19.3535, -99.114)).toBeNull();
    expect(() => client.checkPoint('09810', 95, 0)).toThrow(RangeError);
  });

  it('measures the distance between two codes’ points, and gives a code’s area as GeoJSON', () => {
    expect(client.codeDistance('09810', '09819')).toBeGreaterThan(800);
    expect(client.codeDistance('09810', '09819')).toBeLessThan(900);
    expect(client.codeDistance('09810', '01010')).toBeNull();
    const hole = client.codeArea('03100')!;
    expect(hole.geometry.type).toBe('Polygon');
    expect(hole.geometry.coordinates).toHaveLength(2);
    expect(client.codeArea('77500')!.geometry.type).toBe('MultiPolygon');
    expect(client.codeArea('01010')).toBeNull();
    const cli = spawnSync(process.execPath, [CLI, 'geojson', '03100', '--data', dataPath], { encoding: 'utf8' });
    expect(cli.status).toBe(0);
    expect(JSON.parse(cli.stdout)).toEqual(hole);
  });
});

describe('without geodata, and with damaged geodata', () => {
  it('answers 113 saying to build with --geo; the helpers throw GeodataError; other lookups never read it', async () => {
    const bare = createClient({ dataPath: await buildInto(FIXTURE, dir, 'bare.msgpack') });
    const body = bare.infoCpGeocodingReverse(19.3535, -99.114);
    expect(body).toMatchObject({ error: true, code_error: 113 });
    expect((body as { error_message: string }).error_message).toMatch(/^Método no disponible sin conexión: .*cpmx build --geo FILE\.\.\./);
    expect(() => bare.codeArea('09810')).toThrow(GeodataError);
    // A damaged file beside the artifact: the lookups that use no geodata answer as ever; the geo ones say it is damaged.
    const damaged = await buildInto(FIXTURE, dir, 'damaged.msgpack');
    writeFileSync(join(dir, 'damaged.geo'), 'CPMXGEO1\u0005\u0000\u0000\u0000{"form');
    const reader = createClient({ dataPath: damaged });
    expect(reader.infoCp('09810')).toEqual(client.infoCp('09810'));
    expect((reader.infoCpGeocoding('09810') as { error_message: string }).error_message).toMatch(/damaged\.geo está dañado/);
    writeFileSync(join(dir, 'truncated.geo'), readFileSync(join(dir, 'cpmx.geo')).subarray(0, 900));
    const truncated = createClient({ dataPath: await buildInto(FIXTURE, dir, 'truncated.msgpack') });
    expect(truncated.infoCpGeocodingReverse(19.3535, -99.114)).toMatchObject({ code_error: 113 });
  });
});

describe('every door', () => {
  let served: Started;
  beforeAll(async () => {
    served = await startServer(['--data', dataPath]);
  });

  it('answers the same bodies and statuses over HTTP and the command line, errors included, never 500', async () => {
    const paths = [
      '/query/info_cp_geocoding/09810',
      '/query/info_cp_geocoding/01010',
      '/query/info_cp_geocoding/00000',
      '/query/info_cp_geocoding_reverse?lat=19.3535&lng=-99.114',
      '/query/info_cp_geocoding_reverse?lat=23&lng=-92',
      '/query/info_cp_geocoding_reverse?lat=25.67&lng=-100.31',
      '/query/info_cp_geocoding_reverse?lat=x&lng=-100.31',
      '/query/info_cp_geocoding_reverse?lat=1e999&lng=1e999',
      '/query/info_cp_geocoding_reverse?lat=19.4',
      `/query/info_cp_geocoding_reverse?lat=${'9'.repeat(1500)}&lng=1`,
    ];
    for (const path of paths) {
      const library = client.query(`${path}${path.includes('?') ? '&' : '?'}token=demo`);
      const response = await fetch(`${served.url}${path}${path.includes('?') ? '&' : '?'}token=demo`);
      expect(response.status, path).toBe(library.status);
      expect(response.status, path).toBeLessThan(500);
      expect(await response.json(), path).toEqual(library.body);
      const cli = spawnSync(process.execPath, [CLI, 'query', path, '--token', 'demo', '--data', dataPath], { encoding: 'utf8' });
      expect(JSON.parse(cli.stdout), path).toEqual(library.body);
    }
  });
});
