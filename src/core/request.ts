/**
 * Requests: a path as the contract reads it (`/query/info_cp/09810?token=T&type=simplified`)
 * becomes a `RawRequest`; its parameter checks turn it into a `Request` narrowed per method,
 * or the error code the contract gives it, by the checks of the method's row in the method
 * table (methods.ts).
 */
import type { ErrorCode } from './contract.js';
import type { Request } from './checked-requests.js';
import { ROWS, UNAVAILABLE_METHODS, parameterValues, rawRequest, type AnyRow, type Method, type Parameter, type RawRequest, type UnavailableMethod } from './methods.js';

export { isPostalCode, MAX_LIMIT } from './checks.js';
export type * from './checked-requests.js';
export { METHODS, UNAVAILABLE_METHODS, rawRequest, type Method, type Parameter, type ParameterValues, type RawRequest, type RequestFields, type SegmentKind, type UnavailableMethod } from './methods.js';

const UNAVAILABLE: ReadonlySet<string> = new Set(UNAVAILABLE_METHODS);

/** True for a method the contract answers with 113. */
export function isUnavailable(method: Method | UnavailableMethod): method is UnavailableMethod {
  return UNAVAILABLE.has(method);
}

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
 * A full URL is accepted and its origin ignored; a leading `/` is optional. The query
 * parameters read are the method's row's (`rows`: the method table's, or one a test makes).
 */
export function parseRequestPath(path: string, rows: ReadonlyMap<string, AnyRow> = ROWS): RawRequest | undefined {
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
  const spec = rows.get(name);
  if (!spec) {
    // A method whose data the catalog lacks answers 113, whatever follows its name.
    return UNAVAILABLE.has(name) ? rawRequest({ method: name as UnavailableMethod }) : undefined;
  }
  const method = name as Method;
  let segment: string | undefined;
  if (slash < pathEnd) {
    const extra = path.indexOf('/', slash + 1);
    if (spec.segment === undefined || (extra >= 0 && extra < pathEnd)) return undefined; // a segment too many
    segment = decodeComponent(path.slice(slash + 1, pathEnd));
  }

  // The query string: the first occurrence of each parameter counts, empty or not; an empty
  // one is then absent. Parameters the method's row does not take are ignored.
  const names = spec.parameters;
  let token: string | undefined;
  const values: (string | undefined)[] = [];
  for (let from = mark + 1; from < end; ) {
    let amp = path.indexOf('&', from);
    if (amp < 0 || amp > end) amp = end;
    let equals = path.indexOf('=', from);
    if (equals < 0 || equals > amp) equals = amp;
    const parameter = decodeComponent(path.slice(from, equals));
    const value = () => (equals < amp ? decodeComponent(path.slice(equals + 1, amp)) : '');
    if (parameter === 'token') token ??= value();
    else {
      const at = names.indexOf(parameter as Parameter);
      if (at >= 0) values[at] ??= value();
    }
    from = amp + 1;
  }
  return { method, segment, token: token || undefined, parameters: parameterValues(names, (_name, at) => values[at] || undefined) };
}

/** A short, distinct name for each method: its place in the method table (made at first need: cpmx/web never keys a request). */
let methodTags: ReadonlyMap<string, string> | undefined;

/**
 * What names a request's answer besides the catalog (an ETag's part): its method, its segment
 * and each parameter given, by name, as written. Values are percent-encoded, so `:` and `=`
 * never appear in one and the parts cannot run into each other.
 */
export function requestKey(request: RawRequest): string {
  methodTags ??= new Map([...ROWS.keys()].map((method, i) => [method, i.toString(36)]));
  let key = `${methodTags.get(request.method) ?? request.method}.${encodeURIComponent(request.segment ?? '')}`;
  const { parameters } = request;
  for (const name in parameters) {
    const value = parameters[name as Parameter];
    if (value !== undefined) key += `:${name}=${encodeURIComponent(value)}`;
  }
  return key;
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
