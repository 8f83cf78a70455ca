/**
 * The method table's first columns: each method of the contract by its COPOMEX name, what its
 * path takes (its segment and query parameters), what a success costs, and the typed clients'
 * name for it. Pure data, importing nothing: methods.ts joins each row's checks and answers to
 * it (the router, the path parser and the clients read the joined rows), and what only the
 * help, the OpenAPI document and the MCP tools need (method-texts.ts, http/openapi.ts) reads it
 * from here, so that those load on their own, lazily, without a copy of the lookup code.
 */

/** What a method's path segment holds, named as the contract names it. */
export type SegmentKind = 'cp' | 'partial' | 'estado' | 'municipio' | 'clave';
/** The query parameters the contract reads (besides `token`), in the order they are checked. */
export type Parameter = 'estado' | 'municipio' | 'colonia' | 'limit' | 'type';

export interface MethodShape {
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
  readonly client?: string;
  /** What a success costs: one credit, or (the account method) nothing, the token's count filled in by the credit step. */
  readonly credit: 'spend' | 'count';
}

/** Every method of the contract answered here, by its COPOMEX name, in the contract's order. */
export const METHOD_SHAPES = {
  info_cp: { segment: 'cp', parameters: ['type'], client: 'infoCp', credit: 'spend' },
  search_cp: { segment: 'partial', parameters: [], client: 'searchCp', credit: 'spend' },
  get_estados: { parameters: [], client: 'getEstados', credit: 'spend' },
  get_municipio_por_estado: { segment: 'estado', parameters: [], client: 'getMunicipioPorEstado', credit: 'spend' },
  get_colonia_por_cp: { segment: 'cp', parameters: [], client: 'getColoniaPorCp', credit: 'spend' },
  get_cp_por_estado: { segment: 'estado', parameters: [], client: 'getCpPorEstado', credit: 'spend' },
  get_cp_por_municipio: { segment: 'municipio', parameters: ['estado'], client: 'getCpPorMunicipio', credit: 'spend' },
  get_colonia_por_municipio: { segment: 'municipio', parameters: ['estado'], client: 'getColoniaPorMunicipio', credit: 'spend' },
  get_colonia_por_estado_municipio: { parameters: ['estado', 'municipio'], required: ['estado', 'municipio'], client: 'getColoniaPorEstadoMunicipio', credit: 'spend' },
  search_cp_advanced: { segment: 'estado', parameters: ['municipio', 'colonia', 'limit'], client: 'searchCpAdvanced', credit: 'spend' },
  // The older name of search_cp_advanced: the same path, without a client method of its own.
  get_cp_advanced: { segment: 'estado', parameters: ['municipio', 'colonia', 'limit'], credit: 'spend' },
  get_estado_clave: { parameters: [], client: 'getEstadoClave', credit: 'spend' },
  get_municipio_clave_por_estado: { segment: 'estado', parameters: [], client: 'getMunicipioClavePorEstado', credit: 'spend' },
  get_municipio_clave_por_clave_estado: { segment: 'clave', parameters: [], client: 'getMunicipioClavePorClaveEstado', credit: 'spend' },
  getCitiesByStateCode: { segment: 'clave', parameters: [], client: 'getCitiesByStateCode', credit: 'spend' },
  // Reads no catalog: the credit step fills in the token's count.
  'cuenta/consultas_disponibles': { parameters: [], client: 'consultasDisponibles', credit: 'count' },
} as const satisfies Record<string, MethodShape>;

export type Method = keyof typeof METHOD_SHAPES;

/** A method's shape, its optional fields readable on every row. */
export function shapeOf(method: Method): MethodShape {
  return METHOD_SHAPES[method];
}

/** COPOMEX methods whose data (coordinates, INEGI localities, streets) the postal catalog does not hold: 113. */
export const UNAVAILABLE_METHODS = [
  'info_cp_geocoding',
  'info_cp_geocoding_reverse',
  'get_localidad_por_estado_municipio',
  'get_localidad_por_clave_estado_municipio',
  'info_localidad',
  'get_vialidad',
  'get_tipo_vialidad',
] as const;
export type UnavailableMethod = (typeof UNAVAILABLE_METHODS)[number];
