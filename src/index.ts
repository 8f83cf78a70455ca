/**
 * cpmx: Mexican postal codes answered offline, by the COPOMEX API's contract.
 *
 * ```ts
 * import { createClient, isSuccess } from 'cpmx';
 * const cpmx = createClient({ token: 'my-app' });
 * const body = cpmx.infoCp('09810', { type: 'simplified' });
 * if (isSuccess(body)) console.log(body.response.asentamiento);
 * ```
 *
 * The same API over HTTP, to mount in an app: `createFetchHandler` (a web-standard
 * `(Request) => Response`, for workers, Deno, Bun, Hono and route handlers) and
 * `createMiddleware` (`(req, res, next)`, for Express, Connect, Fastify and node:http). They
 * are here rather than in an entry of their own so that a client and a handler in one app share
 * one decoded catalog; their request side is loaded at their first request (http/lazy-handlers.ts).
 *
 * Address validation is a separate entry, `cpmx/validate`, so that importing the lookups
 * loads nothing it does not need. The public surface is kept small on purpose: the client,
 * the handlers, the contract's types and error table, and the errors a caller may catch.
 */
export {
  createClient,
  type ClientOptions,
  type CpmxClient,
  type InfoCpOptions,
  type MunicipioOptions,
  type SearchCpAdvancedOptions,
} from './client/client.js';
export type { ArtifactData } from './client/bytes-source.js';
export { createFetchHandler, createMiddleware, type FetchHandler, type Middleware, type Next } from './http/lazy-handlers.js';
export type { HandlerOptions } from './http/handler.js';
export type { NodeRequest, NodeResponse } from './http/node-types.js';
export * from './public-contract.js';
export type { Consumption, TokenRegistry } from './core/credits.js';
export { ArtifactError } from './core/catalog.js';
export { GeodataError } from './core/geo/geodata-error.js';
export type { GeoHelpers, NearCode, NearestOptions, PointCheck } from './core/geo/helpers.js';
export type { GeoJsonFeature } from './core/geo/geo-index.js';
export type { ArtifactHeader, CatalogAge, SourceInfo } from './core/format.js';
export type {
  CodeHistory,
  Correction,
  CorrectionAction,
  CorrectionsRecord,
  DroppedCorrection,
  HistorySummary,
  LastPlace,
  PreviousCatalog,
  RetiredCode,
} from './core/catalog-history.js';
