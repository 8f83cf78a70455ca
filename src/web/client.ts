/**
 * `createWebClient`: the lookups of `createClient`, answered from a web tree (`cpmx export
 * web DIR`) fetched file by file. Each answer is the core router's, over a view of the files
 * that have arrived (src/web/view.ts): the same request checks, the same answer builders, so
 * the same bodies, byte for byte, as the Node client's. It has no `query(path)`: the typed
 * methods cover every method, and a path parser would cost a tenth of the module.
 */
import type { CatalogReader } from '../core/catalog-reader.js';
import type {
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
  InfoCpSimplifiedBody,
  MunicipioClavePorClaveEstadoBody,
  MunicipioClavePorEstadoBody,
  MunicipiosBody,
  SearchCpAdvancedBody,
  SearchCpBody,
  InfoCpGeocodingBody,
  InfoCpGeocodingReverseBody,
} from '../core/contract.js';
import { checkParameters, rawRequest, type RawRequest, type Request } from '../core/request.js';
import { handle, type Answer } from '../core/router.js';
import type { InfoCpOptions, MunicipioOptions, SearchCpAdvancedOptions } from '../client/client.js';
import { LOCAL_TOKEN, lookupMethods, type Assert, type MatchesTable } from '../client/lookups.js';
import type { WebManifest } from './format.js';
import { TreeFiles, TreeReplaced, WebTreeError, abortable, type TreeFetchOptions } from './tree-files.js';
import { loadExtra } from './lazy-extra.js';
import { treeGeo } from '../core/geo/answers.js';
import { EXTRA, Missing } from './missing.js';
import { TreeView, type MunicipalityScope } from './view.js';

export interface WebClientOptions extends TreeFetchOptions {
  /** Sent with every lookup; `pruebas` gives test mode. Without one the lookups answer, as the Node client's do. */
  token?: string | undefined;
}

/** The last argument of every method. */
export interface CallOptions {
  /** Stops waiting (the promise rejects with the signal's reason); a file already on its way is still kept for the next call. */
  signal?: AbortSignal | undefined;
}

export interface WebClient {
  /** Full mode: an array with one envelope per settlement, or one error envelope. */
  infoCp(cp: string, options?: undefined, call?: CallOptions): Promise<InfoCpFullBody>;
  infoCp(cp: string, options: { type: 'simplified' }, call?: CallOptions): Promise<InfoCpSimplifiedBody>;
  infoCp(cp: string, options?: InfoCpOptions, call?: CallOptions): Promise<InfoCpBody>;
  searchCp(partial: string, call?: CallOptions): Promise<SearchCpBody>;
  getEstados(call?: CallOptions): Promise<EstadosBody>;
  getMunicipioPorEstado(estado: string, call?: CallOptions): Promise<MunicipiosBody>;
  getColoniaPorCp(cp: string, call?: CallOptions): Promise<ColoniaPorCpBody>;
  getCpPorEstado(estado: string, call?: CallOptions): Promise<CpPorEstadoBody>;
  /** Without `estado`, every state's municipality of that name: the 32 state files are fetched. */
  getCpPorMunicipio(municipio: string, options?: MunicipioOptions, call?: CallOptions): Promise<CpPorMunicipioBody>;
  getColoniaPorMunicipio(municipio: string, options?: MunicipioOptions, call?: CallOptions): Promise<ColoniaPorMunicipioBody>;
  getColoniaPorEstadoMunicipio(estado: string, municipio: string, call?: CallOptions): Promise<ColoniaPorEstadoMunicipioBody>;
  /** With `colonia`, every code shard of the state is fetched (the filter reads every settlement of the state). */
  searchCpAdvanced(estado: string, options?: SearchCpAdvancedOptions, call?: CallOptions): Promise<SearchCpAdvancedBody>;
  getEstadoClave(call?: CallOptions): Promise<EstadoClaveBody>;
  getMunicipioClavePorEstado(estado: string, call?: CallOptions): Promise<MunicipioClavePorEstadoBody>;
  getMunicipioClavePorClaveEstado(clave: string | number, call?: CallOptions): Promise<MunicipioClavePorClaveEstadoBody>;
  getCitiesByStateCode(clave: string | number, call?: CallOptions): Promise<CitiesByStateCodeBody>;
  /** The code's point, when the tree was exported with its geodata (`cpmx export web` of an artifact built with --geo); else 113. */
  infoCpGeocoding(cp: string, options?: { type?: 'simplified' | undefined }, call?: CallOptions): Promise<InfoCpGeocodingBody>;
  /** Not answered in the browser (113): reverse geocoding needs the polygons, which a tree does not carry. */
  infoCpGeocodingReverse(lat: number | string, lng: number | string, call?: CallOptions): Promise<InfoCpGeocodingReverseBody>;
  /** Always `null` credits: a static tree counts none. */
  consultasDisponibles(call?: CallOptions): Promise<ConsultasDisponiblesBody>;
  /** Fetches what a form's first paint needs: the state list, and a state's municipalities when one is named (by name or key). */
  prefetch(estado?: string, call?: CallOptions): Promise<void>;
  /** The tree's manifest: the catalog's date and counts, the format, the cpmx that exported it. */
  manifest(call?: CallOptions): Promise<WebManifest>;
  /** Forgets every file and the manifest, so the next call reads a re-exported tree. */
  refresh(): void;
  /** Bytes of file bodies received so far (decoded; compressed transfers cost less on the wire). */
  readonly bytesReceived: number;
}

type WebLookups = Omit<WebClient, 'prefetch' | 'manifest' | 'refresh' | 'bytesReceived'>;
// The lookups are the method table's rows: a row without its method here, or one answering another body, does not compile.
export type WebLookupsMatchTable = Assert<MatchesTable<WebLookups, 'promise'>>;

/** Rounds of fetching one answer may take: the deepest answer needs the state list, a state's file, then its municipalities' files. */
const MAX_ROUNDS = 8;

type Checked = ReturnType<typeof checkParameters> | undefined;

/** Which municipalities a request's name lookup may see (see `MunicipalityScope`). */
function scopeOf(request: Checked): MunicipalityScope {
  if (typeof request !== 'object') return undefined;
  if (request.method === 'get_cp_por_municipio' || request.method === 'get_colonia_por_municipio') {
    return request.estado === undefined ? 'all' : { estado: request.estado };
  }
  return request.method === 'search_cp_advanced' ? { estado: request.estado } : undefined;
}

/**
 * The parts an answer reads first: for a method whose segment is a code (`cp` or `partial` in
 * the method table), the code's digit index and shard; for any other, the state list.
 */
function firstParts(request: Request): string[] {
  // A checked request holds its segment under the kind's name (`cp` or `partial` for a code).
  const code = 'cp' in request ? request.cp : 'partial' in request ? request.partial : undefined;
  if (code === undefined) return ['e'];
  // Checked: 1 to 5 digits.
  return code.length < 3 ? [`d${code[0]}`] : [`d${code[0]}`, `c${code.slice(0, 3)}`];
}

export function createWebClient(options: WebClientOptions): WebClient {
  if (!options || options.base === undefined || options.base === '') throw new TypeError('createWebClient: give `base`, where `cpmx export web` output is served');
  const files = new TreeFiles(options);
  // As the Node client: without a token the typed lookups answer (a static tree counts no credits).
  const token = options.token || LOCAL_TOKEN;

  /** Says the request needs the catalog; test mode and early errors never read it, so they fetch nothing. */
  const noCatalog = (): CatalogReader => {
    throw new Missing([]);
  };

  async function answer(raw: RawRequest | undefined, signal: AbortSignal | undefined): Promise<Answer> {
    signal?.throwIfAborted();
    // Test mode and errors in the request itself answer without the tree (test mode with the extra module).
    for (;;) {
      try {
        return handle(raw, { catalog: noCatalog });
      } catch (error) {
        if (!(error instanceof Missing)) throw error;
        if (!error.parts.includes(EXTRA)) break;
        await abortable(loadExtra(), signal);
      }
    }
    const request = raw?.token ? checkParameters(raw, raw.token) : undefined;
    const scope = scopeOf(request);
    // The files an answer starts from, fetched at once with the manifest (by their direct names).
    if (typeof request === 'object') files.prefetch(firstParts(request));
    // Once, the tree may be found replaced on the server (a new export): then it is read afresh.
    for (let attempt = 0; ; attempt++) {
      try {
        const arrived = await abortable(files.tree(), signal);
        for (let round = 0; round < MAX_ROUNDS; round++) {
          try {
            const view = new TreeView(arrived, scope);
            return handle(raw, { catalog: () => view, geo: () => treeGeo(view, arrived.manifest.geo !== undefined) });
          } catch (error) {
            if (!(error instanceof Missing)) throw error;
            await abortable(Promise.all(error.parts.map((part) => (part === EXTRA ? loadExtra() : files.load(part)))), signal);
          }
        }
        throw new WebTreeError('damaged', String(options.base), 'the files do not fit together: export the tree again');
      } catch (error) {
        if (!(error instanceof TreeReplaced) || attempt > 0) throw error;
      }
    }
  }

  const ask = async (raw: RawRequest, call: CallOptions | undefined) => (await answer(raw, call?.signal)).body;
  // Made from the table's rows at run time, as the Node client's: the compiler checks their
  // signatures against the table (WebLookupsMatchTable) where it cannot infer them.
  const lookups = lookupMethods(ask, token) as unknown as WebLookups;
  return {
    ...lookups,
    async prefetch(estado, call) {
      // Any token but the test one: the files are wanted whatever the client's token is.
      await answer(rawRequest({ method: estado === undefined ? 'get_estados' : 'get_municipio_por_estado', segment: estado, token: 'prefetch' }), call?.signal);
    },
    async manifest(call) {
      return (await abortable(files.tree(), call?.signal)).manifest;
    },
    refresh: () => files.reset(),
    get bytesReceived() {
      return files.bytesReceived;
    },
  };
}

export { WebTreeError };
