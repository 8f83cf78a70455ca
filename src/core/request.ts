/**
 * Requests: a path as the contract reads it (`/query/info_cp/09810?token=T&type=simplified`)
 * becomes a `RawRequest`; its parameter checks turn it into a `Request` narrowed per method,
 * or the error code the contract gives it, by the checks of the method's row in the method
 * table (methods.ts).
 */
import type { ErrorCode } from './contract.js';
import { METHODS, UNAVAILABLE_METHODS, type AnyRow, type Method, type UnavailableMethod } from './methods.js';

export { isPostalCode, MAX_LIMIT } from './checks.js';
export { METHODS, UNAVAILABLE_METHODS, type Method, type Parameter, type SegmentKind, type UnavailableMethod } from './methods.js';

const ROWS: ReadonlyMap<string, AnyRow> = new Map(Object.entries(METHODS));
const UNAVAILABLE: ReadonlySet<string> = new Set(UNAVAILABLE_METHODS);

/** True for a method the contract answers with 113. */
export function isUnavailable(method: Method | UnavailableMethod): method is UnavailableMethod {
  return UNAVAILABLE.has(method);
}

/**
 * A request as received: every field of every method in one shape, so that the router's
 * property reads stay monomorphic. Make them with `rawRequest` (the typed client methods and
 * the command line do), which keeps that one shape. Absent and empty parameters are undefined.
 */
export interface RawRequest {
  method: Method | UnavailableMethod;
  /** The decoded path segment after the method's name, when there is one. */
  segment: string | undefined;
  token: string | undefined;
  type: string | undefined;
  estado: string | undefined;
  municipio: string | undefined;
  colonia: string | undefined;
  limit: string | undefined;
}

/** A RawRequest, always built in the same shape. */
export function rawRequest(
  method: Method | UnavailableMethod,
  segment: string | undefined,
  token: string | undefined,
  type: string | undefined = undefined,
  estado: string | undefined = undefined,
  municipio: string | undefined = undefined,
  colonia: string | undefined = undefined,
  limit: string | undefined = undefined,
): RawRequest {
  return { method, segment, token, type, estado, municipio, colonia, limit };
}

export interface InfoCpRequest {
  method: 'info_cp';
  token: string;
  cp: string;
  simplified: boolean;
}
export interface SearchCpRequest {
  method: 'search_cp';
  token: string;
  partial: string;
}
/** Methods that take nothing but the token. */
export interface PlainRequest {
  method: 'get_estados' | 'get_estado_clave' | 'cuenta/consultas_disponibles';
  token: string;
}
export interface ColoniaPorCpRequest {
  method: 'get_colonia_por_cp';
  token: string;
  cp: string;
}
/** Methods of one state named by `estado`. */
export interface StateRequest {
  method: 'get_municipio_por_estado' | 'get_cp_por_estado' | 'get_municipio_clave_por_estado';
  token: string;
  estado: string;
}
/** Methods of one state named by its key (`clave`, 1 or 2 ASCII digits). */
export interface StateKeyRequest {
  method: 'get_municipio_clave_por_clave_estado' | 'getCitiesByStateCode';
  token: string;
  clave: string;
}
/** Methods of the municipalities of a name, in every state or in `estado`'s. */
export interface MunicipalityRequest {
  /** `get_colonia_por_estado_municipio` is `get_colonia_por_municipio` with `estado` required. */
  method: 'get_cp_por_municipio' | 'get_colonia_por_municipio';
  token: string;
  municipio: string;
  estado: string | undefined;
}
/** `search_cp_advanced` and its older name `get_cp_advanced`. */
export interface SearchCpAdvancedRequest {
  method: 'search_cp_advanced';
  token: string;
  estado: string;
  municipio: string | undefined;
  colonia: string | undefined;
  limit: number | undefined;
}
/** A request whose parameters passed the contract's checks. */
export type Request =
  | InfoCpRequest
  | SearchCpRequest
  | PlainRequest
  | ColoniaPorCpRequest
  | StateRequest
  | StateKeyRequest
  | MunicipalityRequest
  | SearchCpAdvancedRequest;

/**
 * A path segment or query value as the contract decodes it: `+` is a space (as PHP's
 * `urlencode` and HTML forms write it), then percent-decoding as UTF-8 (`%2B` is a `+`); an
 * invalid encoding is taken as written, its `+` still spaces.
 */
export function decodeComponent(text: string): string {
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** Where the segment of `path` that starts at `start` ends: the next "/", or `end`. */
function segmentEnd(path: string, start: number, end: number): number {
  const slash = path.indexOf('/', start);
  return slash < 0 || slash > end ? end : slash;
}

/**
 * Parses a request path; undefined for a path the contract does not know (error 111).
 * A full URL is accepted and its origin ignored; a leading `/` is optional.
 */
export function parseRequestPath(path: string): RawRequest | undefined {
  let end = path.indexOf('#');
  if (end < 0) end = path.length;
  let start = 0;
  if (path.charCodeAt(0) === 104 || path.charCodeAt(0) === 72) {
    const origin = /^https?:\/\/[^/?#]*/i.exec(path);
    if (origin) start = origin[0].length;
  }
  let mark = path.indexOf('?', start);
  if (mark < 0 || mark > end) mark = end;

  let pathEnd = mark;
  if (pathEnd > start && path.charCodeAt(pathEnd - 1) === 47) pathEnd--; // one trailing "/"
  if (path.charCodeAt(start) === 47) start++;
  // Every segment is decoded before it is read, `query` and the method's name included.
  let at = start + 6;
  if (!path.startsWith('query/', start)) {
    const slash = segmentEnd(path, start, pathEnd);
    if (slash >= pathEnd || decodeComponent(path.slice(start, slash)) !== 'query') return undefined;
    at = slash + 1;
  }
  let slash = segmentEnd(path, at, pathEnd);
  let name = decodeComponent(path.slice(at, slash));
  // A name is one segment, or the account method's two: a decoded "/" joins no segments.
  if (name.includes('/')) return undefined;
  if (name === 'cuenta' && slash < pathEnd) {
    const next = segmentEnd(path, slash + 1, pathEnd);
    if (decodeComponent(path.slice(slash + 1, next)) === 'consultas_disponibles') {
      name = 'cuenta/consultas_disponibles';
      slash = next;
    }
  }
  const spec = ROWS.get(name);
  if (!spec) {
    // A method whose data the catalog lacks answers 113, whatever follows its name.
    return UNAVAILABLE.has(name) ? rawRequest(name as UnavailableMethod, undefined, undefined) : undefined;
  }
  const method = name as Method;
  let segment: string | undefined;
  if (slash < pathEnd) {
    const extra = path.indexOf('/', slash + 1);
    if (spec.segment === undefined || (extra >= 0 && extra < pathEnd)) return undefined; // a segment too many
    segment = decodeComponent(path.slice(slash + 1, pathEnd));
  }

  // The query string: the first occurrence of each parameter counts, empty or not; an empty
  // one is then absent. Unknown parameters are ignored.
  let token: string | undefined;
  let type: string | undefined;
  let estado: string | undefined;
  let municipio: string | undefined;
  let colonia: string | undefined;
  let limit: string | undefined;
  for (let from = mark + 1; from < end; ) {
    let amp = path.indexOf('&', from);
    if (amp < 0 || amp > end) amp = end;
    let equals = path.indexOf('=', from);
    if (equals < 0 || equals > amp) equals = amp;
    const parameter = decodeComponent(path.slice(from, equals));
    const value = () => (equals < amp ? decodeComponent(path.slice(equals + 1, amp)) : '');
    switch (parameter) {
      case 'token':
        token ??= value();
        break;
      case 'type':
        type ??= value();
        break;
      case 'estado':
        estado ??= value();
        break;
      case 'municipio':
        municipio ??= value();
        break;
      case 'colonia':
        colonia ??= value();
        break;
      case 'limit':
        limit ??= value();
        break;
    }
    from = amp + 1;
  }
  return rawRequest(method, segment, token || undefined, type || undefined, estado || undefined, municipio || undefined, colonia || undefined, limit || undefined);
}

/**
 * The parameter checks (101, 102, 104, 109, 112, 114, 116, 117), the same in both modes, in
 * the contract's order (the segment, then `estado`, `municipio`, `limit`, `type`): the narrowed
 * request, or the error. The path (111, 113) and the token are checked before, by the router.
 */
export function checkParameters(raw: RawRequest, token: string): Request | ErrorCode {
  const row = ROWS.get(raw.method);
  return row ? (row.check(raw, token) as Request | ErrorCode) : 113;
}
