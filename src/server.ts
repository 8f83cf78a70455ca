/**
 * `cpmx serve`: the COPOMEX HTTP API on Node's own http module. Every path is answered by
 * the same router as the library; this module adds only HTTP: methods, CORS, caching,
 * credits, limits, logging and graceful shutdown.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ArtifactError, type Catalog } from './catalog.js';
import { createClient } from './client.js';
import { answer, failure, parseRequestPath, type Body, type RouterContext } from './copomex.js';
import { FORMAT_VERSION } from './format.js';
import { packageRoot } from './paths.js';
import type { Registry } from './registry.js';

/** Longest request target served; longer ones answer 414. */
export const MAX_URL_LENGTH = 2048;

export interface ServeOptions {
  /** The artifact; default as for the library. */
  dataPath?: string | undefined;
  /** Token accounting; without it every token is accepted. */
  registry?: Registry | undefined;
  /** Called with one Common Log Format line per request (tokens redacted). */
  log?: ((line: string) => void) | undefined;
  /** Concurrent connections accepted; more are refused. */
  maxConnections?: number;
  /** Time allowed to receive a request's headers, and the whole request (ms). */
  headersTimeout?: number;
  requestTimeout?: number;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const CACHE_CONTROL = 'public, max-age=86400';
const ALLOW = 'GET, HEAD';

/** A server-level error (outside the contract's table), in the envelope's shape. */
function serverError(status: number, message: string): string {
  return JSON.stringify({ error: true, code_error: status, error_message: message, response: null });
}

/** Hides the token in logged request targets: it is a credential. */
export function redactToken(target: string): string {
  return target.replace(/([?&]token=)[^&#]*/g, '$1REDACTED');
}

function clfDate(date: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCDate())}/${months[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}

export interface CpmxServer {
  server: Server;
  /** Whether the artifact is loaded (test mode is served either way). */
  loaded: boolean;
  /** Stops accepting, lets requests in flight finish (idle connections are closed), then resolves. */
  close(graceMs?: number): Promise<void>;
}

/** Creates the HTTP server (not yet listening). */
export function createCpmxServer(options: ServeOptions = {}): CpmxServer {
  const client = createClient({ dataPath: options.dataPath });
  let catalog: Catalog | undefined;
  let loadError: string | undefined;
  /** Loads the artifact if it is not loaded yet (one built while the server runs is picked up). */
  const loadCatalog = (): Catalog | undefined => {
    if (catalog) return catalog;
    try {
      catalog = client.catalog();
      loadError = undefined;
    } catch (error) {
      if (!(error instanceof ArtifactError)) throw error;
      loadError = error.message;
    }
    return catalog;
  };
  loadCatalog();
  const context: RouterContext = { catalog: client.catalog, registry: options.registry, charge: false };
  /** Names the catalog (its source's sha256) and the code answering (cpmx's version). */
  let artifactTag: string | undefined;
  const tag = (loaded: Catalog) => (artifactTag ??= `${loaded.header.source.sha256.slice(0, 16)}.${loaded.header.version}.${packageVersion()}`);
  const registry = options.registry;
  const log = options.log;
  /** Set once closing: answers then end their connection instead of keeping it alive. */
  let closing = false;

  const health = () =>
    JSON.stringify({
      status: 'ok',
      loaded: loadCatalog() !== undefined,
      artifact: client.dataPath,
      header: catalog ? { ...catalog.header, notice: undefined } : null,
      error: loadError ?? null,
      formatVersion: FORMAT_VERSION,
      registry: registry !== undefined,
      pid: process.pid,
    });

  function send(req: IncomingMessage, res: ServerResponse, status: number, body: string, extra?: string[]) {
    const bytes = Buffer.byteLength(body);
    const empty = req.method === 'HEAD' || status === 304;
    // A flat [name, value, ...] list: cheaper for Node than an object built per response.
    const headers = ['Content-Type', JSON_TYPE, 'Content-Length', status === 304 ? '0' : String(bytes), 'Access-Control-Allow-Origin', '*'];
    if (closing) headers.push('Connection', 'close');
    if (extra) headers.push(...extra);
    res.writeHead(status, headers);
    if (empty) res.end();
    else res.end(body);
    logRequest(req, status, empty ? '-' : bytes);
  }

  function logRequest(req: IncomingMessage, status: number, bytes: number | '-') {
    if (!log) return;
    log(`${req.socket.remoteAddress ?? '-'} - - [${clfDate(new Date())}] "${req.method} ${redactToken(req.url ?? '')} HTTP/${req.httpVersion}" ${status} ${bytes}`);
  }

  function handle(req: IncomingMessage, res: ServerResponse) {
    const url = req.url ?? '/';
    if (url.length > MAX_URL_LENGTH) return send(req, res, 414, serverError(414, `La URL excede ${MAX_URL_LENGTH} caracteres`));
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': `${ALLOW}, OPTIONS`,
        'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? '*',
        'Access-Control-Max-Age': '86400',
        'Content-Length': '0',
      });
      res.end();
      logRequest(req, 204, '-');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(req, res, 405, serverError(405, `Método HTTP ${req.method} no permitido; use ${ALLOW}`), ['Allow', ALLOW]);
    }
    if (url.startsWith('/health') && (url.length === 7 || '/?'.includes(url.charAt(7)))) {
      return send(req, res, 200, health(), ['Cache-Control', 'no-store']);
    }

    const request = parseRequestPath(url);
    if (!request) return send(req, res, 404, JSON.stringify(failure(111)));
    let status: number;
    let body: Body;
    let billable: boolean;
    try {
      ({ status, body, billable } = answer(request, context));
    } catch (error) {
      if (!(error instanceof ArtifactError)) throw error;
      return send(req, res, 503, serverError(503, `El catálogo no está cargado: ${error.message}`));
    }
    if (!billable) return send(req, res, status, JSON.stringify(body));
    // A successful real-data answer is a pure function of the catalog, this cpmx and the
    // request, so its strong ETag is made of those (no hashing of the body per request). It
    // costs a credit unless the client already holds it (304) or only asked for headers (HEAD).
    const etag = `"${tag(loadCatalog()!)}.${request.endpoint.charAt(0)}${request.endpoint.length}${request.type === undefined ? '' : 's'}.${encodeURIComponent(request.segment ?? '')}"`;
    const cache = ['ETag', etag, 'Cache-Control', CACHE_CONTROL];
    if (matches(ifNoneMatch(req), etag)) return send(req, res, 304, '', cache);
    if (registry && !(req.method === 'HEAD' ? registry.hasCredit(request.token!) : registry.consume(request.token!))) {
      return send(req, res, 402, JSON.stringify(failure(108)));
    }
    send(req, res, status, JSON.stringify(body), cache);
  }

  const server = createServer({ maxHeaderSize: 16 * 1024 }, (req, res) => {
    try {
      handle(req, res);
    } catch (error) {
      process.stderr.write(`cpmx serve: ${(error as Error).stack ?? String(error)}\n`);
      if (!res.headersSent) send(req, res, 500, serverError(500, 'Error interno del servidor'));
      else res.destroy();
    }
  });
  server.headersTimeout = options.headersTimeout ?? 10_000;
  server.requestTimeout = options.requestTimeout ?? 30_000;
  server.keepAliveTimeout = 5_000;
  server.maxConnections = options.maxConnections ?? 1024;
  // A malformed request gets a 400 and its socket closed; it never reaches, or crashes, the handler.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const body = serverError(status, status === 431 ? 'Encabezados demasiado grandes' : status === 408 ? 'Tiempo de espera agotado' : 'Petición HTTP malformada');
    socket.end(`HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });

  return {
    server,
    get loaded() {
      return catalog !== undefined;
    },
    close(graceMs = 4000) {
      closing = true;
      return new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
    },
  };
}

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0';
  }
}

/**
 * The If-None-Match header, read from the raw list: touching `req.headers` would make Node
 * build the whole headers object for every request.
 */
function ifNoneMatch(req: IncomingMessage): string | undefined {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === 13 && raw[i]!.toLowerCase() === 'if-none-match') return raw[i + 1];
  }
  return undefined;
}

/** True when an If-None-Match header names `etag` (or is `*`). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
