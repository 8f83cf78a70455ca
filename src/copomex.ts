/**
 * The COPOMEX contract (`shared/spec/API.md`): envelopes, error codes, tokens, and the one
 * router from a request to an answer. The client's typed methods, `query(path)`, the CLI
 * and the HTTP server all end in `answer`, so they cannot disagree.
 */
import type { Catalog } from './catalog.js';
import * as testMode from './test-mode.js';

/** The test-mode token: fictitious data, no catalog, no credits. */
export const TEST_TOKEN = 'pruebas';

/** Every error of the contract: code → [message, HTTP status]. */
export const ERRORS = {
  101: ['No se recibió el cp', 400],
  102: ['La longitud del cp es inválida', 400],
  104: ['El cp es un número negativo', 400],
  105: ['No se encontró el cp', 404],
  106: ['No se recibió el token', 401],
  107: ['El token no es válido', 401],
  108: ['El token no tiene créditos disponibles', 402],
  109: ['No se recibió el estado', 400],
  110: ['No se encontró el estado', 404],
  111: ['Método no encontrado', 404],
  112: ['El tipo de respuesta es inválido', 400],
} as const satisfies Record<number, readonly [string, number]>;

export type ErrorCode = keyof typeof ERRORS;

export interface SuccessEnvelope<R> {
  error: false;
  code_error: 0;
  error_message: null;
  response: R;
}

export interface ErrorEnvelope {
  error: true;
  code_error: ErrorCode;
  error_message: string;
  response: null;
}

export type Envelope<R> = SuccessEnvelope<R> | ErrorEnvelope;

/** One settlement of a code, keys in the contract's order. */
export interface PostalCodeRecord {
  cp: string;
  asentamiento: string;
  tipo_asentamiento: string;
  municipio: string;
  estado: string;
  ciudad: string;
  pais: string;
}

/** A code in simplified mode: every settlement name, the first settlement's type. */
export interface SimplifiedPostalCodeRecord extends Omit<PostalCodeRecord, 'asentamiento'> {
  asentamiento: string[];
}

/** `info_cp` answers an array in full mode, one envelope otherwise, and errors as one envelope. */
export type InfoCpBody = SuccessEnvelope<PostalCodeRecord>[] | Envelope<SimplifiedPostalCodeRecord> | ErrorEnvelope;
export type SearchCpBody = Envelope<{ cp: string[] }>;
export type EstadosBody = Envelope<{ estado: string[] }>;
export type MunicipiosBody = Envelope<{ municipios: string[] }>;
export type Body = InfoCpBody | SearchCpBody | EstadosBody | MunicipiosBody;

/** What every adapter gets back: the body and the HTTP status the contract gives it. */
export interface Answer<B extends Body = Body> {
  status: number;
  body: B;
  /** True for a successful answer with real data: the only kind that consumes a credit. */
  billable: boolean;
}

export type Endpoint = 'info_cp' | 'search_cp' | 'get_estados' | 'get_municipio_por_estado';

/** A request after its path is parsed; the typed client methods build these directly. */
export interface CopomexRequest {
  endpoint: Endpoint;
  /** The decoded path segment after the endpoint, when there is one. */
  segment?: string | undefined;
  token?: string | undefined;
  /** The `type` query parameter, when present (even empty). */
  type?: string | undefined;
}

/**
 * Token accounting, when a registry is configured. `consume` is asked only for a successful
 * real-data answer, and answers false when the token has no credit left (error 108).
 */
export interface TokenRegistry {
  isKnown(token: string): boolean;
  consume(token: string): boolean;
}

export interface RouterContext {
  /** The catalog, loaded on first need: test mode never calls it. */
  catalog: () => Catalog;
  registry?: TokenRegistry | undefined;
  /** Set false to answer without consuming a credit (the server's 304 path). */
  charge?: boolean;
}

const ENDPOINTS: ReadonlySet<string> = new Set<Endpoint>(['info_cp', 'search_cp', 'get_estados', 'get_municipio_por_estado']);
const PAIS = 'México';

export function success<R>(response: R): SuccessEnvelope<R> {
  return { error: false, code_error: 0, error_message: null, response };
}

export function failure(code: ErrorCode): ErrorEnvelope {
  return { error: true, code_error: code, error_message: ERRORS[code][0], response: null };
}

function fail(code: ErrorCode): Answer<ErrorEnvelope> {
  return { status: ERRORS[code][1], body: failure(code), billable: false };
}

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
 * Parses a request path (`/query/info_cp/09810?token=T&type=simplified`); undefined for a
 * path the contract does not know (error 111). A full URL is accepted and its origin ignored.
 */
export function parseRequestPath(path: string): CopomexRequest | undefined {
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
  // A leading "/" is optional: a relative "query/..." path is taken as the same.
  if (path.charCodeAt(start) === 47) start++;
  if (!path.startsWith('query/', start)) return undefined;
  const endpointStart = start + 6;
  let slash = path.indexOf('/', endpointStart);
  if (slash < 0 || slash > pathEnd) slash = pathEnd;
  const endpoint = path.slice(endpointStart, slash);
  if (!ENDPOINTS.has(endpoint)) return undefined;
  let segment: string | undefined;
  if (slash < pathEnd) {
    const extra = path.indexOf('/', slash + 1);
    if (endpoint === 'get_estados' || (extra >= 0 && extra < pathEnd)) return undefined; // a segment too many
    segment = decodeSegment(path.slice(slash + 1, pathEnd));
  }

  // The query string: only `token` and `type` matter, and the first occurrence of each wins.
  let token: string | undefined;
  let type: string | undefined;
  for (let at = mark + 1; at < end; ) {
    let amp = path.indexOf('&', at);
    if (amp < 0 || amp > end) amp = end;
    let equals = path.indexOf('=', at);
    if (equals < 0 || equals > amp) equals = amp;
    const name = decodeQueryValue(path.slice(at, equals));
    const value = () => (equals < amp ? decodeQueryValue(path.slice(equals + 1, amp)) : '');
    if (name === 'token') token ??= value();
    else if (name === 'type') type ??= value();
    at = amp + 1;
  }
  return { endpoint: endpoint as Endpoint, segment, token, type };
}

/** Routes a request path to its answer. */
export function route(path: string, context: RouterContext): Answer {
  const request = parseRequestPath(path);
  return request ? answer(request, context) : fail(111);
}

/** Answers a parsed request, checking in the contract's order: token, parameters, lookup, credits. */
export function answer(request: CopomexRequest, context: RouterContext): Answer {
  const token = request.token;
  if (!token) return fail(106);
  const testing = token === TEST_TOKEN;
  const registry = testing ? undefined : context.registry;
  if (registry && !registry.isKnown(token)) return fail(107);

  const invalid = validate(request);
  if (invalid) return fail(invalid);

  const result = testing ? answerTestMode(request) : answerFromCatalog(request, context.catalog());
  if (!result.billable || !registry || context.charge === false) return result;
  return registry.consume(token) ? result : fail(108);
}

/** Parameter checks (101, 102, 104, 109, 112), the same in both modes. */
function validate({ endpoint, segment, type }: CopomexRequest): ErrorCode | undefined {
  switch (endpoint) {
    case 'info_cp':
    case 'search_cp': {
      if (!segment) return 101;
      const digits = asciiDigits(segment);
      if (digits === 5 || (digits > 0 && endpoint === 'search_cp' && digits < 5)) {
        return endpoint === 'info_cp' && type !== undefined && type !== 'simplified' ? 112 : undefined;
      }
      const length = codePointLength(segment);
      return (endpoint === 'info_cp' ? length !== 5 : length > 5) ? 102 : 104;
    }
    case 'get_municipio_por_estado':
      return segment === undefined || !segment.trim() ? 109 : undefined;
    case 'get_estados':
      return undefined;
  }
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

function answerFromCatalog(request: CopomexRequest, catalog: Catalog): Answer {
  switch (request.endpoint) {
    case 'info_cp': {
      const code = catalog.codeIndex(request.segment!);
      if (code < 0) return fail(105);
      const body = request.type === undefined ? fullRecords(catalog, code, request.segment!) : simplifiedRecord(catalog, code, request.segment!);
      return { status: 200, body, billable: true };
    }
    case 'search_cp':
      return { status: 200, body: success({ cp: catalog.codesStartingWith(request.segment!) }), billable: true };
    case 'get_estados':
      return { status: 200, body: success({ estado: catalog.stateNames().slice() }), billable: true };
    case 'get_municipio_por_estado': {
      const state = findState(catalog, request.segment!);
      if (state < 0) return fail(110);
      return { status: 200, body: success({ municipios: catalog.municipalitiesOf(state).slice() }), billable: true };
    }
  }
}

function fullRecords(catalog: Catalog, code: number, cp: string): SuccessEnvelope<PostalCodeRecord>[] {
  const municipio = catalog.municipalityOf(code);
  const estado = catalog.stateOf(code);
  const ciudad = catalog.cityOf(code);
  const start = catalog.settlementStartOf(code);
  const end = catalog.settlementEndOf(code);
  const body = new Array<SuccessEnvelope<PostalCodeRecord>>(end - start);
  for (let s = start; s < end; s++) {
    body[s - start] = {
      error: false,
      code_error: 0,
      error_message: null,
      response: {
        cp,
        asentamiento: catalog.settlementName(s),
        tipo_asentamiento: catalog.settlementType(s),
        municipio,
        estado,
        ciudad,
        pais: PAIS,
      },
    };
  }
  return body;
}

function simplifiedRecord(catalog: Catalog, code: number, cp: string): SuccessEnvelope<SimplifiedPostalCodeRecord> {
  const start = catalog.settlementStartOf(code);
  const end = catalog.settlementEndOf(code);
  const names = new Array<string>(end - start);
  for (let s = start; s < end; s++) names[s - start] = catalog.settlementName(s);
  return {
    error: false,
    code_error: 0,
    error_message: null,
    response: {
      cp,
      asentamiento: names,
      tipo_asentamiento: catalog.settlementType(start),
      municipio: catalog.municipalityOf(code),
      estado: catalog.stateOf(code),
      ciudad: catalog.cityOf(code),
      pais: PAIS,
    },
  };
}

/** Folds a state name as the contract matches it: trimmed, lower case, accents dropped. */
export function foldStateName(name: string): string {
  return name.trim().normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The contract's aliases, by the catalog name they stand for. */
export const STATE_ALIASES: Readonly<Record<string, readonly string[]>> = {
  'Ciudad de México': ['CDMX', 'Distrito Federal'],
  México: ['Estado de México', 'Edomex'],
  'Coahuila de Zaragoza': ['Coahuila'],
  'Michoacán de Ocampo': ['Michoacán'],
  'Veracruz de Ignacio de la Llave': ['Veracruz'],
};

interface StateIndex {
  byFoldedName: Map<string, number>;
  /** Answers for names exactly as asked, so folding runs once per distinct spelling. */
  seen: Map<string, number>;
}

const stateIndexes = new WeakMap<Catalog, StateIndex>();
/** Distinct spellings remembered per catalog; past this, names are folded every time. */
const SEEN_LIMIT = 4096;

/** Index of the state that `name` names (catalog name or alias), or -1. */
export function findState(catalog: Catalog, name: string): number {
  let index = stateIndexes.get(catalog);
  if (!index) {
    const byFoldedName = new Map<string, number>();
    const names = catalog.stateNames();
    names.forEach((state, i) => byFoldedName.set(foldStateName(state), i));
    for (const [state, aliases] of Object.entries(STATE_ALIASES)) {
      const i = names.indexOf(state);
      if (i < 0) continue;
      for (const alias of aliases) if (!byFoldedName.has(foldStateName(alias))) byFoldedName.set(foldStateName(alias), i);
    }
    index = { byFoldedName, seen: new Map() };
    stateIndexes.set(catalog, index);
  }
  let state = index.seen.get(name);
  if (state === undefined) {
    state = index.byFoldedName.get(foldStateName(name)) ?? -1;
    if (index.seen.size < SEEN_LIMIT) index.seen.set(name, state);
  }
  return state;
}

function answerTestMode(request: CopomexRequest): Answer {
  const segment = request.segment!;
  switch (request.endpoint) {
    case 'info_cp':
      return {
        status: 200,
        body: request.type === undefined ? testMode.fullRecords(segment).map((record) => success(record)) : success(testMode.simplifiedRecord(segment)),
        billable: false,
      };
    case 'search_cp':
      return { status: 200, body: success({ cp: testMode.codesStartingWith(segment) }), billable: false };
    case 'get_estados':
      return { status: 200, body: success({ estado: testMode.stateNames() }), billable: false };
    case 'get_municipio_por_estado':
      return { status: 200, body: success({ municipios: testMode.municipalityNames() }), billable: false };
  }
}

/** True when the body is a success (an array in full mode, or an envelope without error). */
export function isSuccess(body: Body): boolean {
  return Array.isArray(body) || !body.error;
}
