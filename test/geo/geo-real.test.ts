/**
 * Geodata of the real polygons (../shared/data/sepomex-geo/, 10 states) over the real catalog:
 * every code's point lies inside its original polygon and answers its code; points drawn inside
 * the original polygons, 5 m or more from their edges, answer their code (the build's promise,
 * on every code); known places; sea, abroad, states without polygons; codes without polygons;
 * the size of the geodata.
 */
import { readFileSync, statSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { readPolygonFile } from '../../build/geo/read-geojson.js';
import { insideRing, ringDistanceMetres } from '../../src/core/geo/geometry.js';
import { openGeo, type GeoIndex } from '../../src/core/geo/geo-index.js';
import { type CpmxClient, createClient } from '../../src/index.js';
import { buildInto, realCatalogPath, tempDir } from '../helpers.js';
import { buildGeoBeside, realPolygonPaths } from '../support/geo.js';

const dir = tempDir();
let client: CpmxClient;
let geo: GeoIndex;
let summary: ReturnType<typeof buildGeoBeside>;
/** Every code's original rings (outer and holes, all polygons), as the files give them. */
const original = new Map<string, number[][]>();

beforeAll(async () => {
  const dataPath = await buildInto(realCatalogPath(), dir);
  summary = buildGeoBeside(dataPath, realPolygonPaths());
  client = createClient({ dataPath });
  geo = openGeo(readFileSync(summary.out));
  for (const path of realPolygonPaths()) {
    for (const [cp, polygons] of readPolygonFile(path).codes) original.set(cp, [...(original.get(cp) ?? []), ...polygons.flat()]);
  }
}, 120_000);

const insideOriginal = (rings: readonly number[][], lng: number, lat: number) => {
  let inside = false;
  for (const ring of rings) if (ring.length >= 6 && insideRing(ring, 0, ring.length, lng, lat)) inside = !inside;
  return inside;
};
const edgeDistance = (rings: readonly number[][], lng: number, lat: number) => Math.min(...rings.filter((ring) => ring.length >= 4).map((ring) => ringDistanceMetres(ring, 0, ring.length, lng, lat, 1)));
const codeAt = (lat: number, lng: number) => (client.infoCpGeocodingReverse(lat, lng) as { response: { cp: string } | null }).response?.cp;

describe('the real polygons', () => {
  it('are read with their pitfalls: numeric d_codigo padded, the area-less 97432 left out, 618 codes the catalog lacks, 415 codes with no polygon', () => {
    expect(summary.codes).toBe(4864);
    expect(summary.arealess).toEqual(['97432']);
    expect(summary.withoutSettlements).toHaveLength(618);
    // 415 codes of these states' catalog have no polygon, and 97432's has no area.
    expect(summary.withoutArea).toHaveLength(416);
    expect(summary.states).toHaveLength(10);
    expect(summary.version).toBe('v11');
    expect(geo.slotOf('01000')).toBeGreaterThanOrEqual(0);
  });

  it('give every code a point inside its original polygon, which answers that code', () => {
    const wrong: string[] = [];
    for (const [cp, rings] of original) {
      const slot = geo.slotOf(cp);
      if (slot < 0) continue;
      const { lat, lng } = geo.point(slot);
      if (!insideOriginal(rings, lng, lat)) wrong.push(`${cp} outside`);
      else if (geo.locate(lat, lng) !== slot) wrong.push(`${cp} answers ${geo.locate(lat, lng) < 0 ? 'none' : geo.codeAt(geo.locate(lat, lng))}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answer every point drawn 5 m or more inside a code’s original area with that code (at least 99.9%; a point in two overlapping originals may answer either)', () => {
    let seed = 20_250_115;
    const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
    let right = 0;
    const wrong: string[] = [];
    for (const [cp, rings] of original) {
      const slot = geo.slotOf(cp);
      if (slot < 0) continue;
      const [west, south, east, north] = geo.bbox(slot);
      for (let drawn = 0, tries = 0; drawn < 3 && tries < 300; tries++) {
        const lng = west + random() * (east - west);
        const lat = south + random() * (north - south);
        if (!insideOriginal(rings, lng, lat) || edgeDistance(rings, lng, lat) < 5) continue;
        drawn++;
        const found = geo.locate(lat, lng);
        const other = found < 0 ? undefined : geo.codeAt(found);
        if (other === cp || (other !== undefined && insideOriginal(original.get(other) ?? [], lng, lat))) right++;
        else wrong.push(`${lat},${lng} in ${cp} answers ${other ?? geo.outside(lat, lng)}`);
      }
    }
    expect(right).toBeGreaterThan(10_000);
    expect(wrong.length / (right + wrong.length), wrong.slice(0, 10).join('\n')).toBeLessThanOrEqual(0.001);
  });

  it('know the places the data README names', () => {
    expect(codeAt(19.43263, -99.13321)).toBe('06060'); // the Zócalo
    expect(codeAt(19.35753, -99.09264)).toBe('09000'); // Iztapalapa's town hall
    const zocalo = client.infoCpGeocodingReverse(19.43263, -99.13321) as { response: { municipio: string; estado: string } };
    expect(zocalo.response).toMatchObject({ municipio: 'Cuauhtémoc', estado: 'Ciudad de México' });
  });

  it('say why no code holds a point: the Gulf and the Pacific are sea, Guatemala and Texas abroad, Nuevo León and Jalisco states not given', () => {
    const code = (lat: number, lng: number) => (client.infoCpGeocodingReverse(lat, lng) as { code_error: number }).code_error;
    expect(code(23, -92)).toBe(141);
    expect(code(18, -106)).toBe(141);
    expect(code(14.63, -90.51)).toBe(142);
    expect(code(29.76, -95.37)).toBe(142);
    expect(code(25.67, -100.31)).toBe(143);
    expect(code(20.67, -103.35)).toBe(143);
  });

  it('answer 140 for codes of the catalog without a polygon, and the point for codes only the polygons have', () => {
    expect(client.infoCpGeocoding('44100')).toMatchObject({ code_error: 140 }); // Guadalajara: Jalisco's polygons not given
    expect(client.infoCpGeocoding(summary.withoutArea[0]!)).toMatchObject({ code_error: 140 });
    expect(client.infoCpGeocoding(summary.withoutSettlements[0]!)).toMatchObject({ error: false, response: { asentamiento: [] } });
  });

  it('take at most 3 MB for the 10 states', () => {
    expect(statSync(summary.out).size).toBeLessThanOrEqual(3 * 1024 * 1024);
  });
});
