/**
 * `cpmx serve`'s server: Node's own http module carrying what `respond` decides. This module
 * adds only what belongs to connections: limits, malformed requests, the access log and a
 * graceful close.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { serverError } from '../core/contract.js';
import type { TokenRegistry } from '../core/credits.js';
import { catalogSource } from '../client/catalog-source.js';
import { artifactPath, packageVersion } from '../paths.js';
import { accessLogLine } from './access-log.js';
import { refundUnlessWritten } from './refund.js';
import { createResponder, type HttpAnswer } from './respond.js';

export { MAX_URL_LENGTH } from './respond.js';

export interface ServeOptions {
  /** The artifact; default as for the library. */
  dataPath?: string | undefined;
  /** Token accounting; without it every token is accepted. */
  registry?: TokenRegistry | undefined;
  /** Called with one Common Log Format line per request (tokens redacted). */
  log?: ((line: string) => void) | undefined;
  /** Concurrent connections accepted; more are refused. */
  maxConnections?: number;
  /** Time allowed to receive a request's headers, and the whole request (ms). */
  headersTimeout?: number;
  requestTimeout?: number;
  /** The control panel (src/panel/): takes the requests under /panel (returns true), before the API. */
  panel?: ((req: IncomingMessage, res: ServerResponse) => boolean) | undefined;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export interface CpmxServer {
  server: Server;
  /** Whether the artifact is loaded (test mode is served either way). */
  loaded: boolean;
  /** Stops accepting, lets requests in flight finish (idle connections are closed), then resolves. */
  close(graceMs?: number): Promise<void>;
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

/** Creates the HTTP server (not yet listening). */
export function createCpmxServer(options: ServeOptions = {}): CpmxServer {
  const source = catalogSource(artifactPath(options.dataPath));
  const respond = createResponder({ source, registry: options.registry, version: packageVersion() });
  const log = options.log;
  /** Set once closing: answers then end their connection instead of keeping it alive. */
  let closing = false;

  function send(req: IncomingMessage, res: ServerResponse, answer: HttpAnswer) {
    const { status, headers, body } = answer;
    const bytes = Buffer.byteLength(body);
    const empty = req.method === 'HEAD' || status === 304 || status === 204;
    headers.push('Content-Length', status === 304 || status === 204 ? '0' : String(bytes));
    if (closing) headers.push('Connection', 'close');
    if (answer.refund) refundUnlessWritten(res, answer.refund);
    res.writeHead(status, headers);
    if (empty) res.end();
    else res.end(body);
    if (log) {
      const target = { address: req.socket.remoteAddress, method: req.method, target: req.url ?? '', httpVersion: req.httpVersion };
      log(accessLogLine(target, status, empty ? '-' : bytes));
    }
  }

  function fail(req: IncomingMessage, res: ServerResponse, error: unknown) {
    process.stderr.write(`cpmx serve: ${(error as Error).stack ?? String(error)}\n`);
    if (!res.headersSent) send(req, res, { status: 500, headers: ['Content-Type', JSON_TYPE, 'Access-Control-Allow-Origin', '*'], body: JSON.stringify(serverError(500, 'Error interno del servidor')) });
    else res.destroy();
  }

  const panel = options.panel;
  const server = createServer({ maxHeaderSize: 16 * 1024 }, (req, res) => {
    if (panel?.(req, res)) return;
    try {
      const answer = respond({
        method: req.method ?? 'GET',
        target: req.url ?? '/',
        ifNoneMatch: ifNoneMatch(req),
        requestHeaders: req.method === 'OPTIONS' ? req.headers['access-control-request-headers'] : undefined,
      });
      if (answer instanceof Promise) answer.then((final) => send(req, res, final), (error: unknown) => fail(req, res, error));
      else send(req, res, answer);
    } catch (error) {
      fail(req, res, error);
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
    const body = JSON.stringify(serverError(status, status === 431 ? 'Encabezados demasiado grandes' : status === 408 ? 'Tiempo de espera agotado' : 'Petición HTTP malformada'));
    socket.end(`HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });

  return {
    server,
    get loaded() {
      return source.loaded() !== undefined;
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
