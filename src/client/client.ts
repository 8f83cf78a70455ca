/**
 * The library's client: synchronous lookups that answer by the contract. The typed methods
 * build a request and `query` parses one; both go through the router and the credit step.
 */
import { catalogAge, type ArtifactHeader, type CatalogAge } from '../core/format.js';
import {
  TEST_TOKEN,
  type Body,
  type EstadosBody,
  type InfoCpBody,
  type InfoCpFullBody,
  type InfoCpSimplifiedBody,
  type MunicipiosBody,
  type SearchCpBody,
} from '../core/contract.js';
import { isPromise, settle, type TokenRegistry } from '../core/credits.js';
import { parseRequestPath, type Method, type RawRequest } from '../core/request.js';
import { handle, type Answer, type RouterContext } from '../core/router.js';
import { openSource, type SourceOptions } from './open-source.js';

export interface ClientOptions extends SourceOptions {
  /** Sent with every typed lookup; `pruebas` gives test mode. Missing or empty answers 106. */
  token?: string | undefined;
  /** Token accounting, answering synchronously; without one every token is accepted. */
  registry?: TokenRegistry | undefined;
}

export interface InfoCpOptions {
  /** `simplified`: one envelope listing every settlement name. */
  type?: 'simplified' | undefined;
}

export interface CpmxClient {
  /** The artifact file this client reads (loaded on the first real-data answer); "the artifact given as data" for bytes. */
  readonly dataPath: string;
  /** Full mode: an array with one envelope per settlement, or one error envelope. */
  infoCp(cp: string): InfoCpFullBody;
  infoCp(cp: string, options: { type: 'simplified' }): InfoCpSimplifiedBody;
  infoCp(cp: string, options?: InfoCpOptions): InfoCpBody;
  searchCp(partial: string): SearchCpBody;
  getEstados(): EstadosBody;
  getMunicipioPorEstado(estado: string): MunicipiosBody;
  /** Answers a request path exactly as the HTTP API would, with the HTTP status. */
  query(path: string): { status: number; body: Body };
  /**
   * The artifact's header with the catalog's date and age in days (null when the artifact does
   * not record them), loading it now if needed; throws ArtifactError when it cannot be read.
   */
  catalogInfo(): ArtifactHeader & CatalogAge;
}

/**
 * Creates a client. With a real token the artifact is loaded now, so a missing one fails here
 * with an ArtifactError that says what to do; with `pruebas` nothing is read until needed.
 */
export function createClient(options: ClientOptions = {}): CpmxClient {
  const source = openSource(options);
  const dataPath = source.path;
  const { token, registry } = options;
  const context: RouterContext = { catalog: source.get };
  if (token && token !== TEST_TOKEN) source.get();

  const answer = (raw: RawRequest | undefined): Answer => {
    const settled = settle(handle(raw, context), registry);
    if (isPromise(settled)) throw new TypeError('createClient: the registry answered with a promise; the client is synchronous, so its registry must be too');
    return settled;
  };
  // Every request is built in one shape, so the router's property reads stay monomorphic.
  const ask = (method: Method, segment: string | undefined, type?: string): Body => answer({ method, segment, token, type }).body;
  // JavaScript callers may pass a number: it is read as its text, as a path would carry it.
  const text = (value: unknown) => (typeof value === 'string' ? value : String(value));

  function infoCp(cp: string): InfoCpFullBody;
  function infoCp(cp: string, options: { type: 'simplified' }): InfoCpSimplifiedBody;
  function infoCp(cp: string, options?: InfoCpOptions): InfoCpBody;
  function infoCp(cp: string, options?: InfoCpOptions): InfoCpBody {
    return ask('info_cp', text(cp), options?.type) as InfoCpBody;
  }

  return {
    dataPath,
    infoCp,
    searchCp: (partial) => ask('search_cp', text(partial)) as SearchCpBody,
    getEstados: () => ask('get_estados', undefined) as EstadosBody,
    getMunicipioPorEstado: (estado) => ask('get_municipio_por_estado', text(estado)) as MunicipiosBody,
    query: (path) => {
      const { status, body } = answer(parseRequestPath(String(path)));
      return { status, body };
    },
    catalogInfo: () => {
      const header = source.get().header;
      return { ...header, ...catalogAge(header, Date.now()) };
    },
  };
}
