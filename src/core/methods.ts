/**
 * The method table: every method of the contract is one row, under its COPOMEX name. A row
 * says what the method's path takes (its segment and query parameters), how they are checked
 * (the narrowed request or the error), how it is answered from the catalog and in test mode,
 * what it costs, and the typed client's name for it. The router, the path parser, the typed
 * clients, the command line, its help, the OpenAPI document and the MCP tools are made from
 * these rows; what they say in words is the row's text in method-texts.ts, apart so that the
 * browser module (cpmx/web) carries no help text.
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
  answerMunicipioClave,
  answerMunicipioClavePorClave,
  answerMunicipios,
  answerSearchCp,
  answerSearchCpAdvanced,
} from './answers/catalog.js';
import { answerInfoCp } from './answers/info-cp.js';
import { TEST_ANSWERS as test } from './answers/test-mode.js';
import type { CatalogReader } from './catalog-reader.js';
import { blank, checkCode, checkLimit, isStateKey } from './checks.js';
import { success, type Body, type ConsultasDisponiblesBody, type ErrorCode, type ErrorEnvelope } from './contract.js';
import { answerGeocoding, answerGeocodingReverse, checkCoordinates, testGeocoding, testGeocodingReverse, type CodeGeo } from './geo/answers.js';
import type { GeoIndex } from './geo/geo-index.js';
import type {
  ColoniaPorCpRequest,
  GeocodingRequest,
  GeocodingReverseRequest,
  InfoCpRequest,
  MunicipalityRequest,
  PlainRequest,
  SearchCpAdvancedRequest,
  SearchCpRequest,
  StateKeyRequest,
  StateRequest,
} from './checked-requests.js';

/** What a method's path segment holds, named as the contract names it. */
export type SegmentKind = 'cp' | 'partial' | 'estado' | 'municipio' | 'clave';
/** The query parameters the contract reads (besides `token`), in the order they are checked. */
export type Parameter = 'estado' | 'municipio' | 'colonia' | 'limit' | 'type' | 'lat' | 'lng';

/** A request's query parameters by name: those its method's row takes, each undefined when absent. */
export type ParameterValues = Readonly<Partial<Record<Parameter, string>>>;

/**
 * A request as received, in one shape for every method (so that the router's property reads
 * stay monomorphic): its method, segment and token, and the query parameters its row takes.
 * Make them with `rawRequest` (the path parser, the typed clients, the command line and MCP
 * do). Absent parameters are undefined.
 */
export interface RawRequest {
  method: Method | UnavailableMethod;
  /** The decoded path segment after the method's name, when there is one. */
  segment: string | undefined;
  token: string | undefined;
  /** The parameters of the method's row, in its order, each present (undefined when absent). */
  parameters: ParameterValues;
}

/** What a request is made of, each part by its name; parameters its method's row does not take are left out. */
export interface RequestFields {
  method: Method | UnavailableMethod;
  segment?: string | undefined;
  token?: string | undefined;
  parameters?: Readonly<Record<string, string | undefined>> | undefined;
}

/** The parameters of a row that takes none (shared: nobody writes to a request's parameters). */
const NO_PARAMETERS: ParameterValues = Object.freeze({});

/**
 * The values of the parameters `names` (a row's), each read by `read`, in one object whose
 * members are in the row's order, so that every request of one method has one shape.
 */
export function parameterValues(names: readonly Parameter[], read: (name: Parameter, at: number) => string | undefined): ParameterValues {
  if (!names.length) return NO_PARAMETERS;
  const values: Partial<Record<Parameter, string>> = {};
  for (let at = 0; at < names.length; at++) values[names[at]!] = read(names[at]!, at);
  return values;
}

/** A RawRequest from its parts by name, the parameters those of the method's row in the table. */
export function rawRequest({ method, segment, token, parameters }: RequestFields): RawRequest {
  const names = ROWS.get(method)?.parameters;
  if (!names?.length) return { method, segment, token, parameters: NO_PARAMETERS };
  // parameterValues, written out: the typed lookups build every request here.
  const values: Partial<Record<Parameter, string>> = {};
  for (let at = 0; at < names.length; at++) values[names[at]!] = parameters?.[names[at]!];
  return { method, segment, token, parameters: values };
}

/**
 * A method's request from named values (the segment by its kind's name: `cp`, `estado`, ...,
 * and the parameters by theirs), as tools that take named arguments (MCP) have them; the
 * segment's value is the one that names it, even where a parameter has the same name.
 */
export function namedRequest(method: Method, values: Readonly<Partial<Record<SegmentKind | Parameter, string>>>, token: string | undefined): RawRequest {
  const { segment, parameters } = METHODS[method] as { segment?: SegmentKind; parameters: readonly Parameter[] };
  return { method, segment: segment ? values[segment] : undefined, token, parameters: parameterValues(parameters, (name) => (name === segment ? undefined : values[name])) };
}

export interface RouterContext {
  /** The catalog, loaded on first need (throws ArtifactError when it cannot be): test mode never calls it. */
  catalog: () => CatalogReader;
  /** The geodata beside the catalog, loaded on first need; a string says why there is none (113). Absent: none. */
  geo?: (() => GeoIndex | CodeGeo | string) | undefined;
}

/** One method of the contract. `Q` is the request its checks make, `B` the body of its success. */
export interface MethodRow<Q, B extends Body, C extends string | undefined = string | undefined> {
  /** The one path segment the method takes; none when absent. */
  readonly segment?: SegmentKind;
  /** The query parameters it reads, in the order they are checked. */
  readonly parameters: readonly Parameter[];
  /** Those of them it requires (the others are optional). */
  readonly required?: readonly Parameter[];
  /**
   * The typed clients' method (createClient, createWebClient): its arguments are the segment,
   * then the required parameters, then an options object of the optional ones. None for an
   * older name of a method the clients already have.
   */
  readonly client?: C;
  /** What a success costs: one credit, or (the account method) nothing, the token's count filled in by the credit step. */
  readonly credit: 'spend' | 'count';
  /** The contract's parameter checks (101, 102, 104, 109, 112, 114, 116, 117) in its order: the narrowed request, or the error. */
  readonly check: (raw: RawRequest, token: string) => Q | ErrorCode;
  /** The answer with a real token: the body, or a lookup error (105, 110, 115). */
  readonly answer: (request: Q, context: RouterContext) => B | ErrorCode | ErrorEnvelope;
  /** The answer in test mode (token `pruebas`): fictitious data in the same shape, no catalog. */
  readonly testMode: (request: Q) => B;
}

/** A row, its request and body types inferred from its check and answers (so they must agree). */
const row = <Q, B extends Body, const C extends string | undefined = undefined>(spec: MethodRow<Q, B, C>): MethodRow<Q, B, C> => ({
  // Every row in one shape (absent fields undefined, the same order), so that the router's reads of a row stay monomorphic.
  segment: spec.segment,
  parameters: spec.parameters,
  required: spec.required,
  client: spec.client,
  credit: spec.credit,
  check: spec.check,
  answer: spec.answer,
  testMode: spec.testMode,
});

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
    const estado = raw.parameters.estado || undefined;
    if (estado !== undefined && blank(estado)) return 109;
    return { method, token, municipio: raw.segment!, estado };
  };

function checkSearchCpAdvanced(raw: RawRequest, token: string): SearchCpAdvancedRequest | ErrorCode {
  if (blank(raw.segment)) return 109;
  const municipio = raw.parameters.municipio || undefined;
  if (municipio !== undefined && blank(municipio)) return 114;
  const limit = checkLimit(raw.parameters.limit);
  if (limit === 117) return 117;
  return { method: 'search_cp_advanced', token, estado: raw.segment!, municipio, colonia: raw.parameters.colonia || undefined, limit };
}

/** A code (101, 102, 104), then `type`: absent or `simplified` (112). */
const checkCodeAndType = (raw: RawRequest): ErrorCode | undefined => checkCode(raw.segment, 5) ?? (raw.parameters.type && raw.parameters.type !== 'simplified' ? 112 : undefined);

const plain =
  <M extends PlainRequest['method']>(method: M) =>
  (_raw: RawRequest, token: string): PlainRequest => ({ method, token });

const SEARCH_CP_ADVANCED = row({
  segment: 'estado',
  parameters: ['municipio', 'colonia', 'limit'],
  client: 'searchCpAdvanced',
  credit: 'spend',
  check: checkSearchCpAdvanced,
  answer: (request, { catalog }) => answerSearchCpAdvanced(catalog(), request),
  testMode: (request) => test.codes(request.limit),
});

/** Every method of the contract answered here, by its COPOMEX name, in the contract's order. */
export const METHODS = {
  info_cp: row({
    segment: 'cp',
    parameters: ['type'],
    client: 'infoCp',
    credit: 'spend',
    check: (raw, token): InfoCpRequest | ErrorCode => checkCodeAndType(raw) ?? { method: 'info_cp', token, cp: raw.segment!, simplified: !!raw.parameters.type },
    answer: (request, { catalog }) => answerInfoCp(catalog(), request.cp, request.simplified),
    testMode: (request) => test.infoCp(request.cp, request.simplified),
  }),
  search_cp: row({
    segment: 'partial',
    parameters: [],
    client: 'searchCp',
    credit: 'spend',
    check: (raw, token): SearchCpRequest | ErrorCode => checkCode(raw.segment, 1) ?? { method: 'search_cp', token, partial: raw.segment! },
    answer: (request, { catalog }) => answerSearchCp(catalog(), request.partial),
    testMode: (request) => test.codesStartingWith(request.partial),
  }),
  get_estados: row({
    parameters: [],
    client: 'getEstados',
    credit: 'spend',
    check: plain('get_estados'),
    answer: (_request, { catalog }) => answerEstados(catalog()),
    testMode: test.states,
  }),
  get_municipio_por_estado: row({
    segment: 'estado',
    parameters: [],
    client: 'getMunicipioPorEstado',
    credit: 'spend',
    check: stateCheck('get_municipio_por_estado'),
    answer: (request, { catalog }) => answerMunicipios(catalog(), request.estado),
    testMode: test.municipalities,
  }),
  get_colonia_por_cp: row({
    segment: 'cp',
    parameters: [],
    client: 'getColoniaPorCp',
    credit: 'spend',
    check: (raw, token): ColoniaPorCpRequest | ErrorCode => checkCode(raw.segment, 5) ?? { method: 'get_colonia_por_cp', token, cp: raw.segment! },
    answer: (request, { catalog }) => answerColoniaPorCp(catalog(), request.cp),
    testMode: test.settlements,
  }),
  get_cp_por_estado: row({
    segment: 'estado',
    parameters: [],
    client: 'getCpPorEstado',
    credit: 'spend',
    check: stateCheck('get_cp_por_estado'),
    answer: (request, { catalog }) => answerCpPorEstado(catalog(), request.estado),
    testMode: () => test.codes(),
  }),
  get_cp_por_municipio: row({
    segment: 'municipio',
    parameters: ['estado'],
    client: 'getCpPorMunicipio',
    credit: 'spend',
    check: municipalityCheck('get_cp_por_municipio'),
    answer: (request, { catalog }) => answerCpPorMunicipio(catalog(), request),
    testMode: () => test.codes(),
  }),
  get_colonia_por_municipio: row({
    segment: 'municipio',
    parameters: ['estado'],
    client: 'getColoniaPorMunicipio',
    credit: 'spend',
    check: municipalityCheck('get_colonia_por_municipio'),
    answer: (request, { catalog }) => answerColoniaPorMunicipio(catalog(), request),
    testMode: test.settlements,
  }),
  get_colonia_por_estado_municipio: row({
    parameters: ['estado', 'municipio'],
    required: ['estado', 'municipio'],
    client: 'getColoniaPorEstadoMunicipio',
    credit: 'spend',
    // get_colonia_por_municipio with `estado` required: the same request once checked.
    check(raw, token): MunicipalityRequest | ErrorCode {
      const { estado, municipio } = raw.parameters;
      if (blank(estado)) return 109;
      if (blank(municipio)) return 114;
      return { method: 'get_colonia_por_municipio', token, municipio: municipio!, estado: estado! };
    },
    answer: (request, { catalog }) => answerColoniaPorMunicipio(catalog(), request),
    testMode: test.settlements,
  }),
  search_cp_advanced: SEARCH_CP_ADVANCED,
  // The older name of search_cp_advanced: the same row, without a client method of its own.
  get_cp_advanced: row({ ...SEARCH_CP_ADVANCED, client: undefined }),
  get_estado_clave: row({
    parameters: [],
    client: 'getEstadoClave',
    credit: 'spend',
    check: plain('get_estado_clave'),
    answer: (_request, { catalog }) => answerEstadoClave(catalog()),
    testMode: test.stateKeys,
  }),
  get_municipio_clave_por_estado: row({
    segment: 'estado',
    parameters: [],
    client: 'getMunicipioClavePorEstado',
    credit: 'spend',
    check: stateCheck('get_municipio_clave_por_estado'),
    answer: (request, { catalog }) => answerMunicipioClave(catalog(), request.estado),
    testMode: test.municipalityKeys,
  }),
  get_municipio_clave_por_clave_estado: row({
    segment: 'clave',
    parameters: [],
    client: 'getMunicipioClavePorClaveEstado',
    credit: 'spend',
    check: stateKeyCheck('get_municipio_clave_por_clave_estado'),
    answer: (request, { catalog }) => answerMunicipioClavePorClave(catalog(), request.clave),
    testMode: test.municipalityKeys,
  }),
  getCitiesByStateCode: row({
    segment: 'clave',
    parameters: [],
    client: 'getCitiesByStateCode',
    credit: 'spend',
    check: stateKeyCheck('getCitiesByStateCode'),
    answer: (request, { catalog }) => answerCitiesByStateCode(catalog(), request.clave),
    testMode: test.cities,
  }),
  info_cp_geocoding: row({
    segment: 'cp',
    parameters: ['type'],
    client: 'infoCpGeocoding',
    credit: 'spend',
    check: (raw, token): GeocodingRequest | ErrorCode => checkCodeAndType(raw) ?? { method: 'info_cp_geocoding', token, cp: raw.segment! },
    answer: (request, context) => answerGeocoding(context, request.cp),
    testMode: (request) => testGeocoding(request.cp),
  }),
  info_cp_geocoding_reverse: row({
    parameters: ['lat', 'lng'],
    required: ['lat', 'lng'],
    client: 'infoCpGeocodingReverse',
    credit: 'spend',
    check: (raw, token): GeocodingReverseRequest | ErrorCode => checkCoordinates(raw.parameters.lat, raw.parameters.lng, token),
    answer: (request, context) => answerGeocodingReverse(context, request.lat, request.lng),
    testMode: (request) => testGeocodingReverse(request.lat, request.lng),
  }),
  'cuenta/consultas_disponibles': row({
    parameters: [],
    client: 'consultasDisponibles',
    // Reads no catalog: the credit step fills in the token's count.
    credit: 'count',
    check: plain('cuenta/consultas_disponibles'),
    answer: (): ConsultasDisponiblesBody => success({ consultas_disponibles: null }),
    testMode: test.credits,
  }),
} as const satisfies Record<string, AnyRow>;

export type Method = keyof typeof METHODS;
type Rows = typeof METHODS;

/** The body a method answers: its success, or an error envelope. */
export type BodyOf<M extends Method> = (Rows[M] extends MethodRow<infer _Q, infer B, infer _C> ? B : never) | ErrorEnvelope;
/** The typed client's method name of each method that has one. */
export type ClientName = Exclude<{ [M in Method]: Rows[M]['client'] }[Method], undefined>;

/** COPOMEX methods whose data (INEGI localities, streets) the postal catalog does not hold: 113. */
export const UNAVAILABLE_METHODS = [
  'get_localidad_por_estado_municipio',
  'get_localidad_por_clave_estado_municipio',
  'info_localidad',
  'get_vialidad',
  'get_tipo_vialidad',
] as const;
export type UnavailableMethod = (typeof UNAVAILABLE_METHODS)[number];

/** The row of a method (any row: the router calls it with the request its own check made). */
// biome-ignore lint/suspicious/noExplicitAny: rows differ in their request; each is called with what its own check made
export type AnyRow = MethodRow<any, Body>;

/** The rows by name, made once: the path parser and the router look a method up here. */
export const ROWS: ReadonlyMap<string, AnyRow> = new Map(Object.entries(METHODS));
