/**
 * Requests by name: the query parameters a method takes are its row's in the method table, so
 * a row with a parameter no method had before is read by the path parser, reaches the row's
 * check, names its answer (ETag) and is built by name, with no change outside the table.
 */
import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../src/core/contract.js';
import { ROWS, type AnyRow, type Parameter, type RawRequest } from '../../src/core/methods.js';
import { parseRequestPath, rawRequest, requestKey } from '../../src/core/request.js';
import { handle } from '../../src/core/router.js';

/** A row as the geodata methods have: two parameters the table had no method take, `lat` and `lng`. */
const point = {
  ...ROWS.get('info_cp')!,
  segment: undefined,
  parameters: ['lat', 'lng'] as unknown as readonly Parameter[],
  required: ['lat', 'lng'] as unknown as readonly Parameter[],
  check: (raw: RawRequest, token: string) => {
    const { lat, lng } = raw.parameters as Record<string, string | undefined>;
    return lat === undefined || lng === undefined ? (109 as ErrorCode) : { method: 'point', token, lat, lng };
  },
} satisfies AnyRow;
const rows: ReadonlyMap<string, AnyRow> = new Map([...ROWS, ['point', point]]);

describe('a parameter added to a row', () => {
  it('is read from the path, the first occurrence counting, an empty one absent, others ignored', () => {
    const raw = parseRequestPath('/query/point?lat=19.43263&token=demo&lng=-99.13321&lat=1&estado=cdmx', rows)!;
    expect(raw.parameters).toEqual({ lat: '19.43263', lng: '-99.13321' });
    expect(raw.token).toBe('demo');
    expect(Object.keys(raw.parameters)).toEqual(['lat', 'lng']);
    expect(parseRequestPath('/query/point?lng=1&lat=&token=demo', rows)!.parameters).toEqual({ lat: undefined, lng: '1' });
  });

  it('reaches the row’s check', () => {
    const raw = parseRequestPath('/query/point?lat=19.4&lng=-99.1&token=demo', rows)!;
    expect(point.check(raw, 'demo')).toEqual({ method: 'point', token: 'demo', lat: '19.4', lng: '-99.1' });
    expect(point.check(parseRequestPath('/query/point?lat=19.4&token=demo', rows)!, 'demo')).toBe(109);
  });

  it('names the answer: two points are two ETags, and a parameter the row does not take changes none', () => {
    const key = (path: string) => requestKey(parseRequestPath(path, rows)!);
    expect(key('/query/point?lat=1&lng=2')).not.toBe(key('/query/point?lat=1&lng=3'));
    expect(key('/query/point?lat=1&lng=2')).not.toBe(key('/query/point?lat=2&lng=1'));
    expect(key('/query/point?lat=1&lng=2&estado=x&type=simplified')).toBe(key('/query/point?lng=2&lat=1'));
  });
});

describe('a request built by name', () => {
  it('keeps the parameters its method’s row takes, in the row’s order, and leaves out the others', () => {
    const raw = rawRequest({ method: 'search_cp_advanced', segment: 'cdmx', token: 'demo', parameters: { limit: '3', type: 'simplified', municipio: 'Iztapalapa' } });
    expect(raw).toEqual({ method: 'search_cp_advanced', segment: 'cdmx', token: 'demo', parameters: { municipio: 'Iztapalapa', colonia: undefined, limit: '3' } });
    expect(Object.keys(raw.parameters)).toEqual(['municipio', 'colonia', 'limit']);
    expect(rawRequest({ method: 'info_cp', segment: '09810', token: 'demo', parameters: { type: 'simplified' } })).toEqual(parseRequestPath('/query/info_cp/09810?token=demo&type=simplified'));
  });

  it('is one shape whatever was given: every field present, in one order', () => {
    for (const raw of [rawRequest({ method: 'get_estados' }), rawRequest({ method: 'info_cp', segment: '09810', token: 't', parameters: {} }), parseRequestPath('/query/get_cp_por_municipio/X?estado=Y')!]) {
      expect(Object.keys(raw)).toEqual(['method', 'segment', 'token', 'parameters']);
    }
    expect(handle(rawRequest({ method: 'info_cp', segment: '09810', token: 'pruebas', parameters: { type: 'full' } }), { catalog: () => { throw new Error('test mode reads no catalog'); } }).body).toMatchObject({ code_error: 112 });
  });
});
