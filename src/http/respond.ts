/**
 * The HTTP API's semantics, free of any server: from a method, a request target and the
 * If-None-Match header to a status, headers and a body. Methods, CORS, /health, /openapi.json, caching and
 * credits are decided here, once; the Node server (and any other transport) only carries
 * the bytes.
 */
import { isArtifactError, type Catalog } from '../core/catalog.js';
import { isPromise, settle, type TokenRegistry } from '../core/credits.js';
import { FORMAT_VERSION } from '../core/format.js';
import { parseRequestPath, type RawRequest } from '../core/request.js';
import { handle, type Answer, type RouterContext } from '../core/router.js';
import { answerAsText } from '../core/answers/text.js';
import type { CatalogSource } from '../client/catalog-source.js';
import { answersUnavailable } from '../registry/failure.js';
import type { ServedRegistry } from '../registry/types.js';
import type { HttpAnswer } from '../wire/http-answer.js';
import { bearerToken, isRead, targetIs } from '../wire/request-checks.js';
import { ALLOW, catalogNotLoaded, MAX_URL_LENGTH, methodNotAllowed, SERVER_ANSWERS, STATUS } from '../wire/status.js';
import { AnswerCache } from './body-cache.js';
import { catalogStatus } from './catalog-status.js';
import { catalogTag, etagOf, matches } from './conditional.js';
import { JSON_TYPE, json, serverAnswer } from './json-answer.js';
import { OPENAPI_PATH } from './openapi-path.js';

export type { HttpAnswer } from '../wire/http-answer.js';

const CACHE_CONTROL = 'public, max-age=86400';

export interface HttpRequest {
  method: string;
  target: string;
  ifNoneMatch: string | undefined;
  /** The Authorization header: `Bearer T` carries the token of a request whose query has none. */
  authorization?: string | undefined;
  /** The Access-Control-Request-Headers of a preflight. */
  requestHeaders?: string | undefined;
}

/** A registry; a served one also takes back credits of unwritten answers and reports its health. */
export type ResponderRegistry = TokenRegistry & Partial<Pick<ServedRegistry, 'refund' | 'delivered' | 'health'>>;

export interface ResponderOptions {
  source: CatalogSource;
  registry?: ResponderRegistry | undefined;
  /** cpmx's version, part of every ETag. */
  version: string;
  /** The token of requests that carry none, in the query or as a Bearer header (`--default-token`); none by default. */
  defaultToken?: string | undefined;
  /** Bytes of serialised answers kept for reuse (body-cache.ts); BODY_CACHE_BYTES by default, 0 for none. */
  bodyCacheBytes?: number | undefined;
}

/** The health report's path: `/health`, `/health?...` or `/health/...`. */
const HEALTH_PATH = '/health';

export type Responder = (request: HttpRequest) => HttpAnswer | Promise<HttpAnswer>;

/** The health report: whether the artifact is loaded (test mode is served either way) and its header. */
function health(options: ResponderOptions, loadError: string | undefined): string {
  const catalog = options.source.loaded();
  const { loaded, ...catalogState } = catalogStatus(options.source);
  const registry = options.registry ? (options.registry.health?.() ?? { state: 'ok' }) : false;
  return JSON.stringify({
    status: registry && registry.state !== 'ok' ? 'degraded' : 'ok',
    loaded,
    artifact: options.source.path,
    header: catalog ? { ...catalog.header, notice: undefined } : null,
    // The catalog's date, age and build id, and how its last reload and refresh went (null
    // when unknown or not loaded): a monitor can alert on them.
    ...catalogState,
    error: loadError ?? null,
    formatVersion: FORMAT_VERSION,
    registry,
    // Edge runtimes and browsers have no process: the handlers run there too.
    pid: typeof process === 'undefined' ? null : process.pid,
  });
}

export function createResponder(options: ResponderOptions): Responder {
  const { source, registry } = options;
  /**
   * The catalog of the request being answered, read once (the router and the ETag then use the
   * same): a catalog swapped in meanwhile (served-catalog.ts) answers the next request. Reset
   * per request; `handle` is synchronous, so no other request runs in between.
   */
  let pinned: Catalog | undefined;
  const context: RouterContext = { catalog: () => (pinned ??= source.get()), geo: source.geo && (() => source.geo!((pinned ??= source.get()))) };
  let loadError: string | undefined;
  /** Tries to load the artifact, remembering why it could not be. */
  const load = () => {
    try {
      source.get();
      loadError = undefined;
    } catch (error) {
      if (!isArtifactError(error)) throw error;
      loadError = error.message;
    }
  };
  load();
  let tag: string | undefined;
  /** The answers made from the catalog loaded: a catalog loaded anew (a rebuilt artifact) gets its own cache and tag. */
  let cache: AnswerCache | undefined;
  /** With no registry, nothing but the request decides a real-data answer: answers are kept whole by target. */
  const keepWhole = registry === undefined;
  /**
   * The OpenAPI document's text, made at its first request: its builder and the method table's
   * texts are loaded then (a file of their own in the bundles), not with the lookups.
   */
  let openapi: Promise<string> | undefined;

  return function respond(request: HttpRequest): HttpAnswer | Promise<HttpAnswer> {
    const { method, target } = request;
    // An answer kept whole for this target, unless the request asks about its ETag.
    if (keepWhole && cache !== undefined && isRead(method) && request.ifNoneMatch === undefined && cache.catalog === source.loaded()) {
      const kept = cache.answer(target);
      if (kept !== undefined) return kept;
    }
    if (target.length > MAX_URL_LENGTH) return serverAnswer(SERVER_ANSWERS.urlTooLong);
    if (method === 'OPTIONS') {
      return {
        status: STATUS.noContent,
        headers: [
          'Access-Control-Allow-Origin', '*',
          'Access-Control-Allow-Methods', `${ALLOW}, OPTIONS`,
          'Access-Control-Allow-Headers', request.requestHeaders ?? '*',
          'Access-Control-Max-Age', '86400',
        ],
        body: '',
      };
    }
    if (!isRead(method)) return serverAnswer(methodNotAllowed(method));
    if (targetIs(target, OPENAPI_PATH)) {
      openapi ??= import('./openapi.js').then(
        ({ openApiDocument }) => JSON.stringify(openApiDocument({ version: options.version })),
        (error: unknown) => {
          // Tried again at the next request rather than failing every one after.
          openapi = undefined;
          throw error;
        },
      );
      return openapi.then((text) => json(STATUS.ok, text, ['Cache-Control', 'public, max-age=3600']));
    }
    if (targetIs(target, HEALTH_PATH, true)) {
      if (!source.loaded()) load();
      return json(STATUS.ok, health(options, loadError), ['Cache-Control', 'no-store']);
    }

    const raw = parseRequestPath(target);
    // The query's token first; where it is absent or empty, a Bearer header; then the default.
    const tokenInTarget = raw?.token !== undefined;
    if (raw && !tokenInTarget) raw.token = bearerToken(request.authorization) ?? options.defaultToken;
    pinned = undefined;
    let answer: Answer;
    try {
      answer = handle(raw, context, answerAsText);
    } catch (error) {
      if (!isArtifactError(error)) throw error;
      loadError = error.message;
      return serverAnswer(catalogNotLoaded(error.message));
    }
    if (answer.credit !== 'spend' || !raw) {
      try {
        return settled(settle(answer, registry), undefined, undefined);
      } catch (error) {
        return registryUnavailable(error);
      }
    }
    const catalog = pinned ?? source.get();
    if (cache?.catalog !== catalog) {
      cache = new AnswerCache(catalog, options.bodyCacheBytes);
      tag = catalogTag(catalog, options.version);
    }
    const etag = etagOf(tag!, raw);
    // A client that holds the answer (304) or asks only for headers (HEAD) spends nothing,
    // but gets 402 like a GET would once the credits are spent.
    const notModified = matches(request.ifNoneMatch, etag);
    const mode = notModified || method === 'HEAD' ? 'look' : 'spend';
    try {
      const cacheable: Cacheable = { etag, notModified, raw, cache, target: keepWhole && tokenInTarget ? target : undefined };
      return settled(settle(answer, registry, mode), cacheable, mode === 'spend' ? registry : undefined);
    } catch (error) {
      return registryUnavailable(error);
    }
  };
}

interface Cacheable {
  etag: string;
  notModified: boolean;
  raw: RawRequest;
  /** The catalog answering's cache of answers. */
  cache: AnswerCache;
  /** The request target, when it alone decides the answer: the answer is kept whole for it. */
  target: string | undefined;
}

/** The JSON of a real-data answer: the text its row makes (info_cp's, from its code's quoted strings), else the body serialised. */
function serialize(answer: Answer): string {
  return answer.text ? answer.text() : JSON.stringify(answer.body);
}

function settled(answer: Answer | Promise<Answer>, cacheable: Cacheable | undefined, spentFrom: ResponderRegistry | undefined): HttpAnswer | Promise<HttpAnswer> {
  return isPromise(answer) ? answer.then((final) => toHttp(final, cacheable, spentFrom), registryUnavailable) : toHttp(answer, cacheable, spentFrom);
}

/** The one place a registry that cannot answer becomes an HTTP answer: 503, never a free answer. */
function registryUnavailable(error: unknown): HttpAnswer {
  if (!answersUnavailable(error)) throw error;
  return serverAnswer(SERVER_ANSWERS.registryUnavailable);
}

function toHttp(answer: Answer, cacheable: Cacheable | undefined, spentFrom: ResponderRegistry | undefined): HttpAnswer {
  // Only an answer that kept its credit (not turned into 107 or 108) is cacheable.
  if (!cacheable || answer.credit !== 'spend') return json(answer.status, JSON.stringify(answer.body));
  if (cacheable.notModified) return json(STATUS.notModified, '', ['ETag', cacheable.etag, 'Cache-Control', CACHE_CONTROL]);
  const headers = ['Content-Type', JSON_TYPE, 'Access-Control-Allow-Origin', '*', 'ETag', cacheable.etag, 'Cache-Control', CACHE_CONTROL];
  const body = cacheable.cache.bytes(cacheable.etag, () => serialize(answer));
  const http: HttpAnswer = { status: answer.status, headers, body };
  if (cacheable.target !== undefined) return cacheable.cache.keep(cacheable.target, http, cacheable.etag, body);
  // A credit was spent for it: given back if the answer never reaches the client's socket.
  if (spentFrom?.refund) http.refund = () => spentFrom.refund!(answer.token!);
  if (spentFrom?.delivered) http.delivered = () => spentFrom.delivered!(answer.token!);
  return http;
}
