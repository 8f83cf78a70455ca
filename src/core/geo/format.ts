/**
 * The geodata file (`cpmx.geo`, written beside the artifact by `cpmx build --geo`): each code's
 * point, centroid, bounding box, area and its polygons, simplified and quantized; and a coarse
 * outline of Mexico and its neighbours, so that a point in no code's area can be told apart
 * (sea, abroad, a state whose polygons were not given). Its own file, so that lookups that use
 * no geodata never read it, and the artifact's sections stay as they are.
 *
 * Layout: the magic `CPMXGEO1`, a u32 (little-endian) length, a JSON header, then one stream
 * of LEB128 varints (coordinates zigzagged, ring vertices delta-coded). No I/O here: the build
 * encodes, the Node adapters read the file and decode.
 */

export const GEO_MAGIC = 'CPMXGEO1';
export const GEO_FORMAT = 1;
/** Polygon vertices are kept to 1e-5 degrees (1.1 m at most, half of it by rounding). */
export const RING_QUANTUM = 1e-5;
/** Points, centroids and boxes are kept to 1e-6 degrees (0.11 m). */
export const POINT_QUANTUM = 1e-6;

export interface GeoHeader {
  format: number;
  /** The polygons' own version, from the files (e.g. `v11` from `CP_09Cdmx_v11`), else null. */
  version: string | null;
  /** The files read, by base name, with how many codes each gave. */
  files: { name: string; codes: number }[];
  /** The states covered (their names in the catalog), with how many codes have an area. */
  states: { estado: string; codes: number }[];
  codes: number;
  vertices: number;
  /** How far (metres) simplification may move a boundary; quantization adds at most 0.8 m. */
  toleranceMetres: number;
  builtAt: string;
}

/** One code's geodata, as the build computes it (degrees, square metres). */
export interface CodeGeometry {
  code: number;
  /** A point inside the area: the centroid when it lies inside, else the pole of inaccessibility. */
  point: [lng: number, lat: number];
  centroid: [lng: number, lat: number];
  bbox: [west: number, south: number, east: number, north: number];
  areaSquareMetres: number;
  /** Rings in quantized units (RING_QUANTUM), each [lng0, lat0, lng1, lat1, ...] without the closing repeat; holes follow their outer ring. */
  rings: { hole: boolean; coordinates: Int32Array | number[] }[];
}

/** Land outlines (quantized like rings): Mexico's, and its neighbours'. */
export interface LandRing {
  mexico: boolean;
  coordinates: Int32Array | number[];
}

class VarintWriter {
  bytes = new Uint8Array(1 << 16);
  length = 0;
  uint(value: number): void {
    if (this.length + 10 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    let v = value;
    while (v >= 0x80) {
      this.bytes[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.bytes[this.length++] = v;
  }
  int(value: number): void {
    this.uint(value < 0 ? -2 * value - 1 : 2 * value);
  }
}

/** Thrown on a file that is not geodata of this format, or is damaged. */
export class GeoFormatError extends Error {}

class VarintReader {
  at = 0;
  constructor(private readonly bytes: Uint8Array) {}
  uint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.at >= this.bytes.length) throw new GeoFormatError('ends early');
      const byte = this.bytes[this.at++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
      if (scale > 2 ** 49) throw new GeoFormatError('holds a number too long');
    }
  }
  int(): number {
    const v = this.uint();
    return v % 2 === 1 ? -(v + 1) / 2 : v / 2;
  }
  get done(): boolean {
    return this.at >= this.bytes.length;
  }
}

const q6 = (degrees: number) => Math.round(degrees / POINT_QUANTUM);

function writeRing(out: VarintWriter, coordinates: ArrayLike<number>): void {
  let x = 0;
  let y = 0;
  for (let i = 0; i < coordinates.length; i += 2) {
    out.int(coordinates[i]! - x);
    out.int(coordinates[i + 1]! - y);
    x = coordinates[i]!;
    y = coordinates[i + 1]!;
  }
}

export function encodeGeo(header: GeoHeader, codes: readonly CodeGeometry[], land: readonly LandRing[]): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new VarintWriter();
  out.uint(codes.length);
  for (const geometry of codes) {
    out.uint(geometry.code);
    for (const value of [...geometry.point, ...geometry.centroid, ...geometry.bbox]) out.int(q6(value));
    out.uint(Math.round(geometry.areaSquareMetres));
    out.uint(geometry.rings.length);
    for (const ring of geometry.rings) {
      out.uint((ring.coordinates.length / 2) * 2 + (ring.hole ? 1 : 0));
      writeRing(out, ring.coordinates);
    }
  }
  out.uint(land.length);
  for (const ring of land) {
    out.uint((ring.coordinates.length / 2) * 2 + (ring.mexico ? 1 : 0));
    writeRing(out, ring.coordinates);
  }
  const bytes = new Uint8Array(8 + 4 + json.length + out.length);
  bytes.set(new TextEncoder().encode(GEO_MAGIC), 0);
  new DataView(bytes.buffer).setUint32(8, json.length, true);
  bytes.set(json, 12);
  bytes.set(out.bytes.subarray(0, out.length), 12 + json.length);
  return bytes;
}

/** The decoded file: flat typed arrays, as the lookups read them. */
export interface GeoTables {
  header: GeoHeader;
  /** The codes, ascending as numbers. */
  codes: Uint32Array;
  /** Per code, in 1e-6 degrees: point lng, lat, centroid lng, lat, west, south, east, north. */
  meta: Int32Array;
  area: Float64Array;
  /** Rings of code i: ringStart[i] to ringStart[i + 1]. */
  ringStart: Uint32Array;
  /** Vertices of ring j (pairs in `vertices`): vertexStart[j] to vertexStart[j + 1]. */
  vertexStart: Uint32Array;
  hole: Uint8Array;
  /** lng, lat pairs in RING_QUANTUM units. */
  vertices: Int32Array;
  /** Land rings: their vertex ranges in `landVertices`, and whether each is Mexico's. */
  landStart: Uint32Array;
  landMexico: Uint8Array;
  landVertices: Int32Array;
}

/** The largest counts a file may declare (a bound on memory before anything is allocated). */
const MAX_CODES = 200_000;
const MAX_RINGS = 2_000_000;

/** Vertices decoded into one growing typed array (no array of boxed numbers on the way). */
class VertexBuffer {
  data: Int32Array;
  length = 0;
  constructor(pairs: number) {
    this.data = new Int32Array(Math.max(16, Math.min(pairs, 50_000_000) * 2));
  }
  push(x: number, y: number): void {
    if (this.length + 2 > this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = x;
    this.data[this.length++] = y;
  }
  done(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

function readRings(input: VarintReader, count: number, starts: number[], flags: number[], vertices: VertexBuffer): void {
  for (let r = 0; r < count; r++) {
    const word = input.uint();
    flags.push(word % 2);
    const n = Math.floor(word / 2);
    starts.push(vertices.length / 2);
    let x = 0;
    let y = 0;
    for (let i = 0; i < n; i++) {
      x += input.int();
      y += input.int();
      vertices.push(x, y);
    }
  }
}

/** Decodes geodata bytes; throws GeoFormatError when they are not this format or damaged. */
export function decodeGeo(bytes: Uint8Array): GeoTables {
  if (bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 8)) !== GEO_MAGIC) throw new GeoFormatError('is not cpmx geodata (no CPMXGEO1 at its start)');
  const jsonLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(8, true);
  if (12 + jsonLength > bytes.length) throw new GeoFormatError('ends inside its header');
  let header: GeoHeader;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + jsonLength))) as GeoHeader;
  } catch {
    throw new GeoFormatError('has a damaged header');
  }
  if (header?.format !== GEO_FORMAT) throw new GeoFormatError(`is of format ${String(header?.format)}, this cpmx reads ${GEO_FORMAT}`);
  const input = new VarintReader(bytes.subarray(12 + jsonLength));
  const n = input.uint();
  if (n > MAX_CODES) throw new GeoFormatError(`declares ${n} codes`);
  const codes = new Uint32Array(n);
  const meta = new Int32Array(n * 8);
  const area = new Float64Array(n);
  const ringStart = new Uint32Array(n + 1);
  const vertices = new VertexBuffer(Number.isSafeInteger(header.vertices) ? header.vertices : 0);
  const ringStarts: number[] = [];
  const holes: number[] = [];
  for (let i = 0; i < n; i++) {
    codes[i] = input.uint();
    for (let k = 0; k < 8; k++) meta[i * 8 + k] = input.int();
    area[i] = input.uint();
    const rings = input.uint();
    if (ringStarts.length + rings > MAX_RINGS) throw new GeoFormatError('declares too many rings');
    ringStart[i] = ringStarts.length;
    readRings(input, rings, ringStarts, holes, vertices);
  }
  ringStart[n] = ringStarts.length;
  ringStarts.push(vertices.length / 2);
  const landCount = input.uint();
  if (landCount > MAX_RINGS) throw new GeoFormatError('declares too many land rings');
  const landStarts: number[] = [];
  const landMexico: number[] = [];
  const land = new VertexBuffer(8_192);
  readRings(input, landCount, landStarts, landMexico, land);
  landStarts.push(land.length / 2);
  if (!input.done) throw new GeoFormatError('has bytes after its end');
  return {
    header,
    codes,
    meta,
    area,
    ringStart,
    vertexStart: Uint32Array.from(ringStarts),
    hole: Uint8Array.from(holes),
    vertices: vertices.done(),
    landStart: Uint32Array.from(landStarts),
    landMexico: Uint8Array.from(landMexico),
    landVertices: land.done(),
  };
}

export { geoPathOf } from './path.js';
