/**
 * Plane geometry over flat coordinate arrays ([x0, y0, x1, y1, ...], rings without their
 * closing repeat): the even-odd point-in-polygon test and distances, shared by the build and
 * the lookups. Distances are in metres on a local equirectangular projection, exact enough
 * within a postal code's extent (under 0.5% over a degree of latitude).
 */

/** Metres per degree of latitude (mean Earth radius 6,371,008.8 m). */
export const METRES_PER_DEGREE = (6_371_008.8 * Math.PI) / 180;

/** Metres per degree of longitude at `lat`. */
export const metresPerDegreeLng = (lat: number) => METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180);

/**
 * Whether (x, y) is inside the ring `coordinates[from..to)` (pairs), by the even-odd rule: the
 * number of edges a ray to the east crosses. Callers XOR it over a code's rings, so holes and
 * separate polygons need no bookkeeping.
 */
export function insideRing(coordinates: ArrayLike<number>, from: number, to: number, x: number, y: number): boolean {
  let inside = false;
  let px = coordinates[to - 2]!;
  let py = coordinates[to - 1]!;
  for (let i = from; i < to; i += 2) {
    const cx = coordinates[i]!;
    const cy = coordinates[i + 1]!;
    if (cy > y !== py > y && x < ((px - cx) * (y - cy)) / (py - cy) + cx) inside = !inside;
    px = cx;
    py = cy;
  }
  return inside;
}

/** The squared distance from (x, y) to the segment (ax, ay)-(bx, by), in the same units. */
export function segmentDistanceSquared(x: number, y: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const length = dx * dx + dy * dy;
  let t = length > 0 ? ((x - ax) * dx + (y - ay) * dy) / length : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const ex = ax + t * dx - x;
  const ey = ay + t * dy - y;
  return ex * ex + ey * ey;
}

/**
 * The distance in metres from (lng, lat) to the boundary of the ring `coordinates[from..to)`,
 * whose coordinates are degrees times `scale` (1 for degrees, 1e5 for quantized rings).
 */
export function ringDistanceMetres(coordinates: ArrayLike<number>, from: number, to: number, lng: number, lat: number, scale: number): number {
  const kx = metresPerDegreeLng(lat) / scale;
  const ky = METRES_PER_DEGREE / scale;
  const x = lng * scale;
  const y = lat * scale;
  let best = Number.POSITIVE_INFINITY;
  let px = coordinates[to - 2]!;
  let py = coordinates[to - 1]!;
  for (let i = from; i < to; i += 2) {
    const cx = coordinates[i]!;
    const cy = coordinates[i + 1]!;
    const d = segmentDistanceSquared(x * kx, y * ky, px * kx, py * ky, cx * kx, cy * ky);
    if (d < best) best = d;
    px = cx;
    py = cy;
  }
  return Math.sqrt(best);
}

/** The great-circle distance in metres between two points (haversine). */
export function haversineMetres(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lng2 - lng1) * rad) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(a)));
}
