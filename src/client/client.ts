/**
 * The library's client: synchronous lookups that answer by the contract. A well-formed code of
 * `infoCp` is answered here directly; every other method is made by client-methods.ts, through
 * the router and the credit step.
 */
import type { CodeHistory } from '../core/catalog-history.js';
import type { ArtifactHeader, CatalogAge } from '../core/format.js';
import {
  TEST_TOKEN,
  type Body,
  type CitiesByStateCodeBody,
  type ColoniaPorCpBody,
  type ColoniaPorEstadoMunicipioBody,
  type ColoniaPorMunicipioBody,
  type ConsultasDisponiblesBody,
  type CpPorEstadoBody,
  type CpPorMunicipioBody,
  type EstadoClaveBody,
  type EstadosBody,
  type InfoCpBody,
  type InfoCpFullBody,
  type InfoCpGeocodingBody,
  type InfoCpGeocodingReverseBody,
  type InfoCpSimplifiedBody,
  type MunicipioClavePorClaveEstadoBody,
  type MunicipioClavePorEstadoBody,
  type MunicipiosBody,
  type SearchCpAdvancedBody,
  type SearchCpBody,
} from '../core/contract.js';
import type { TokenRegistry } from '../core/credits.js';
import { infoCpBody } from '../core/router.js';
import type { Catalog } from '../core/catalog.js';
import type { Assert, MatchesTable } from './lookups.js';
import { LOCAL_TOKEN } from './local-token.js';
import { openSource, warnIfOld, type SourceOptions } from './open-source.js';
import type { GeoHelpers } from '../core/geo/helpers.js';
import { geoHelpers } from './geo-codec.js';
import { NO_GEODATA } from '../core/geo/answers.js';
import { clientMethods } from './client-methods.js';

/**
 * Each client's catalog, for adapters that read names against it (validation, one-line
 * addresses), under a symbol of the global registry: each bundled entry (`cpmx`,
 * `cpmx/validate`, CommonJS or ESM) carries its own copy of this module, so a WeakMap or a
 * class of one copy would not know the clients another made; `Symbol.for` is one key for all.
 */
const CATALOG = Symbol.for('cpmx.client.catalog');

/** The catalog a client answers from (loaded at first use, as its lookups load it). */
export function catalogOf(client: CpmxClient): Catalog {
  const get: unknown = typeof client === 'object' && client !== null ? Reflect.get(client, CATALOG) : undefined;
  if (typeof get !== 'function') throw new TypeError('catalogOf: not a client made by createClient');
  return (get as () => Catalog)();
}

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

/**
 * Creates a client. For real data (any token but `pruebas`, or none) the artifact is loaded
 * now, so a missing one fails here with an ArtifactError that says what to do; with `pruebas`
 * nothing is read until needed.
 */
export function createClient(options: ClientOptions = {}): CpmxClient {
  const source = openSource(options);
  const { registry } = options;
  const token = options.token || (registry ? undefined : LOCAL_TOKEN);
  const loaded = token && token !== TEST_TOKEN ? source.get() : undefined;
  if (loaded) warnIfOld(loaded.header);
  const methods = clientMethods(source, options, token);
  // A real token with no registry: nothing to settle, so a well-formed, known code is answered
  // directly (router.infoCpBody: the same checks and answer); anything else goes the usual way.
  // The catalog is held here: a path's loaded catalog never changes in a process, and finding it
  // again on each call (a Map lookup by path) was a fifth of the call.
  const direct = registry ? undefined : loaded;
  const infoCp =
    direct === undefined
      ? methods.infoCp
      : (((cp: string, options?: { type?: string | undefined }) => {
          const type = options?.type;
          if (typeof cp === 'string' && (type === undefined || type === 'simplified')) {
            const body = infoCpBody(cp, type !== undefined, direct);
            if (body) return body;
          }
          return methods.infoCp(cp, options as never);
        }) as Lookups['infoCp']);
  const client: CpmxClient = {
    dataPath: source.path,
    ...methods,
    infoCp,
    /* Beyond COPOMEX: from the geodata beside the artifact (none for an artifact given as bytes). */
    ...geoHelpers(() => (source.geo ? source.geo(source.get()) : NO_GEODATA)),
  };
  // Not enumerable: a spread or JSON of the client shows only its methods.
  Object.defineProperty(client, CATALOG, { value: source.get });
  return client;
}
