/**
 * From polygons in degrees to each code's geodata: area, area-weighted centroid, a point
 * guaranteed inside (the centroid when it lies well inside; else the pole of inaccessibility,
 * by the polylabel library, of the code's largest polygon), bounding box, and the rings
 * simplified (Douglas-Peucker, by the simplify-js library, in metres) and quantized.
 *
 * The guarantee: a point 5 m or more inside a code's original area answers that code. The
 * simplification keeps every dropped vertex within TOLERANCE_METRES of the simplified edge, so
 * a boundary moves at most twice that (the area between an edge and the path it replaces lies
 * within the tolerance of both); rounding to RING_QUANTUM moves a vertex at most 0.8 m. 2 x 2 +
 * 0.8 < 5, so the simplified area still holds the point, and no neighbour's does.
 */
import polylabel from 'polylabel';
import simplify from 'simplify-js';
import { RING_QUANTUM, type CodeGeometry } from '../../src/core/geo/format.js';
import { METRES_PER_DEGREE, insideRing, metresPerDegreeLng, ringDistanceMetres } from '../../src/core/geo/geometry.js';
import type { Polygon, Ring } from './read-geojson.js';

export const TOLERANCE_METRES = 2;
/** A centroid closer than this to its boundary is not used as the code's point (the pole is). */
const POINT_MARGIN_METRES = 10;

/** The signed area (shoelace) of a ring in degrees, in square metres at latitude `lat`. */
function ringArea(ring: Ring, lat: number): { area: number; cx: number; cy: number } {
  let twice = 0;
  let cx = 0;
  let cy = 0;
  const n = ring.length;
  for (let i = 0, j = n - 2; i < n; j = i, i += 2) {
    const cross = ring[j]! * ring[i + 1]! - ring[i]! * ring[j + 1]!;
    twice += cross;
    cx += (ring[j]! + ring[i]!) * cross;
    cy += (ring[j + 1]! + ring[i + 1]!) * cross;
  }
  const area = twice / 2;
  return { area: area * metresPerDegreeLng(lat) * METRES_PER_DEGREE, cx: area ? cx / (6 * area) : 0, cy: area ? cy / (6 * area) : 0 };
}

function insideRings(rings: readonly Ring[], lng: number, lat: number): boolean {
  let inside = false;
  for (const ring of rings) if (ring.length >= 6 && insideRing(ring, 0, ring.length, lng, lat)) inside = !inside;
  return inside;
}

function boundaryDistance(rings: readonly Ring[], lng: number, lat: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (const ring of rings) if (ring.length >= 4) best = Math.min(best, ringDistanceMetres(ring, 0, ring.length, lng, lat, 1));
  return best;
}

/** A ring simplified in metres around (lng0, lat0), then quantized; undefined if nothing of it is left. */
function simplifyRing(ring: Ring, lng0: number, lat0: number): number[] | undefined {
  const kx = metresPerDegreeLng(lat0);
  const ky = METRES_PER_DEGREE;
  const points: { x: number; y: number }[] = [];
  for (let i = 0; i < ring.length; i += 2) points.push({ x: (ring[i]! - lng0) * kx, y: (ring[i + 1]! - lat0) * ky });
  points.push(points[0]!);
  const kept = points.length > 4 ? simplify(points, TOLERANCE_METRES, true) : points;
  const quantize = (kept_: typeof points) => {
    const out: number[] = [];
    for (const { x, y } of kept_) {
      const qx = Math.round((x / kx + lng0) / RING_QUANTUM);
      const qy = Math.round((y / ky + lat0) / RING_QUANTUM);
      if (out.length && out[out.length - 2] === qx && out[out.length - 1] === qy) continue;
      out.push(qx, qy);
    }
    if (out.length > 2 && out[0] === out[out.length - 2] && out[1] === out[out.length - 1]) out.length -= 2;
    return out;
  };
  const simplified = quantize(kept);
  if (simplified.length >= 6) return simplified;
  // Too small to simplify (an islet of a few metres): kept whole, only quantized.
  const whole = quantize(points);
  return whole.length >= 6 ? whole : undefined;
}

/** A code's geodata from its polygons; undefined when they enclose no area (the build reports it). */
export function codeGeometry(code: number, polygons: readonly Polygon[]): CodeGeometry | undefined {
  let west = 180;
  let south = 90;
  let east = -180;
  let north = -90;
  for (const polygon of polygons)
    for (const ring of polygon)
      for (let i = 0; i < ring.length; i += 2) {
        west = Math.min(west, ring[i]!);
        east = Math.max(east, ring[i]!);
        south = Math.min(south, ring[i + 1]!);
        north = Math.max(north, ring[i + 1]!);
      }
  const lat0 = (south + north) / 2;
  const lng0 = (west + east) / 2;
  let area = 0;
  let mx = 0;
  let my = 0;
  let largest: { polygon: Polygon; area: number } | undefined;
  for (const polygon of polygons) {
    let polygonArea = 0;
    polygon.forEach((ring, r) => {
      // Shifted to the box's centre: the shoelace sums stay small and exact.
      const shifted = ring.map((value, i) => value - (i % 2 === 0 ? lng0 : lat0));
      const part = ring.length >= 6 ? ringArea(shifted, lat0) : { area: 0, cx: 0, cy: 0 };
      const signed = (r === 0 ? 1 : -1) * Math.abs(part.area);
      polygonArea += signed;
      mx += part.cx * signed;
      my += part.cy * signed;
    });
    area += polygonArea;
    if (polygonArea > 0 && (!largest || polygonArea > largest.area)) largest = { polygon, area: polygonArea };
  }
  // Under a square metre is no area (a line, a point, a ring crossing itself into lobes that cancel out).
  if (!(area >= 1) || !largest) return undefined;
  const allRings = polygons.flat();
  const centroid: [number, number] = [mx / area + lng0, my / area + lat0];
  let point = centroid;
  if (!insideRings(allRings, centroid[0], centroid[1]) || boundaryDistance(allRings, centroid[0], centroid[1]) < POINT_MARGIN_METRES) {
    const kx = metresPerDegreeLng(lat0);
    const pole = polylabel(
      largest.polygon.map((ring) => {
        const pairs: number[][] = [];
        for (let i = 0; i < ring.length; i += 2) pairs.push([(ring[i]! - lng0) * kx, (ring[i + 1]! - lat0) * METRES_PER_DEGREE]);
        if (pairs.length) pairs.push(pairs[0]!);
        return pairs;
      }),
      0.5,
    );
    point = [pole[0]! / kx + lng0, pole[1]! / METRES_PER_DEGREE + lat0];
  }
  const rings: CodeGeometry['rings'] = [];
  for (const polygon of polygons) {
    polygon.forEach((ring, r) => {
      const coordinates = ring.length >= 6 ? simplifyRing(ring, lng0, lat0) : undefined;
      if (coordinates) rings.push({ hole: r > 0, coordinates });
    });
  }
  return { code, point, centroid, bbox: [west, south, east, north], areaSquareMetres: area, rings };
}
