/**
 * Requests whose parameters passed the contract's checks, narrowed per method: what the rows
 * of the method table (methods.ts) make of a `RawRequest` and answer. A leaf: the answers
 * import these without importing the table.
 */

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
/** `info_cp_geocoding`: a code's point (at the code's level: street and number are not read). */
export interface GeocodingRequest {
  method: 'info_cp_geocoding';
  token: string;
  cp: string;
}
/** `info_cp_geocoding_reverse`: the code whose area holds a point. */
export interface GeocodingReverseRequest {
  method: 'info_cp_geocoding_reverse';
  token: string;
  lat: number;
  lng: number;
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
  | SearchCpAdvancedRequest
  | GeocodingRequest
  | GeocodingReverseRequest;

