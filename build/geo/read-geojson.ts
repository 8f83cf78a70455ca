/**
 * Reads Correos de México's postal-code polygons as GeoJSON (one FeatureCollection per state,
 * property `d_codigo`, a number or a string), or as KML turned into that (read-kml.ts), checking everything a hostile or damaged file
 * could hold: its size and vertex count are bounded, every coordinate must be a pair of finite
 * numbers in range, every geometry a Polygon or MultiPolygon. A file that fails is refused
 * whole, naming the file, the feature and what was wrong.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { GeoInputError } from './input-error.js';
import type { KmlToGeoJson } from './read-kml.js';

export interface GeoLimits {
  /** The largest file read (bytes). */
  maxBytes: number;
  /** The most vertices, all files together. */
  maxVertices: number;
}

export const GEO_LIMITS: GeoLimits = { maxBytes: 256 * 1024 * 1024, maxVertices: 20_000_000 };

/** A ring in degrees: [lng0, lat0, lng1, lat1, ...], without the closing repeat. */
export type Ring = number[];
/** A polygon: its outer ring, then its holes. */
export type Polygon = Ring[];

export interface PolygonFile {
  name: string;
  /** The version in the collection's name (`CP_09Cdmx_v11` gives `v11`), when it has one. */
  version: string | null;
  /** Each code's polygons (a code given by several features gets them all). */
  codes: Map<string, Polygon[]>;
}

export { GeoInputError };

function readRegularFile(path: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new GeoInputError(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new GeoInputError(`${path}: not a regular file; give a GeoJSON or KML file`);
    if (stats.size > maxBytes) throw new GeoInputError(`${path}: ${stats.size} bytes, more than the ${maxBytes} a polygon file may have (--geo-max-bytes raises it)`);
    const bytes = Buffer.allocUnsafe(stats.size);
    let read = 0;
    for (let n = 1; read < bytes.length && n > 0; read += n) n = readSync(fd, bytes, read, bytes.length - read, read);
    return bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads and checks a polygon file; `vertices` counts across calls so that the limit holds for
 * all files together. A `.kml` file is read with `kml` (read-kml.ts's loadKmlReader).
 */
export function readPolygonFile(path: string, limits: GeoLimits = GEO_LIMITS, counted = { vertices: 0 }, kml?: KmlToGeoJson): PolygonFile {
  const name = basename(path);
  if (/\.kmz$/i.test(name)) throw new GeoInputError(`${path}: KMZ is zipped KML; unzip it and give the .kml file inside`);
  const isKml = /\.kml$/i.test(name);
  if (isKml && !kml) throw new GeoInputError(`${path}: KML is read by \`cpmx build --geo\` (readPolygonInputs), which loads its reader first`);
  const bytes = readRegularFile(path, limits.maxBytes);
  let document: unknown;
  if (isKml) document = kml!(bytes.toString('utf8'), path);
  else {
    try {
      document = JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      throw new GeoInputError(`${path}: not JSON (${(error as Error).message})`);
    }
  }
  const collection = document as { type?: unknown; name?: unknown; features?: unknown };
  if (collection === null || typeof collection !== 'object' || collection.type !== 'FeatureCollection' || !Array.isArray(collection.features)) {
    throw new GeoInputError(`${path}: not a GeoJSON FeatureCollection`);
  }
  const version = typeof collection.name === 'string' ? (/_(v\d+)$/i.exec(collection.name)?.[1] ?? null) : null;
  const codes = new Map<string, Polygon[]>();
  collection.features.forEach((feature: unknown, index: number) => {
    const where = `${path}: feature ${index + 1}`;
    const { properties, geometry } = (feature ?? {}) as { properties?: { d_codigo?: unknown }; geometry?: { type?: unknown; coordinates?: unknown } };
    const cp = postalCode(properties?.d_codigo);
    if (cp === undefined) throw new GeoInputError(`${where}: d_codigo ${JSON.stringify(properties?.d_codigo) ?? 'missing'} is not a postal code (1 to 5 digits)`);
    const at = `${where} (cp ${cp})`;
    const polygons =
      geometry?.type === 'Polygon'
        ? [readPolygon(geometry.coordinates, at, limits, counted)]
        : geometry?.type === 'MultiPolygon' && Array.isArray(geometry.coordinates)
          ? geometry.coordinates.map((polygon, p) => readPolygon(polygon, `${at}, polygon ${p + 1}`, limits, counted))
          : undefined;
    if (!polygons) throw new GeoInputError(`${at}: the geometry is ${geometry === null || geometry === undefined ? 'missing' : String(geometry.type)}; a Polygon or MultiPolygon is needed`);
    const known = codes.get(cp);
    if (known) known.push(...polygons);
    else codes.set(cp, polygons);
  });
  return { name, version, codes };
}

/** `d_codigo` as 5 digits: a number loses its leading zeros (1000 is 01000), a string keeps them. */
function postalCode(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 1 && value <= 99_999 ? String(value).padStart(5, '0') : undefined;
  if (typeof value === 'string' && /^[0-9]{1,5}$/.test(value.trim())) return value.trim().padStart(5, '0');
  return undefined;
}

function readPolygon(rings: unknown, where: string, limits: GeoLimits, counted: { vertices: number }): Polygon {
  if (!Array.isArray(rings) || rings.length === 0) throw new GeoInputError(`${where}: a polygon must be a list of rings`);
  return rings.map((ring, r) => readRing(ring, `${where}, ring ${r + 1}`, limits, counted));
}

function readRing(positions: unknown, where: string, limits: GeoLimits, counted: { vertices: number }): Ring {
  if (!Array.isArray(positions)) throw new GeoInputError(`${where}: a ring must be a list of positions`);
  counted.vertices += positions.length;
  if (counted.vertices > limits.maxVertices) throw new GeoInputError(`${where}: more than ${limits.maxVertices} vertices in all (--geo-max-vertices raises it)`);
  const ring: Ring = [];
  for (let i = 0; i < positions.length; i++) {
    const position = positions[i] as unknown;
    const lng = Array.isArray(position) ? position[0] : undefined;
    const lat = Array.isArray(position) ? position[1] : undefined;
    if (typeof lng !== 'number' || typeof lat !== 'number' || !Number.isFinite(lng) || !Number.isFinite(lat) || Math.abs(lng) > 180 || Math.abs(lat) > 90) {
      throw new GeoInputError(`${where}, position ${i + 1}: ${JSON.stringify(position)?.slice(0, 80) ?? 'missing'} is not [longitude, latitude] in degrees (numbers, -180 to 180 and -90 to 90)`);
    }
    // Repeated positions (the files have some) add nothing.
    if (ring.length && ring[ring.length - 2] === lng && ring[ring.length - 1] === lat) continue;
    ring.push(lng, lat);
  }
  // GeoJSON closes a ring by repeating its first position; one left open is closed all the same.
  if (ring.length > 2 && ring[0] === ring[ring.length - 2] && ring[1] === ring[ring.length - 1]) ring.length -= 2;
  return ring;
}
