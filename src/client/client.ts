/**
 * The library's client: synchronous lookups that answer by the contract. A well-formed code of
 * `infoCp` is answered here directly; every other method is made by client-methods.ts, through
 * the router and the credit step.
 */
import { TEST_TOKEN } from '../core/contract.js';
import { infoCpBody } from '../core/router.js';
import type { Catalog } from '../core/catalog.js';
import type { ClientOptions, CpmxClient, Lookups } from './client-types.js';
import { LOCAL_TOKEN } from './local-token.js';
import { openSource, warnIfOld } from './open-source.js';
import { geoHelpers } from './geo-codec.js';
import { NO_GEODATA } from '../core/geo/answers.js';
import { clientMethods } from './client-methods.js';

export type { ClientOptions, CpmxClient, InfoCpOptions, Lookups, LookupsMatchTable, MunicipioOptions, SearchCpAdvancedOptions } from './client-types.js';

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
