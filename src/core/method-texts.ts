/**
 * What each row of the method table (methods.ts) says in words and schemas: the summary and
 * description that the command line's help, the OpenAPI document and the MCP tools all show,
 * an example request, and the JSON Schema of the success's `response`. A row of its own per
 * method, keyed by the table's names, so that a method added to the table without its texts
 * does not compile; apart from the table so that the browser module carries none of it.
 */
import { MAX_LIMIT } from './checks.js';
import type { ErrorCode } from './contract.js';
import { groupDigits } from './format.js';
import { METHODS, type Method, type Parameter, type SegmentKind } from './methods.js';

/** A JSON Schema (draft 2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = { readonly [keyword: string]: unknown };

/**
 * How a text names a parameter given a value: the command line writes `--type simplified`,
 * the HTTP API and MCP `type=simplified`. Without a value, the parameter alone.
 */
export type ParameterName = (parameter: Parameter, value?: string) => string;

export interface MethodTexts {
  /** One line, lower case, no final period: the overview, OpenAPI's `summary`, MCP's title. */
  readonly summary: string;
  /** A paragraph or two; parameters named through `name`. */
  readonly description: (name: ParameterName) => string;
  /** A request that answers with data on the real catalog (and in test mode): the segment and parameters. */
  readonly example: Readonly<Partial<Record<SegmentKind | Parameter, string>>>;
  /** The JSON Schema of the success's `response` (info_cp's is its own: see `INFO_CP_SCHEMAS`). */
  readonly response: JsonSchema;
  /** Errors of its answer beyond those of its segment and parameters (the geodata's). */
  readonly errors?: readonly ErrorCode[];
}

const STATE_NAMES = (name: ParameterName) => `The state (${name('estado')}) is matched ignoring case, accents and surrounding spaces; CDMX,
Distrito Federal, Estado de México, Edomex, Coahuila, Michoacán and Veracruz are accepted too.`;

const MUNICIPALITY_NAMES = (name: ParameterName) => `The municipality is matched ignoring case, accents and surrounding spaces. A name that several
states share (Benito Juárez is in seven) answers for all of them, unless ${name('estado')} names one.`;

const STATE_KEY = 'The state is given by its key, 1 or 2 digits (9 and 09 are the same).';

const strings = { type: 'array', items: { type: 'string' } } as const;
const codes = { type: 'array', items: { type: 'string', pattern: '^[0-9]{5}$' }, description: 'Postal codes, ascending.' } as const;
const named = (key: string, schema: JsonSchema): JsonSchema => ({ type: 'object', properties: { [key]: schema }, required: [key], additionalProperties: false });
const keyMap = (digits: number, description: string): JsonSchema => ({ type: 'object', additionalProperties: { type: 'string', pattern: `^[0-9]{${digits}}$` }, description });

/** Shared by the full and simplified records: every field a string but `asentamiento`. */
const PLACE_FIELDS = {
  cp: { type: 'string', pattern: '^[0-9]{5}$' },
  tipo_asentamiento: { type: 'string' },
  municipio: { type: 'string' },
  estado: { type: 'string' },
  ciudad: { type: 'string', description: 'Empty where SEPOMEX names no city.' },
  pais: { type: 'string', const: 'México' },
} as const;
const RECORD_KEYS = ['cp', 'asentamiento', 'tipo_asentamiento', 'municipio', 'estado', 'ciudad', 'pais'];

/** `info_cp`'s records: one settlement (full mode) and the whole code (simplified). */
export const INFO_CP_SCHEMAS = {
  full: { type: 'object', properties: { ...PLACE_FIELDS, asentamiento: { type: 'string' } }, required: RECORD_KEYS, additionalProperties: false },
  simplified: {
    type: 'object',
    properties: { ...PLACE_FIELDS, asentamiento: { ...strings, description: 'Every settlement name, in catalog order.' }, tipo_asentamiento: { type: 'string', description: 'The first settlement’s type.' } },
    required: RECORD_KEYS,
    additionalProperties: false,
  },
} as const satisfies Record<string, JsonSchema>;

/** What each query parameter and segment is, for option and parameter lists. */
export const PARAMETER_TEXTS: Readonly<Record<Parameter, { readonly value: string; readonly help: string }>> = {
  estado: { value: 'E', help: 'the state (name or alias)' },
  municipio: { value: 'M', help: 'the municipality' },
  colonia: { value: 'C', help: 'only codes with a settlement whose name contains C' },
  limit: { value: 'N', help: `at most N codes (1 to ${groupDigits(MAX_LIMIT)}; others answer error 117)` },
  type: { value: 'simplified', help: 'the simplified answer (any other value answers error 112)' },
  lat: { value: 'LAT', help: 'latitude in decimal degrees, -90 to 90 (WGS 84)' },
  lng: { value: 'LNG', help: 'longitude in decimal degrees, -180 to 180 (WGS 84; Mexico is west: negative)' },
};

export const SEGMENT_TEXTS: Readonly<Record<SegmentKind, string>> = {
  cp: 'a postal code, 5 digits',
  partial: 'the first 1 to 5 digits of a postal code',
  estado: 'the state (name or alias)',
  municipio: 'the municipality',
  clave: 'the state’s key, 1 or 2 digits',
};

/** Every method's texts. */
export const METHOD_TEXTS: { readonly [M in Method]: MethodTexts } = {
  info_cp: {
    summary: 'the settlements of a postal code',
    description: (name) => `The settlements of a 5-digit postal code. Without ${name('type')}, an array with one envelope per
settlement in catalog order; with ${name('type', 'simplified')}, one envelope listing every name.`,
    example: { cp: '09810' },
    // Its two shapes are INFO_CP_SCHEMAS'; this is the simplified one.
    response: INFO_CP_SCHEMAS.simplified,
  },
  search_cp: {
    summary: 'the codes that start with 1 to 5 digits',
    description: () => 'Every postal code that starts with the given 1 to 5 digits, ascending.',
    example: { partial: '0981' },
    response: named('cp', codes),
  },
  get_estados: {
    summary: 'the 32 states',
    description: () => 'The 32 states as the catalog names them, ordered by their key (c_estado).',
    example: {},
    response: named('estado', strings),
  },
  get_municipio_por_estado: {
    summary: 'the municipalities of a state (aliases: CDMX, Edomex, ...)',
    description: (name) => `The municipalities of a state, ordered by their key (c_mnpio).
${STATE_NAMES(name)}`,
    example: { estado: 'Ciudad de México' },
    response: named('municipios', strings),
  },
  get_colonia_por_cp: {
    summary: 'the settlement names of a postal code',
    description: (name) => `The settlement names of a 5-digit postal code, in catalog order, as info_cp with ${name('type', 'simplified')} lists them.`,
    example: { cp: '09810' },
    response: named('colonia', strings),
  },
  get_cp_por_estado: {
    summary: 'the postal codes of a state',
    description: (name) => `Every postal code of a state, ascending.
${STATE_NAMES(name)}`,
    example: { estado: 'Ciudad de México' },
    response: named('cp', codes),
  },
  get_cp_por_municipio: {
    summary: 'the postal codes of a municipality',
    description: (name) => `Every postal code of a municipality, ascending.
${MUNICIPALITY_NAMES(name)}`,
    example: { municipio: 'Iztapalapa', estado: 'CDMX' },
    response: named('cp', codes),
  },
  get_colonia_por_municipio: {
    summary: 'the settlement names of a municipality',
    description: (name) => `The settlement names of a municipality, each once, in catalog order.
${MUNICIPALITY_NAMES(name)}`,
    example: { municipio: 'Iztapalapa', estado: 'CDMX' },
    response: named('colonia', strings),
  },
  get_colonia_por_estado_municipio: {
    summary: 'the settlement names of a municipality of a state',
    description: (name) => `The settlement names of the municipality ${name('municipio')} of the state ${name('estado')}, each once, in
catalog order (get_colonia_por_municipio with ${name('estado')}; both are required: without one the
answer is error 109 or 114).`,
    example: { estado: 'CDMX', municipio: 'Iztapalapa' },
    response: named('colonia', strings),
  },
  search_cp_advanced: {
    summary: 'the codes of a state, narrowed by municipality, settlement and count',
    description: (name) => `The postal codes of a state, ascending, narrowed to those of ${name('municipio')}, to those with a
settlement whose name contains ${name('colonia')} (ignoring case, accents and repeated spaces), and
to the first ${name('limit')}.
${STATE_NAMES(name)}`,
    example: { estado: 'CDMX', municipio: 'Iztapalapa', colonia: 'Granjas', limit: '3' },
    response: named('cp', codes),
  },
  get_cp_advanced: {
    summary: 'the same as search_cp_advanced (its older name)',
    description: () => 'search_cp_advanced under its older COPOMEX name: the same arguments, the same answers.',
    example: { estado: 'CDMX', municipio: 'Iztapalapa', colonia: 'Granjas', limit: '3' },
    response: named('cp', codes),
  },
  get_estado_clave: {
    summary: 'the 32 states with their keys',
    description: () => 'Every state name to its two-digit key (c_estado), in key order.',
    example: {},
    response: named('estado_clave', keyMap(2, 'State names to their keys, in key order.')),
  },
  get_municipio_clave_por_estado: {
    summary: 'the municipalities of a state with their keys',
    description: (name) => `A state's municipality names to their three-digit keys (c_mnpio), in key order.
${STATE_NAMES(name)}`,
    example: { estado: 'Ciudad de México' },
    response: named('municipio_clave', keyMap(3, 'Municipality names to their keys, in key order.')),
  },
  get_municipio_clave_por_clave_estado: {
    summary: 'the same, the state given by its key',
    description: () => `A state's municipality names to their three-digit keys (c_mnpio), in key order.
${STATE_KEY}`,
    example: { clave: '09' },
    response: named('municipio_clave', keyMap(3, 'Municipality names to their keys, in key order.')),
  },
  getCitiesByStateCode: {
    summary: 'the cities of a state, the state given by its key',
    description: () => `A state's city names (d_ciudad), each once, ordered by their key (c_cve_ciudad).
${STATE_KEY}`,
    example: { clave: '15' },
    response: named('ciudad', strings),
  },
  info_cp_geocoding: {
    summary: 'the point of a postal code (geodata: cpmx build --geo)',
    description: () => `A point inside the area of a 5-digit postal code, with its settlements, municipality and state,
and the area's centroid, box and size: at the code's level (precision "cp"; calle and numero
answer null). Needs the geodata beside the artifact (cpmx build --geo), else 113; 140 for a code
without area.`,
    example: { cp: '09810' },
    response: {
      type: 'object',
      properties: {
        ...INFO_CP_SCHEMAS.simplified.properties,
        calle: { type: 'null' },
        numero: { type: 'null' },
        geocoding: {
          type: 'array',
          items: { type: 'object', properties: { lat: { type: 'number' }, lng: { type: 'number' }, label: { type: 'string' }, precision: { const: 'cp' } }, required: ['lat', 'lng', 'label', 'precision'] },
        },
        area: { type: 'object', properties: { centroide: { type: 'object' }, bbox: { type: 'array' }, m2: { type: 'number' } }, required: ['centroide', 'bbox', 'm2'] },
      },
      required: [...RECORD_KEYS, 'calle', 'numero', 'geocoding', 'area'],
      additionalProperties: false,
    },
    errors: [113, 140],
  },
  info_cp_geocoding_reverse: {
    summary: 'the postal code of a point (geodata: cpmx build --geo)',
    description: (name) => `The postal code whose area holds ${name('lat')}, ${name('lng')} (decimal degrees), with its place as
simplified info_cp gives it; else why not: sea 141, abroad 142, a state not loaded 143, between
areas 122. Needs the geodata beside the artifact (cpmx build --geo), else 113.`,
    example: { lat: '19.35336', lng: '-99.11388' },
    response: {
      type: 'object',
      properties: { ...INFO_CP_SCHEMAS.simplified.properties, lat: { type: 'number' }, lng: { type: 'number' } },
      required: [...RECORD_KEYS, 'lat', 'lng'],
      additionalProperties: false,
    },
    errors: [113, 141, 142, 143, 144],
  },
  'cuenta/consultas_disponibles': {
    summary: "the token's credits left (null: nothing counts them)",
    description: () => `The credits left to the token; null where nothing counts them (no token registry, or test
mode). Costs no credit and reads no catalog.`,
    example: {},
    response: named('consultas_disponibles', { type: ['integer', 'null'], minimum: 0 }),
  },
};

/** A method's example as a request target (`/query/info_cp/09810`), without a token: `?` or `&` follows for one. */
export function exampleTarget(method: Method): string {
  const { segment, parameters } = METHODS[method] as { segment?: SegmentKind; parameters: readonly Parameter[] };
  const { example } = METHOD_TEXTS[method];
  let target = `/query/${method}`;
  if (segment) target += `/${encodeURIComponent(example[segment] ?? '')}`;
  const query = parameters.filter((parameter) => example[parameter] !== undefined).map((parameter) => `${parameter}=${encodeURIComponent(example[parameter]!)}`);
  return query.length ? `${target}?${query.join('&')}` : target;
}

/** A segment's or parameter's JSON Schema: what it is, and the shape the contract checks (a value of another shape gets its error). */
const VALUE_SCHEMAS: Readonly<Record<SegmentKind | Parameter, JsonSchema>> = {
  cp: { type: 'string', description: SEGMENT_TEXTS.cp, pattern: '^[0-9]{5}$' },
  partial: { type: 'string', description: SEGMENT_TEXTS.partial, pattern: '^[0-9]{1,5}$' },
  clave: { type: 'string', description: SEGMENT_TEXTS.clave, pattern: '^[0-9]{1,2}$' },
  estado: { type: 'string', description: PARAMETER_TEXTS.estado.help, minLength: 1 },
  municipio: { type: 'string', description: PARAMETER_TEXTS.municipio.help, minLength: 1 },
  colonia: { type: 'string', description: 'only codes with a settlement whose name contains this' },
  limit: { type: 'integer', description: `at most this many codes`, minimum: 1, maximum: MAX_LIMIT },
  type: { type: 'string', description: 'the simplified answer: one envelope listing every name', enum: ['simplified'] },
  lat: { type: 'number', description: PARAMETER_TEXTS.lat.help, minimum: -90, maximum: 90 },
  lng: { type: 'number', description: PARAMETER_TEXTS.lng.help, minimum: -180, maximum: 180 },
};

/** The JSON Schema of one value: the segment of a method, or a query parameter. */
export function valueSchema(name: SegmentKind | Parameter): JsonSchema {
  return VALUE_SCHEMAS[name];
}

/**
 * A method's arguments as one JSON Schema object (the segment by its kind's name, then the
 * parameters; the segment and required parameters required), for tools that take named
 * arguments (MCP). The same names as the example's.
 */
export function argumentsSchema(method: Method): JsonSchema {
  const { segment, parameters, required = [] } = METHODS[method] as { segment?: SegmentKind; parameters: readonly Parameter[]; required?: readonly Parameter[] };
  const names: (SegmentKind | Parameter)[] = segment ? [segment, ...parameters] : [...parameters];
  return {
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, VALUE_SCHEMAS[name]])),
    required: segment ? [segment, ...required] : [...required],
    additionalProperties: false,
  };
}

/** The errors a segment or parameter's checks and lookup can give, in the contract's order. */
const VALUE_ERRORS: Readonly<Record<SegmentKind | Parameter, readonly ErrorCode[]>> = {
  cp: [101, 102, 104, 105],
  partial: [101, 102, 104],
  estado: [109, 110],
  municipio: [114, 115],
  clave: [109, 116, 110],
  colonia: [],
  limit: [117],
  type: [112],
  lat: [145, 146, 147],
  lng: [145, 146, 147],
};

/**
 * Every error a method can answer, ascending: its token's (106, 107, and 108 where a success
 * costs a credit), then its segment's and parameters' checks and lookups.
 */
export function errorsOf(method: Method): ErrorCode[] {
  const { segment, parameters, credit } = METHODS[method] as { segment?: SegmentKind; parameters: readonly Parameter[]; credit: 'spend' | 'count' };
  const codes = new Set<ErrorCode>([106, 107]);
  if (credit === 'spend') codes.add(108);
  for (const name of segment ? [segment, ...parameters] : parameters) for (const code of VALUE_ERRORS[name]) codes.add(code);
  for (const code of METHOD_TEXTS[method].errors ?? []) codes.add(code);
  return [...codes].sort((a, b) => a - b);
}
