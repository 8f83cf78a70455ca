/**
 * The client's types: its options and methods. Apart from client.ts so that the methods it
 * makes elsewhere (client-methods.ts, in the Node bundles a file loaded at first need) are typed
 * by the same interface without importing the client back.
 */
import type { CodeHistory } from '../core/catalog-history.js';
import type { ArtifactHeader, CatalogAge } from '../core/format.js';
import type {
  Body,
  CitiesByStateCodeBody,
  ColoniaPorCpBody,
  ColoniaPorEstadoMunicipioBody,
  ColoniaPorMunicipioBody,
  ConsultasDisponiblesBody,
  CpPorEstadoBody,
  CpPorMunicipioBody,
  EstadoClaveBody,
  EstadosBody,
  InfoCpBody,
  InfoCpFullBody,
  InfoCpGeocodingBody,
  InfoCpGeocodingReverseBody,
  InfoCpSimplifiedBody,
  MunicipioClavePorClaveEstadoBody,
  MunicipioClavePorEstadoBody,
  MunicipiosBody,
  SearchCpAdvancedBody,
  SearchCpBody,
} from '../core/contract.js';
import type { TokenRegistry } from '../core/credits.js';
import type { GeoHelpers } from '../core/geo/helpers.js';
import type { Assert, MatchesTable } from './lookups.js';
import type { SourceOptions } from './open-source.js';

export interface ClientOptions extends SourceOptions {
  /**
   * Sent with every typed lookup; `pruebas` gives test mode. Missing or empty, the typed
   * lookups answer from the catalog all the same (locally every token does), unless a
   * registry counts tokens: then they answer 106. `query(path)` answers a path without a
   * token as the HTTP API does: with this token, else 106.
   */
  token?: string | undefined;
  /** Token accounting, answering synchronously; without one every token is accepted. */
  registry?: TokenRegistry | undefined;
}

export interface InfoCpOptions {
  /** `simplified`: one envelope listing every settlement name. */
  type?: 'simplified' | undefined;
}

/** The municipality methods' options: without `estado`, every state's municipality of that name answers. */
export interface MunicipioOptions {
  estado?: string | undefined;
}

export interface SearchCpAdvancedOptions {
  /** Only the codes of this municipality of the state. */
  municipio?: string | undefined;
  /** Only the codes with a settlement whose name contains this (ignoring case, accents and repeated spaces). */
  colonia?: string | undefined;
  /** At most this many codes (1 to 100000). */
  limit?: number | string | undefined;
}

/** The lookups, one per method of the contract (the web client has them too, answering with promises). */
export type Lookups = Omit<CpmxClient, 'dataPath' | 'query' | 'catalogInfo' | 'codeHistory' | keyof GeoHelpers>;
// The lookups are the method table's rows: a row without its method here, or one answering another body, does not compile.
export type LookupsMatchTable = Assert<MatchesTable<Lookups, 'body'>>;

export interface CpmxClient extends GeoHelpers {
  /** The artifact file this client reads (loaded on the first real-data answer); "the artifact given as data" for bytes. */
  readonly dataPath: string;
  /** Full mode: an array with one envelope per settlement, or one error envelope. */
  infoCp(cp: string): InfoCpFullBody;
  infoCp(cp: string, options: { type: 'simplified' }): InfoCpSimplifiedBody;
  infoCp(cp: string, options?: InfoCpOptions): InfoCpBody;
  searchCp(partial: string): SearchCpBody;
  getEstados(): EstadosBody;
  getMunicipioPorEstado(estado: string): MunicipiosBody;
  /** The settlement names of a code, as simplified `infoCp` lists them. */
  getColoniaPorCp(cp: string): ColoniaPorCpBody;
  /** Every code of a state, ascending. */
  getCpPorEstado(estado: string): CpPorEstadoBody;
  /** Every code of the municipalities of that name (only `estado`'s when given), ascending. */
  getCpPorMunicipio(municipio: string, options?: MunicipioOptions): CpPorMunicipioBody;
  /** The distinct settlement names of the municipalities of that name, in catalog order. */
  getColoniaPorMunicipio(municipio: string, options?: MunicipioOptions): ColoniaPorMunicipioBody;
  /** `getColoniaPorMunicipio(municipio, { estado })`, both required. */
  getColoniaPorEstadoMunicipio(estado: string, municipio: string): ColoniaPorEstadoMunicipioBody;
  /** The codes of a state, narrowed by municipality, settlement name and count. */
  searchCpAdvanced(estado: string, options?: SearchCpAdvancedOptions): SearchCpAdvancedBody;
  /** Every state's name to its two-digit key. */
  getEstadoClave(): EstadoClaveBody;
  /** A state's municipality names to their three-digit keys. */
  getMunicipioClavePorEstado(estado: string): MunicipioClavePorEstadoBody;
  /** The same, the state named by its key (`9` or `09`). */
  getMunicipioClavePorClaveEstado(clave: string | number): MunicipioClavePorClaveEstadoBody;
  /** A state's city names, by city key; the state named by its key. */
  getCitiesByStateCode(clave: string | number): CitiesByStateCodeBody;
  /** A point inside the code's area, with its place (geodata: `cpmx build --geo`; without it, 113). */
  infoCpGeocoding(cp: string, options?: InfoCpOptions): InfoCpGeocodingBody;
  /** The code whose area holds the point (decimal degrees), with its place; 141 to 144 say why none does. */
  infoCpGeocodingReverse(lat: number | string, lng: number | string): InfoCpGeocodingReverseBody;
  /** The credits left to the client's token in its registry; `null` without a registry or in test mode. Costs none. */
  consultasDisponibles(): ConsultasDisponiblesBody;
  /** Answers a request path exactly as the HTTP API would, with the HTTP status; a path without a token uses the client's. */
  query(path: string): { status: number; body: Body };
  /**
   * The artifact's header with the catalog's date and age in days (null when the artifact does
   * not record them), loading it now if needed; throws ArtifactError when it cannot be read.
   */
  catalogInfo(): ArtifactHeader & CatalogAge;
  /**
   * A postal code's history as far as the artifact knows it: `current` (and since when, if an
   * earlier catalog lacked it; the corrections that touched it), `retired` (since when, and its
   * last place) or `never-existed` (in no catalog the artifact was built with: see
   * `cpmx build --previous`). Costs no credit; throws a TypeError unless `cp` is 5 digits.
   */
  codeHistory(cp: string): CodeHistory;
}
