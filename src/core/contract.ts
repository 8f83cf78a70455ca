/**
 * The COPOMEX contract (`docs/contract.md`) as data and types: the error table, the
 * envelope every body is wrapped in, and the body of each method. Every adapter answers
 * with these, so they cannot drift from the contract or from each other.
 */

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
  113: ['Método no disponible sin conexión', 501],
  114: ['No se recibió el municipio', 400],
  115: ['No se encontró el municipio', 404],
  116: ['La clave del estado es inválida', 400],
  117: ['El límite es inválido', 400],
  // Geodata (cpmx build --geo): cpmx's own codes, as COPOMEX publishes none for these cases; from
  // 140, apart from the validator's own 120 to 130 (docs/validate.md), so no number means two things.
  140: ['El cp no tiene área', 404],
  141: ['El punto está en el mar', 404],
  142: ['El punto está fuera de México', 404],
  143: ['El punto está en un estado sin polígonos', 404],
  144: ['El punto no está en el área de ningún cp', 404],
  145: ['No se recibió lat o lng', 400],
  146: ['lat o lng no es un número', 400],
  147: ['lat o lng está fuera de rango', 400],
} as const satisfies Record<number, readonly [string, number]>;
// Frozen, entries too: a caller writing to the exported table would change every client's answers.
for (const entry of Object.values(ERRORS)) Object.freeze(entry);
Object.freeze(ERRORS);

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

/** `info_cp` in full mode: an array of envelopes, one per settlement; an error is one envelope. */
export type InfoCpFullBody = SuccessEnvelope<PostalCodeRecord>[] | ErrorEnvelope;
/** `info_cp` with `type=simplified`: one envelope. */
export type InfoCpSimplifiedBody = Envelope<SimplifiedPostalCodeRecord>;
export type InfoCpBody = InfoCpFullBody | InfoCpSimplifiedBody;
/** A list of postal codes, ascending. */
export type CpListBody = Envelope<{ cp: string[] }>;
/** A list of settlement names. */
export type ColoniaListBody = Envelope<{ colonia: string[] }>;
/** Names to their keys, in key order. */
export type MunicipioClaveBody = Envelope<{ municipio_clave: Record<string, string> }>;

export type SearchCpBody = CpListBody;
export type EstadosBody = Envelope<{ estado: string[] }>;
export type MunicipiosBody = Envelope<{ municipios: string[] }>;
export type ColoniaPorCpBody = ColoniaListBody;
export type CpPorEstadoBody = CpListBody;
export type CpPorMunicipioBody = CpListBody;
export type ColoniaPorMunicipioBody = ColoniaListBody;
export type ColoniaPorEstadoMunicipioBody = ColoniaListBody;
export type SearchCpAdvancedBody = CpListBody;
export type EstadoClaveBody = Envelope<{ estado_clave: Record<string, string> }>;
export type MunicipioClavePorEstadoBody = MunicipioClaveBody;
export type MunicipioClavePorClaveEstadoBody = MunicipioClaveBody;
export type CitiesByStateCodeBody = Envelope<{ ciudad: string[] }>;
/** The credits left to the token; `null` where nothing counts them (no registry, or test mode). */
export type ConsultasDisponiblesBody = Envelope<{ consultas_disponibles: number | null }>;

/** A point of `info_cp_geocoding`: the code's, at the code's level (`precision`), whatever street was asked. */
export interface GeocodingPoint {
  lat: number;
  lng: number;
  label: string;
  precision: 'cp';
}
/** `info_cp_geocoding`: COPOMEX's simplified record with `calle`, `numero` and `geocoding`, and the area's facts. */
export interface GeocodingRecord {
  cp: string;
  calle: null;
  numero: null;
  asentamiento: string[];
  tipo_asentamiento: string;
  municipio: string;
  estado: string;
  ciudad: string;
  pais: string;
  geocoding: GeocodingPoint[];
  area: { centroide: { lat: number; lng: number }; bbox: [number, number, number, number]; m2: number };
}
export type InfoCpGeocodingBody = Envelope<GeocodingRecord>;
/** `info_cp_geocoding_reverse`: the code whose area holds the point, with its place, as simplified `info_cp`, and the point asked. */
export interface GeocodingReverseRecord extends SimplifiedPostalCodeRecord {
  lat: number;
  lng: number;
}
export type InfoCpGeocodingReverseBody = Envelope<GeocodingReverseRecord>;

export type Body =
  | InfoCpBody
  | InfoCpGeocodingBody
  | InfoCpGeocodingReverseBody
  | CpListBody
  | EstadosBody
  | MunicipiosBody
  | ColoniaListBody
  | EstadoClaveBody
  | MunicipioClaveBody
  | CitiesByStateCodeBody
  | ConsultasDisponiblesBody;

export function success<R>(response: R): SuccessEnvelope<R> {
  return { error: false, code_error: 0, error_message: null, response };
}

export function failure(code: ErrorCode): ErrorEnvelope {
  return { error: true, code_error: code, error_message: ERRORS[code][0], response: null };
}

/** An error of the table whose message says more than the table's (113 naming what to build). */
export function failureSaying(code: ErrorCode, detail: string): ErrorEnvelope {
  return { error: true, code_error: code, error_message: `${ERRORS[code][0]}: ${detail}`, response: null };
}

/** The HTTP status the contract gives an error. */
export function statusOf(code: ErrorCode): number {
  return ERRORS[code][1];
}

/** True for a success: an array in full mode, or an envelope without error. Narrows the body. */
export function isSuccess<B extends Body>(body: B): body is Exclude<B, ErrorEnvelope> {
  return Array.isArray(body) || !(body as Envelope<unknown>).error;
}

/**
 * An answer the server itself makes, outside the contract's table (405, 414, 503, ...): the
 * envelope's shape, with the HTTP status as `code_error`, so clients parse it like the rest.
 */
export interface ServerErrorEnvelope {
  error: true;
  code_error: number;
  error_message: string;
  response: null;
}

export function serverError(status: number, message: string): ServerErrorEnvelope {
  return { error: true, code_error: status, error_message: message, response: null };
}
