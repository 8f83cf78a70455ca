/**
 * Requests: a path as the contract reads it (`/query/info_cp/09810?token=T&type=simplified`)
 * becomes a `RawRequest`; its parameter checks turn it into a `Request` narrowed per method,
 * or the error code the contract gives it.
 */
import type { ErrorCode } from './contract.js';

export type Method = 'info_cp' | 'search_cp' | 'get_estados' | 'get_municipio_por_estado';

const METHODS: ReadonlySet<string> = new Set<Method>(['info_cp', 'search_cp', 'get_estados', 'get_municipio_por_estado']);
/** Methods that take no path segment: one more is a path the contract does not know. */
const NO_SEGMENT: ReadonlySet<Method> = new Set<Method>(['get_estados']);

/**
 * A request as received: every field of every method in one shape, so that the router's
 * property reads stay monomorphic. The typed client methods build these directly.
 */
export interface RawRequest {
  method: Method;
  /** The decoded path segment after the method's name, when there is one. */
  segment: string | undefined;
  token: string | undefined;
  /** The `type` query parameter, when present (even empty). */
  type: string | undefined;
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
export interface EstadosRequest {
  method: 'get_estados';
  token: string;
}
export interface MunicipiosRequest {
  method: 'get_municipio_por_estado';
  token: string;
  estado: string;
}
/** A request whose parameters passed the contract's checks. */
export type Request = InfoCpRequest | SearchCpRequest | EstadosRequest | MunicipiosRequest;

/** Percent-decodes a path segment as UTF-8; a segment with an invalid encoding stays as written. */
function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function decodeQueryValue(value: string): string {
  const spaced = value.includes('+') ? value.replaceAll('+', ' ') : value;
  return decodeSegment(spaced);
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
  if (!path.startsWith('query/', start)) return undefined;
  const methodStart = start + 6;
  let slash = path.indexOf('/', methodStart);
  if (slash < 0 || slash > pathEnd) slash = pathEnd;
  const name = path.slice(methodStart, slash);
  if (!METHODS.has(name)) return undefined;
  const method = name as Method;
  let segment: string | undefined;
  if (slash < pathEnd) {
    const extra = path.indexOf('/', slash + 1);
    if (NO_SEGMENT.has(method) || (extra >= 0 && extra < pathEnd)) return undefined; // a segment too many
    segment = decodeSegment(path.slice(slash + 1, pathEnd));
  }

  // The query string: the first occurrence of each parameter wins; unknown ones are ignored.
  let token: string | undefined;
  let type: string | undefined;
  for (let at = mark + 1; at < end; ) {
    let amp = path.indexOf('&', at);
    if (amp < 0 || amp > end) amp = end;
    let equals = path.indexOf('=', at);
    if (equals < 0 || equals > amp) equals = amp;
    const parameter = decodeQueryValue(path.slice(at, equals));
    const value = () => (equals < amp ? decodeQueryValue(path.slice(equals + 1, amp)) : '');
    if (parameter === 'token') token ??= value();
    else if (parameter === 'type') type ??= value();
    at = amp + 1;
  }
  return { method, segment, token, type };
}

/**
 * The parameter checks (101, 102, 104, 109, 112), the same in both modes: the narrowed
 * request, or the error. The token is checked before, by the router.
 */
export function checkParameters(raw: RawRequest, token: string): Request | ErrorCode {
  const { segment } = raw;
  switch (raw.method) {
    case 'info_cp': {
      const error = checkCode(segment, 5);
      if (error) return error;
      if (raw.type !== undefined && raw.type !== 'simplified') return 112;
      return { method: 'info_cp', token, cp: segment!, simplified: raw.type !== undefined };
    }
    case 'search_cp': {
      const error = checkCode(segment, 1);
      return error ?? { method: 'search_cp', token, partial: segment! };
    }
    case 'get_municipio_por_estado':
      return segment === undefined || !segment.trim() ? 109 : { method: 'get_municipio_por_estado', token, estado: segment };
    case 'get_estados':
      return { method: 'get_estados', token };
  }
}

/** 101, 102 or 104 for a code (`shortest` 5) or a code's prefix (`shortest` 1); undefined when fine. */
function checkCode(segment: string | undefined, shortest: number): ErrorCode | undefined {
  if (!segment) return 101;
  const digits = asciiDigits(segment);
  if (digits >= shortest && digits <= 5) return undefined;
  const length = codePointLength(segment);
  return (shortest === 5 ? length !== 5 : length > 5) ? 102 : 104;
}

/** The length of `text` when it is all ASCII digits, else -1. */
function asciiDigits(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
  }
  return text.length;
}

/** Characters as the contract counts them: code points, so a surrogate pair is one. */
function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}
