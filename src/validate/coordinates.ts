/**
 * `cpmx validate --coordinates`: each valid record gets its code's point (from the geodata of
 * `cpmx build --geo`), and a GPS point written beside the code (columns or keys lat/lng) is
 * checked against the code's area: 126 with the metres to it when it lies outside, 127 when
 * it cannot be read. One check per judge, so one per worker thread; the client reads the
 * geodata at the first record that needs it, once.
 */
import type { CpmxClient } from '../client/client.js';
import { checkCoordinates } from '../core/geo/answers.js';
import { ERRORS } from '../core/contract.js';
import { InputError } from './errors.js';
import { foldColumn } from './fields.js';
import { text, VALIDATION_ERRORS, type ValidationResult } from './result.js';

/** Column (or key) names of a point's latitude and longitude, folded as `foldColumn` folds them. */
export const POINT_NAMES = Object.freeze({
  lat: Object.freeze(['lat', 'latitud', 'latitude']),
  lng: Object.freeze(['lng', 'lon', 'longitud', 'longitude']),
});

/** A CSV's columns of lat and lng (-1 when the header has none; NDJSON reads keys, so -1). */
export type PointColumns = [number, number];

/** The lat and lng columns of a header; a header with one and not the other is refused. */
export function pointColumns(names: readonly string[]): PointColumns {
  const folded = names.map(foldColumn);
  const lat = folded.findIndex((name) => POINT_NAMES.lat.includes(name));
  const lng = folded.findIndex((name) => POINT_NAMES.lng.includes(name));
  if ((lat < 0) !== (lng < 0)) {
    const [has, lacks] = lat < 0 ? ['longitude', 'latitude'] : ['latitude', 'longitude'];
    throw new InputError(`--coordinates: the header has a ${has} column (${names[lat < 0 ? lng : lat]}) but no ${lacks} column: name them lat and lng, latitud and longitud, or latitude and longitude`);
  }
  return [lat, lng];
}

/** The values of an NDJSON record's lat and lng keys (the first key naming each). */
export function pointKeys(item: object): [unknown, unknown] {
  let lat: unknown;
  let lng: unknown;
  for (const key in item) {
    if (!Object.hasOwn(item, key)) continue;
    const name = foldColumn(key);
    if (lat === undefined && POINT_NAMES.lat.includes(name)) lat = (item as Record<string, unknown>)[key];
    else if (lng === undefined && POINT_NAMES.lng.includes(name)) lng = (item as Record<string, unknown>)[key];
  }
  return [lat, lng];
}

export interface Point {
  lat: number;
  lng: number;
}

/** Codes whose point is remembered, at most: the catalog's codes are fewer (about 32,000). */
const REMEMBERED_POINTS = 65_536;

/** Throws what the client says when it has no geodata (a GeodataError, named so across bundles). */
export function geodataMissing(client: CpmxClient): string | undefined {
  try {
    client.codeArea('00000');
    return undefined;
  } catch (error) {
    if ((error as Error).name === 'GeodataError') return (error as Error).message;
    throw error;
  }
}

export class CoordinateCheck {
  private readonly points = new Map<string, Point | null>();

  constructor(private readonly client: CpmxClient) {}

  /**
   * The record's result with its GPS point checked (126, 127), and its code's point when the
   * record is valid (null when it is not, or its code has no area).
   */
  check(result: ValidationResult, cp: unknown, lat: unknown, lng: unknown): { result: ValidationResult; point: Point | null } {
    const code = text(cp).trim();
    // A code in error has no area to check against: its own error says enough.
    const known = /^\d{5}$/.test(code) && !result.errors.some((error) => error.field === 'cp');
    const checked = known ? this.checkPoint(result, code, text(lat).trim(), text(lng).trim()) : result;
    return { result: checked, point: checked.valid ? this.pointOf(code) : null };
  }

  private checkPoint(result: ValidationResult, cp: string, lat: string, lng: string): ValidationResult {
    if (lat === '' && lng === '') return result;
    const read = checkCoordinates(lat, lng, '');
    if (typeof read === 'number') {
      const reason = `${ERRORS[read][0]}: lat ${JSON.stringify(lat)}, lng ${JSON.stringify(lng)} (decimal degrees with a point: 19.43263, -99.13321)`;
      return withError(result, { field: null, code_error: 127, error_message: VALIDATION_ERRORS[127], reason });
    }
    const found = this.client.checkPoint(cp, read.lat, read.lng);
    if (found === null || found.dentro) return result;
    const where = found.cp_del_punto === null ? "in no code's area" : `in ${found.cp_del_punto}'s area`;
    return withError(result, {
      field: 'cp',
      code_error: 126,
      error_message: VALIDATION_ERRORS[126],
      reason: `the point lies ${found.metros} m from ${cp}'s area, ${where}`,
      metros: found.metros,
      cp_del_punto: found.cp_del_punto,
    });
  }

  private pointOf(cp: string): Point | null {
    let point = this.points.get(cp);
    if (point === undefined) {
      const properties = this.client.codeArea(cp)?.properties as { lat: number; lng: number } | undefined;
      point = properties ? { lat: properties.lat, lng: properties.lng } : null;
      if (this.points.size < REMEMBERED_POINTS) this.points.set(cp, point);
    }
    return point;
  }
}

function withError(result: ValidationResult, error: ValidationResult['errors'][number]): ValidationResult {
  return { ...result, valid: false, errors: [...result.errors, error] };
}
