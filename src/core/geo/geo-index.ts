/**
 * The geodata, decoded and indexed for lookups: a code's point, box and area; which code's area
 * holds a point (a uniform grid of the codes' boxes, then the even-odd test over the code's
 * quantized rings); why no code does (sea, abroad, a state whose polygons were not given, a gap
 * between areas); the codes nearest a point; a code's area as GeoJSON. No I/O and no
 * dependency: the lookup path stays small.
 */
import { POINT_QUANTUM, RING_QUANTUM, decodeGeo, type GeoHeader, type GeoTables } from './format.js';
import { insideRing, ringDistanceMetres } from './geometry.js';

/** Grid cells of 0.02 degrees (about 2 km): a few codes' boxes per cell in a city. */
const CELL = 0.02;
/** A point in Mexico within this of a loaded area is in a gap between areas, farther it is in a state not loaded. */
const GAP_METRES = 5_000;

/** The region whose countries the land outlines hold (scripts/make-land.mjs): outside it, a point is abroad. */
const LAND_REGION = { west: -125, south: 5, east: -80, north: 40 };

/** Why a point lies in no code's area. */
export type Outside = 'sea' | 'abroad' | 'not-loaded' | 'gap';

export interface CodePlace {
  cp: string;
  lat: number;
  lng: number;
}

export class GeoIndex {
  readonly header: GeoHeader;
  readonly #t: GeoTables;
  readonly #west: number;
  readonly #south: number;
  readonly #columns: number;
  readonly #cells = new Map<number, number[]>();

  constructor(tables: GeoTables) {
    this.header = tables.header;
    this.#t = tables;
    const { meta } = tables;
    const n = tables.codes.length;
    let west = 180;
    let south = 90;
    let east = -180;
    for (let i = 0; i < n; i++) {
      west = Math.min(west, meta[i * 8 + 4]! * POINT_QUANTUM);
      south = Math.min(south, meta[i * 8 + 5]! * POINT_QUANTUM);
      east = Math.max(east, meta[i * 8 + 6]! * POINT_QUANTUM);
    }
    this.#west = n ? west : 0;
    this.#south = n ? south : 0;
    this.#columns = n ? Math.floor((east - west) / CELL) + 1 : 1;
    for (let i = 0; i < n; i++) {
      const [c0, r0] = this.#cell(meta[i * 8 + 4]! * POINT_QUANTUM, meta[i * 8 + 5]! * POINT_QUANTUM);
      const [c1, r1] = this.#cell(meta[i * 8 + 6]! * POINT_QUANTUM, meta[i * 8 + 7]! * POINT_QUANTUM);
      for (let r = r0; r <= r1; r++)
        for (let c = c0; c <= c1; c++) {
          const key = r * this.#columns + c;
          const list = this.#cells.get(key);
          if (list) list.push(i);
          else this.#cells.set(key, [i]);
        }
    }
  }

  #cell(lng: number, lat: number): [number, number] {
    return [Math.floor((lng - this.#west) / CELL), Math.floor((lat - this.#south) / CELL)];
  }

  /** How many codes have an area. */
  get size(): number {
    return this.#t.codes.length;
  }

  /** The slot of a code (5 digits), or -1 when it has no area here. */
  slotOf(cp: string): number {
    const value = Number(cp);
    const { codes } = this.#t;
    let low = 0;
    let high = codes.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = codes[middle]!;
      if (at === value) return middle;
      if (at < value) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  codeAt(slot: number): string {
    return String(this.#t.codes[slot]).padStart(5, '0');
  }

  /** The code's point, guaranteed inside its area (1e-6 degrees). */
  point(slot: number): { lat: number; lng: number } {
    const m = this.#t.meta;
    return { lat: degrees(m[slot * 8 + 1]!), lng: degrees(m[slot * 8]!) };
  }

  centroid(slot: number): { lat: number; lng: number } {
    const m = this.#t.meta;
    return { lat: degrees(m[slot * 8 + 3]!), lng: degrees(m[slot * 8 + 2]!) };
  }

  /** [west, south, east, north] in degrees. */
  bbox(slot: number): [number, number, number, number] {
    const m = this.#t.meta;
    return [degrees(m[slot * 8 + 4]!), degrees(m[slot * 8 + 5]!), degrees(m[slot * 8 + 6]!), degrees(m[slot * 8 + 7]!)];
  }

  /** The area of the original polygons, in square metres. */
  area(slot: number): number {
    return this.#t.area[slot]!;
  }

  /** Whether (lat, lng) lies in the code's simplified area. */
  contains(slot: number, lat: number, lng: number): boolean {
    const { meta, ringStart, vertexStart, vertices } = this.#t;
    const b = slot * 8;
    const qx = lng / POINT_QUANTUM;
    const qy = lat / POINT_QUANTUM;
    if (qx < meta[b + 4]! || qx > meta[b + 6]! || qy < meta[b + 5]! || qy > meta[b + 7]!) return false;
    const x = lng / RING_QUANTUM;
    const y = lat / RING_QUANTUM;
    let inside = false;
    for (let r = ringStart[slot]!, end = ringStart[slot + 1]!; r < end; r++) {
      if (insideRing(vertices, vertexStart[r]! * 2, vertexStart[r + 1]! * 2, x, y)) inside = !inside;
    }
    return inside;
  }

  /** The slot of the code whose area holds (lat, lng), or -1. */
  locate(lat: number, lng: number): number {
    const [c, r] = this.#cell(lng, lat);
    if (c < 0 || r < 0 || c >= this.#columns) return -1;
    const candidates = this.#cells.get(r * this.#columns + c);
    if (!candidates) return -1;
    for (let i = 0; i < candidates.length; i++) {
      const slot = candidates[i]!;
      if (this.contains(slot, lat, lng)) return slot;
    }
    return -1;
  }

  /** The distance in metres from (lat, lng) to the code's area: 0 inside. */
  distanceToArea(slot: number, lat: number, lng: number): number {
    if (this.contains(slot, lat, lng)) return 0;
    const { ringStart, vertexStart, vertices } = this.#t;
    let best = Number.POSITIVE_INFINITY;
    for (let r = ringStart[slot]!, end = ringStart[slot + 1]!; r < end; r++) {
      best = Math.min(best, ringDistanceMetres(vertices, vertexStart[r]! * 2, vertexStart[r + 1]! * 2, lng, lat, 1 / RING_QUANTUM));
    }
    return best;
  }

  /** Codes whose area lies within `radius` metres of (lat, lng), nearest first (0 for the one holding it), at most `limit`. */
  nearest(lat: number, lng: number, radius: number, limit: number): { slot: number; metres: number }[] {
    const dLat = radius / 111_000;
    const dLng = radius / (111_000 * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
    const [c0, r0] = this.#cell(lng - dLng, lat - dLat);
    const [c1, r1] = this.#cell(lng + dLng, lat + dLat);
    const seen = new Set<number>();
    const found: { slot: number; metres: number }[] = [];
    for (let r = Math.max(0, r0); r <= r1; r++)
      for (let c = Math.max(0, c0); c <= Math.min(c1, this.#columns - 1); c++) {
        for (const slot of this.#cells.get(r * this.#columns + c) ?? []) {
          if (seen.has(slot)) continue;
          seen.add(slot);
          const metres = this.distanceToArea(slot, lat, lng);
          if (metres <= radius) found.push({ slot, metres });
        }
      }
    found.sort((a, b) => a.metres - b.metres || a.slot - b.slot);
    return found.slice(0, limit);
  }

  /** Why (lat, lng) lies in no code's area. */
  outside(lat: number, lng: number): Outside {
    const { landStart, landMexico, landVertices } = this.#t;
    const x = lng / RING_QUANTUM;
    const y = lat / RING_QUANTUM;
    let country = -1;
    for (let r = 0; r + 1 < landStart.length; r++) {
      if (insideRing(landVertices, landStart[r]! * 2, landStart[r + 1]! * 2, x, y)) {
        country = r;
        if (landMexico[r]) break;
      }
    }
    if (country < 0) {
      const inRegion = lng >= LAND_REGION.west && lng <= LAND_REGION.east && lat >= LAND_REGION.south && lat <= LAND_REGION.north;
      return inRegion ? 'sea' : 'abroad';
    }
    if (!landMexico[country]) return 'abroad';
    return this.nearest(lat, lng, GAP_METRES, 1).length ? 'gap' : 'not-loaded';
  }

  /** A code's area as a GeoJSON Feature (the simplified polygons, 1e-5 degrees). */
  geoJson(slot: number): GeoJsonFeature {
    const { ringStart, vertexStart, vertices, hole } = this.#t;
    const polygons: number[][][][] = [];
    for (let r = ringStart[slot]!, end = ringStart[slot + 1]!; r < end; r++) {
      const ring: number[][] = [];
      for (let v = vertexStart[r]!; v < vertexStart[r + 1]!; v++) ring.push([round5(vertices[v * 2]! * RING_QUANTUM), round5(vertices[v * 2 + 1]! * RING_QUANTUM)]);
      if (ring.length) ring.push(ring[0]!.slice());
      // GeoJSON's right-hand rule: outer rings counterclockwise, holes clockwise.
      if (signedArea(ring) < 0 !== Boolean(hole[r])) ring.reverse();
      if (hole[r] && polygons.length) polygons[polygons.length - 1]!.push(ring);
      else polygons.push([ring]);
    }
    const point = this.point(slot);
    return {
      type: 'Feature',
      bbox: this.bbox(slot),
      properties: { cp: this.codeAt(slot), lat: point.lat, lng: point.lng, area_m2: Math.round(this.area(slot)) },
      geometry: polygons.length === 1 ? { type: 'Polygon', coordinates: polygons[0]! } : { type: 'MultiPolygon', coordinates: polygons },
    };
  }
}

export interface GeoJsonFeature {
  type: 'Feature';
  bbox: [number, number, number, number];
  properties: { cp: string; lat: number; lng: number; area_m2: number };
  geometry: { type: 'Polygon'; coordinates: number[][][] } | { type: 'MultiPolygon'; coordinates: number[][][][] };
}

const degrees = (value: number) => Math.round(value) / 1e6;
const round5 = (value: number) => Math.round(value * 1e5) / 1e5;

function signedArea(ring: number[][]): number {
  let sum = 0;
  for (let i = 1; i < ring.length; i++) sum += ring[i - 1]![0]! * ring[i]![1]! - ring[i]![0]! * ring[i - 1]![1]!;
  return sum;
}

/** Decodes and indexes geodata bytes (throws GeoFormatError when damaged). */
export function openGeo(bytes: Uint8Array): GeoIndex {
  return new GeoIndex(decodeGeo(bytes));
}
