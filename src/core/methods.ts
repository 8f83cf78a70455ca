/**
 * The method table: every method of the contract is one row, under its COPOMEX name. A row
 * says what the method's path takes (its segment and query parameters), how they are checked
 * (the narrowed request or the error), how it is answered from the catalog and in test mode,
 * what it costs, and the typed client's name for it. The router, the path parser, the typed
 * clients, the command line, its help, the OpenAPI document and the MCP tools are made from
 * these rows. A row's first columns (its path, cost and client name) are its shape in
 * method-shapes.ts, joined here to its checks and answers; what it says in words is its text in
 * method-texts.ts. Both are apart so that what only the help, OpenAPI and MCP read loads on its
 * own, lazily, and the browser module (cpmx/web) carries no help text.
 *
 * A row missing its check or one of its answers does not compile; nor does a row whose
 * answers take another request than its check makes.
 */
import {
  answerCitiesByStateCode,
  answerColoniaPorCp,
  answerColoniaPorMunicipio,
  answerCpPorEstado,
  answerCpPorMunicipio,
  answerEstadoClave,
  answerEstados,
  answerInfoCp,
  answerMunicipioClave,
  answerMunicipioClavePorClave,
  answerMunicipios,
  answerSearchCp,
  answerSearchCpAdvanced,
} from './answers/catalog.js';
import { TEST_ANSWERS as test } from './answers/test-mode.js';
import type { Catalog } from './catalog.js';
import { blank, checkCode, checkLimit, isStateKey } from './checks.js';
import { success, type Body, type ConsultasDisponiblesBody, type CpListBody, type ErrorCode, type ErrorEnvelope } from './contract.js';
import { METHOD_SHAPES, type Method, type MethodShape, type Parameter, type SegmentKind, type UnavailableMethod } from './method-shapes.js';
import type {
  ColoniaPorCpRequest,
  InfoCpRequest,
  MunicipalityRequest,
  PlainRequest,
  SearchCpAdvancedRequest,
  SearchCpRequest,
  StateKeyRequest,
  StateRequest,
} from './checked-requests.js';

export { UNAVAILABLE_METHODS, type Method, type Parameter, type SegmentKind, type UnavailableMethod } from './method-shapes.js';

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

/**
 * A method's request from named values (the segment by its kind's name: `cp`, `estado`, ...,
 * and the parameters by theirs), as tools that take named arguments (MCP) have them; the
 * segment's value is the one that names it, even where a parameter has the same name.
 */
export function namedRequest(method: Method, values: Readonly<Partial<Record<SegmentKind | Parameter, string>>>, token: string | undefined): RawRequest {
  const { segment, parameters } = METHODS[method] as { segment?: SegmentKind; parameters: readonly Parameter[] };
  const parameter = (name: Parameter) => (parameters.includes(name) && name !== segment ? values[name] : undefined);
  return rawRequest(method, segment ? values[segment] : undefined, token, parameter('type'), parameter('estado'), parameter('municipio'), parameter('colonia'), parameter('limit'));
}

export interface RouterContext {
  /** The catalog, loaded on first need (throws ArtifactError when it cannot be): test mode never calls it. */
  catalog: () => Catalog;
}

/** A method's typed client name, from its shape (undefined for an older name). */
type ClientOf<M extends Method> = (typeof METHOD_SHAPES)[M] extends { readonly client: infer C extends string } ? C : undefined;

/** How a method is checked and answered: the columns of its row that its shape (method-shapes.ts) has not. */
interface MethodAnswers<Q, B extends Body> {
  /** The contract's parameter checks (101, 102, 104, 109, 112, 114, 116, 117) in its order: the narrowed request, or the error. */
  readonly check: (raw: RawRequest, token: string) => Q | ErrorCode;
  /** The answer with a real token: the body, or a lookup error (105, 110, 115). */
  readonly answer: (request: Q, context: RouterContext) => B | ErrorCode;
  /** The answer in test mode (token `pruebas`): fictitious data in the same shape, no catalog. */
  readonly testMode: (request: Q) => B;
}

/** One method of the contract: its shape and its answers. `Q` is the request its checks make, `B` the body of its success. */
export interface MethodRow<Q, B extends Body, C extends string | undefined = string | undefined> extends Omit<MethodShape, 'client'>, MethodAnswers<Q, B> {
  readonly client?: C;
}

/** A method's row: its shape joined to its answers, their request and body types inferred from its check and answers (so they must agree). */
const row = <const M extends Method, Q, B extends Body>(method: M, answers: MethodAnswers<Q, B>): MethodRow<Q, B, ClientOf<M>> => {
  const shape: MethodShape = METHOD_SHAPES[method];
  // Every row in one shape (absent fields undefined, the same order), so that the router's reads of a row stay monomorphic.
  return {
    segment: shape.segment,
    parameters: shape.parameters,
    required: shape.required,
    client: shape.client as ClientOf<M>,
    credit: shape.credit,
    check: answers.check,
    answer: answers.answer,
    testMode: answers.testMode,
  };
};

/** The checks of a method of one state named by `estado` in the segment. */
const stateCheck =
  <M extends StateRequest['method']>(method: M) =>
  (raw: RawRequest, token: string): StateRequest | ErrorCode =>
    blank(raw.segment) ? 109 : { method, token, estado: raw.segment! };

/** The checks of a method of one state named by its key in the segment. */
const stateKeyCheck =
  <M extends StateKeyRequest['method']>(method: M) =>
  (raw: RawRequest, token: string): StateKeyRequest | ErrorCode => {
    if (blank(raw.segment)) return 109;
    return isStateKey(raw.segment!) ? { method, token, clave: raw.segment! } : 116;
  };

/** The checks of a method of the municipalities of a name (the segment), in `estado` when given. */
const municipalityCheck =
  <M extends MunicipalityRequest['method']>(method: M) =>
  (raw: RawRequest, token: string): MunicipalityRequest | ErrorCode => {
    if (blank(raw.segment)) return 114;
    const estado = raw.estado || undefined;
    if (estado !== undefined && blank(estado)) return 109;
    return { method, token, municipio: raw.segment!, estado };
  };

function checkSearchCpAdvanced(raw: RawRequest, token: string): SearchCpAdvancedRequest | ErrorCode {
  if (blank(raw.segment)) return 109;
  const municipio = raw.municipio || undefined;
  if (municipio !== undefined && blank(municipio)) return 114;
  const limit = checkLimit(raw.limit);
  if (limit === 117) return 117;
  return { method: 'search_cp_advanced', token, estado: raw.segment!, municipio, colonia: raw.colonia || undefined, limit };
}

const plain =
  <M extends PlainRequest['method']>(method: M) =>
  (_raw: RawRequest, token: string): PlainRequest => ({ method, token });

/** search_cp_advanced's answers, also those of its older name get_cp_advanced. */
const SEARCH_CP_ADVANCED: MethodAnswers<SearchCpAdvancedRequest, CpListBody> = {
  check: checkSearchCpAdvanced,
  answer: (request, { catalog }) => answerSearchCpAdvanced(catalog(), request),
  testMode: (request) => test.codes(request.limit),
};

/** Every method of the contract answered here, by its COPOMEX name, in the contract's order. */
export const METHODS = {
  info_cp: row('info_cp', {
    check(raw, token): InfoCpRequest | ErrorCode {
      const error = checkCode(raw.segment, 5);
      if (error) return error;
      const type = raw.type || undefined;
      if (type !== undefined && type !== 'simplified') return 112;
      return { method: 'info_cp', token, cp: raw.segment!, simplified: type !== undefined };
    },
    answer: (request, { catalog }) => answerInfoCp(catalog(), request.cp, request.simplified),
    testMode: (request) => test.infoCp(request.cp, request.simplified),
  }),
  search_cp: row('search_cp', {
    check: (raw, token): SearchCpRequest | ErrorCode => checkCode(raw.segment, 1) ?? { method: 'search_cp', token, partial: raw.segment! },
    answer: (request, { catalog }) => answerSearchCp(catalog(), request.partial),
    testMode: (request) => test.codesStartingWith(request.partial),
  }),
  get_estados: row('get_estados', {
    check: plain('get_estados'),
    answer: (_request, { catalog }) => answerEstados(catalog()),
    testMode: test.states,
  }),
  get_municipio_por_estado: row('get_municipio_por_estado', {
    check: stateCheck('get_municipio_por_estado'),
    answer: (request, { catalog }) => answerMunicipios(catalog(), request.estado),
    testMode: test.municipalities,
  }),
  get_colonia_por_cp: row('get_colonia_por_cp', {
    check: (raw, token): ColoniaPorCpRequest | ErrorCode => checkCode(raw.segment, 5) ?? { method: 'get_colonia_por_cp', token, cp: raw.segment! },
    answer: (request, { catalog }) => answerColoniaPorCp(catalog(), request.cp),
    testMode: test.settlements,
  }),
  get_cp_por_estado: row('get_cp_por_estado', {
    check: stateCheck('get_cp_por_estado'),
    answer: (request, { catalog }) => answerCpPorEstado(catalog(), request.estado),
    testMode: () => test.codes(),
  }),
  get_cp_por_municipio: row('get_cp_por_municipio', {
    check: municipalityCheck('get_cp_por_municipio'),
    answer: (request, { catalog }) => answerCpPorMunicipio(catalog(), request),
    testMode: () => test.codes(),
  }),
  get_colonia_por_municipio: row('get_colonia_por_municipio', {
    check: municipalityCheck('get_colonia_por_municipio'),
    answer: (request, { catalog }) => answerColoniaPorMunicipio(catalog(), request),
    testMode: test.settlements,
  }),
  get_colonia_por_estado_municipio: row('get_colonia_por_estado_municipio', {
    // get_colonia_por_municipio with `estado` required: the same request once checked.
    check(raw, token): MunicipalityRequest | ErrorCode {
      if (blank(raw.estado)) return 109;
      if (blank(raw.municipio)) return 114;
      return { method: 'get_colonia_por_municipio', token, municipio: raw.municipio!, estado: raw.estado! };
    },
    answer: (request, { catalog }) => answerColoniaPorMunicipio(catalog(), request),
    testMode: test.settlements,
  }),
  search_cp_advanced: row('search_cp_advanced', SEARCH_CP_ADVANCED),
  // The older name of search_cp_advanced: the same answers, without a client method of its own (its shape has none).
  get_cp_advanced: row('get_cp_advanced', SEARCH_CP_ADVANCED),
  get_estado_clave: row('get_estado_clave', {
    check: plain('get_estado_clave'),
    answer: (_request, { catalog }) => answerEstadoClave(catalog()),
    testMode: test.stateKeys,
  }),
  get_municipio_clave_por_estado: row('get_municipio_clave_por_estado', {
    check: stateCheck('get_municipio_clave_por_estado'),
    answer: (request, { catalog }) => answerMunicipioClave(catalog(), request.estado),
    testMode: test.municipalityKeys,
  }),
  get_municipio_clave_por_clave_estado: row('get_municipio_clave_por_clave_estado', {
    check: stateKeyCheck('get_municipio_clave_por_clave_estado'),
    answer: (request, { catalog }) => answerMunicipioClavePorClave(catalog(), request.clave),
    testMode: test.municipalityKeys,
  }),
  getCitiesByStateCode: row('getCitiesByStateCode', {
    check: stateKeyCheck('getCitiesByStateCode'),
    answer: (request, { catalog }) => answerCitiesByStateCode(catalog(), request.clave),
    testMode: test.cities,
  }),
  'cuenta/consultas_disponibles': row('cuenta/consultas_disponibles', {
    check: plain('cuenta/consultas_disponibles'),
    answer: (): ConsultasDisponiblesBody => success({ consultas_disponibles: null }),
    testMode: test.credits,
  }),
} as const satisfies Record<Method, AnyRow>;

type Rows = typeof METHODS;

/** The body a method answers: its success, or an error envelope. */
export type BodyOf<M extends Method> = (Rows[M] extends MethodRow<infer _Q, infer B, infer _C> ? B : never) | ErrorEnvelope;
/** The typed client's method name of each method that has one. */
export type ClientName = Exclude<{ [M in Method]: Rows[M]['client'] }[Method], undefined>;

/** The row of a method (any row: the router calls it with the request its own check made). */
// biome-ignore lint/suspicious/noExplicitAny: rows differ in their request; each is called with what its own check made
export type AnyRow = MethodRow<any, Body>;

/** The rows by name, made once: the path parser and the router look a method up here. */
export const ROWS: ReadonlyMap<string, AnyRow> = new Map(Object.entries(METHODS));
