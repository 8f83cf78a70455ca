/**
 * A client's methods but its geo helpers: the typed lookups (one per row of the method table),
 * `query`, `catalogInfo` and `codeHistory`, all through the router and the credit step. The
 * library's Node bundles make them in dist/cpmx-deferred.cjs at the first call of one
 * (client-methods.lazy.ts): a first `infoCp` answered directly (client.ts) needs none of this.
 */
import { codeHistoryOf } from '../core/catalog-history.js';
import { catalogAge } from '../core/format.js';
import type { Body } from '../core/contract.js';
import { isPromise, settle } from '../core/credits.js';
import { lostLeadingZero, lostLeadingZeroHint } from '../core/leading-zero.js';
import type { Method, RawRequest } from '../core/request.js';
import { handle, type Answer, type RouterContext } from '../core/router.js';
import type { CatalogSource } from './bytes-source.js';
import type { ClientOptions, CpmxClient, Lookups } from './client-types.js';
import { lookupMethods, pathRequest } from './lookups.js';
import { warnCpNumber } from './open-source.js';
import type { GeoHelpers } from '../core/geo/helpers.js';

/** What clientMethods makes: the client but its path and its geo helpers, which client.ts makes itself. */
export type ClientMethods = Omit<CpmxClient, 'dataPath' | keyof GeoHelpers>;

/** The methods of a client of `source` asking with `token` (the options' token, or the local one; undefined with a registry and no token). */
export function clientMethods(source: CatalogSource, options: ClientOptions, token: string | undefined): ClientMethods {
  const { registry } = options;
  const context: RouterContext = { catalog: source.get, geo: source.geo && (() => source.geo!(source.get())) };
  const answer = (raw: RawRequest | undefined): Answer => {
    const settled = settle(handle(raw, context), registry);
    if (isPromise(settled)) throw new TypeError('createClient: the registry answered with a promise; the client is synchronous, so its registry must be too');
    return settled;
  };
  // The methods are made from the table's rows at run time, so their typed signatures (overloads,
  // options) cannot be inferred: LookupsMatchTable checks at compile time that they are the table's.
  const lookups = lookupMethods((raw: RawRequest) => answer(raw).body, token) as unknown as Lookups;
  /**
   * A code passed as a number (`infoCp(9810)`) lost its leading zero: the answer stays 102, and
   * the process is told once which code exists, by the command line's rule; asking costs no credit.
   */
  const numberHint = <B extends Body>(method: Method, cp: unknown, body: B): B => {
    if (typeof cp !== 'number') return body;
    const padded = lostLeadingZero(method, String(cp), body, token, (raw) => handle(raw, context).body);
    if (padded) warnCpNumber(`${method === 'info_cp' ? 'infoCp' : 'getColoniaPorCp'}(${cp}): ${lostLeadingZeroHint(padded, `pass postal codes as text: '${padded}'`)}`);
    return body;
  };
  return {
    ...lookups,
    infoCp: ((cp: string, options?: { type?: string | undefined }) => numberHint('info_cp', cp, lookups.infoCp(cp, options as never))) as Lookups['infoCp'],
    getColoniaPorCp: ((cp: string) => numberHint('get_colonia_por_cp', cp, lookups.getColoniaPorCp(cp))) as Lookups['getColoniaPorCp'],
    query: (path) => {
      const { status, body } = answer(pathRequest(path, options.token));
      return { status, body };
    },
    catalogInfo: () => {
      const header = source.get().header;
      // A copy, nested objects too: what a caller does to it never reaches the catalog every client reports from.
      return { ...structuredClone(header), ...catalogAge(header, Date.now()) };
    },
    codeHistory: (cp) => codeHistoryOf(source.get(), cp),
  };
}

/** A source never read: the methods made over it are only counted (clientMethodNames). */
const UNREAD: CatalogSource = {
  path: '',
  get() {
    throw new Error('clientMethodNames: a source never read');
  },
  loaded: () => undefined,
};

/**
 * The names of the methods clientMethods makes, in their order, made over a source never read:
 * scripts/bundle.mjs reads them from dist/cpmx-deferred.cjs and writes them into the stand-in.
 */
export const clientMethodNames = (): string[] => Object.keys(clientMethods(UNREAD, {}, undefined));
