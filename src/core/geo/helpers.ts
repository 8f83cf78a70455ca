/**
 * What the geodata answers beyond COPOMEX's two methods, for the library and the command line:
 * the codes nearest a point within a radius, the distance between two codes, a code's area as
 * GeoJSON. Not methods of the contract (no envelope, no credit): plain values, and a
 * GeodataError when the artifact has no geodata, a TypeError or RangeError for bad arguments.
 */
import { isPostalCode } from '../checks.js';
import { haversineMetres } from './geometry.js';
import type { GeoIndex, GeoJsonFeature } from './geo-index.js';

import { GeodataError } from './geodata-error.js';

export { GeodataError };

export interface NearestOptions {
  /** Metres around the point (default 1,000; at most 100,000). */
  radius?: number | undefined;
  /** At most this many codes (default 10; at most 1,000). */
  limit?: number | undefined;
}

export interface NearCode {
  cp: string;
  /** Metres from the point to the code's area: 0 inside it. */
  metros: number;
}

export interface GeoHelpers {
  /** The codes whose area lies within `radius` metres of the point, nearest first (0 for the one holding it). */
  nearestCodes(lat: number, lng: number, options?: NearestOptions): NearCode[];
  /** Metres between the points of two codes (each inside its area), great-circle; null when either has no area. */
  codeDistance(a: string, b: string): number | null;
  /** A code's area as a GeoJSON Feature (its simplified polygons; properties cp, lat, lng, area_m2); null when it has none. */
  codeArea(cp: string): GeoJsonFeature | null;
  /**
   * A GPS point against the code written beside it (a data team's check): whether it lies in
   * the code's area, how far from it (metres, 0 inside), and the code whose area holds it;
   * null when the written code has no area.
   */
  checkPoint(cp: string, lat: number, lng: number): PointCheck | null;
}

export interface PointCheck {
  dentro: boolean;
  /** Metres from the point to the written code's area: 0 inside. */
  metros: number;
  /** The code whose area holds the point, or null (sea, abroad, no polygons there, a gap). */
  cp_del_punto: string | null;
}

const MAX_RADIUS = 100_000;
const MAX_NEAREST = 1_000;

function coordinate(value: unknown, name: 'lat' | 'lng'): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  const bound = name === 'lat' ? 90 : 180;
  if (typeof number !== 'number' || !Number.isFinite(number) || Math.abs(number) > bound) {
    throw new RangeError(`cpmx: ${name} must be a number of degrees from -${bound} to ${bound}, got ${String(value)}`);
  }
  return number;
}

function whole(value: unknown, name: string, fallback: number, most: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > most) throw new RangeError(`cpmx: ${name} must be a whole number from 1 to ${most}, got ${String(value)}`);
  return value;
}

function code(value: unknown): string {
  if (typeof value !== 'string' || !isPostalCode(value)) throw new TypeError(`cpmx: a postal code is 5 digits, got ${JSON.stringify(value)}`);
  return value;
}

/** The helpers over a source of geodata (`geo()` loads it at first use, or says why there is none). */
export function geoHelpers(geo: () => GeoIndex | string): GeoHelpers {
  const index = () => {
    const loaded = geo();
    if (typeof loaded === 'string') throw new GeodataError(`cpmx: ${loaded}`);
    return loaded;
  };
  return {
    nearestCodes(lat, lng, options = {}) {
      const y = coordinate(lat, 'lat');
      const x = coordinate(lng, 'lng');
      const radius = whole(options.radius, 'radius', 1_000, MAX_RADIUS);
      const limit = whole(options.limit, 'limit', 10, MAX_NEAREST);
      const g = index();
      return g.nearest(y, x, radius, limit).map(({ slot, metres }) => ({ cp: g.codeAt(slot), metros: Math.round(metres * 10) / 10 }));
    },
    codeDistance(a, b) {
      const g = index();
      const from = g.slotOf(code(a));
      const to = g.slotOf(code(b));
      if (from < 0 || to < 0) return null;
      const p = g.point(from);
      const q = g.point(to);
      return Math.round(haversineMetres(p.lat, p.lng, q.lat, q.lng) * 10) / 10;
    },
    checkPoint(cp, lat, lng) {
      const y = coordinate(lat, 'lat');
      const x = coordinate(lng, 'lng');
      const g = index();
      const slot = g.slotOf(code(cp));
      if (slot < 0) return null;
      const metres = g.distanceToArea(slot, y, x);
      const holder = metres === 0 ? slot : g.locate(y, x);
      return { dentro: metres === 0, metros: Math.round(metres * 10) / 10, cp_del_punto: holder < 0 ? null : g.codeAt(holder) };
    },
    codeArea(cp) {
      const g = index();
      const slot = g.slotOf(code(cp));
      return slot < 0 ? null : g.geoJson(slot);
    },
  };
}
