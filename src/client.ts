/**
 * The library's entry: a client whose lookups are synchronous and answer by the contract.
 * The typed methods build a request and `query` parses one; both go through `answer`.
 */
import { resolve } from 'node:path';
import { loadCatalog, type Catalog } from './catalog.js';
import {
  TEST_TOKEN,
  answer,
  route,
  type Answer,
  type Body,
  type CopomexRequest,
  type EstadosBody,
  type InfoCpBody,
  type MunicipiosBody,
  type SearchCpBody,
  type TokenRegistry,
} from './copomex.js';
import { defaultArtifactPath } from './paths.js';

export interface ClientOptions {
  /** Sent with every typed lookup; `pruebas` gives test mode. Missing or empty answers 106. */
  token?: string | undefined;
  /** The artifact; default `CPMX_DATA`, else the package's `data/cpmx.msgpack`. */
  dataPath?: string | undefined;
  /** Token accounting (the server's registry); without one every token is accepted. */
  registry?: TokenRegistry | undefined;
}

export interface CpmxClient {
  /** The artifact this client reads (loaded on first real-data answer). */
  readonly dataPath: string;
  infoCp(cp: string, options?: { type?: string | undefined }): InfoCpBody;
  searchCp(partial: string): SearchCpBody;
  getEstados(): EstadosBody;
  getMunicipioPorEstado(estado: string): MunicipiosBody;
  /** Answers a request path exactly as the HTTP API would, with the HTTP status. */
  query(path: string): { status: number; body: Body };
  /** The loaded catalog, loading it now if needed; throws ArtifactError when it cannot be read. */
  catalog(): Catalog;
}

const loaded = new Map<string, Catalog>();

/** Loads the artifact once per path for the whole process. */
function sharedCatalog(path: string): Catalog {
  let catalog = loaded.get(path);
  if (!catalog) {
    catalog = loadCatalog(path);
    loaded.set(path, catalog);
  }
  return catalog;
}

/**
 * Creates a client. With a real token the artifact is loaded now, so a missing one fails here
 * with an ArtifactError that says what to do; with `pruebas` nothing is read until needed.
 */
export function createClient(options: ClientOptions = {}): CpmxClient {
  const dataPath = resolve(options.dataPath ?? (process.env.CPMX_DATA || defaultArtifactPath));
  const token = options.token;
  const context = { catalog: () => sharedCatalog(dataPath), registry: options.registry };
  if (token && token !== TEST_TOKEN) context.catalog();
  // Every request is built in one shape, so the router's property reads stay monomorphic.
  const ask = (endpoint: CopomexRequest['endpoint'], segment: string | undefined, type?: string): Answer =>
    answer({ endpoint, segment, token, type }, context);

  return {
    dataPath,
    infoCp: (cp, options) => ask('info_cp', typeof cp === 'string' ? cp : String(cp), options?.type).body as InfoCpBody,
    searchCp: (partial) => ask('search_cp', typeof partial === 'string' ? partial : String(partial)).body as SearchCpBody,
    getEstados: () => ask('get_estados', undefined).body as EstadosBody,
    getMunicipioPorEstado: (estado) =>
      ask('get_municipio_por_estado', typeof estado === 'string' ? estado : String(estado)).body as MunicipiosBody,
    query: (path) => {
      const { status, body } = route(String(path), context);
      return { status, body };
    },
    catalog: context.catalog,
  };
}
