/**
 * `cpmx serve`'s server: Node's own http module carrying what `respond` decides. This module
 * adds only what belongs to connections: their limits (connection-guard.ts), answers to what
 * never becomes a request (connection-answer.ts), the access log and a graceful close.
 *
 * A request's way: Node parses it; the guard lets it through now, later (its client has not
 * read earlier answers yet) or not at all (too many pipelined); `answer` asks `respond`; `send`
 * writes the answer and hands it back to the guard, which sees it leave for the kernel.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { TokenRegistry } from '../core/credits.js';
import { catalogSource } from '../client/catalog-source.js';
import { artifactPath, packageVersion } from '../paths.js';
import { accessLogLine } from './access-log.js';
import { closeWith, serverAnswer } from './connection-answer.js';
import { ConnectionGuard } from './connection-guard.js';
import { checkInterval, DEFAULT_LIMITS, type ConnectionLimits } from './connection-limits.js';
import { refundUnlessWritten } from './refund.js';
import { createResponder, MAX_URL_LENGTH, type HttpAnswer } from './respond.js';

export { MAX_URL_LENGTH } from './respond.js';

export interface ServeOptions {
  /** The artifact; default as for the library. */
  dataPath?: string | undefined;
  /** Token accounting; without it every token is accepted. */
  registry?: TokenRegistry | undefined;
  /** The token of requests that carry none (`--default-token`); none by default. */
  defaultToken?: string | undefined;
  /** Called with one Common Log Format line per request (tokens redacted). */
  log?: ((line: string) => void) | undefined;
  /** Limits per connection and client; DEFAULT_LIMITS for any not given. */
  limits?: Partial<ConnectionLimits> | undefined;
  /** The control panel (src/panel/): the answer to a request under /panel, or undefined for the API's. */
  panel?: ((req: IncomingMessage) => Promise<HttpAnswer & { close?: boolean }> | undefined) | undefined;
}

export interface CpmxServer {
  server: Server;
  /** Whether the artifact is loaded (test mode is served either way). */
  loaded: boolean;
  /** Stops accepting, lets requests in flight finish (idle connections are closed), then resolves. */
  close(graceMs?: number): Promise<void>;
}

/** The largest request headers read; more answer 431 (or 414 when it is the request line). */
const MAX_HEADER_BYTES = 16 * 1024;

/** What a malformed, oversized or timed-out request is answered; undefined: close without a word. */
function clientErrorAnswer(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): HttpAnswer | undefined {
  switch (error.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return undefined;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return serverAnswer(408, 'La petición no llegó completa a tiempo');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return serverAnswer(413, 'La petición es demasiado grande');
    case 'HPE_HEADER_OVERFLOW': {
      // The request line alone past the headers' limit: the URL is what is too long.
      const lineEnd = error.rawPacket?.indexOf(10) ?? -1;
      if (lineEnd < 0 || lineEnd > MAX_URL_LENGTH) return serverAnswer(414, `La URL excede ${MAX_URL_LENGTH} caracteres`);
      return serverAnswer(431, 'Los encabezados de la petición son demasiado grandes');
    }
    default:
      return serverAnswer(400, 'Petición HTTP malformada');
  }
}

/** Creates the HTTP server (not yet listening). */
export function createCpmxServer(options: ServeOptions = {}): CpmxServer {
  const limits: ConnectionLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const source = catalogSource(artifactPath(options.dataPath));
  const respond = createResponder({ source, registry: options.registry, version: packageVersion(), defaultToken: options.defaultToken });
  const log = options.log;
  const panel = options.panel;
  /** Set once closing: answers then end their connection instead of keeping it alive. */
  let closing = false;

  function send(req: IncomingMessage, res: ServerResponse, answer: HttpAnswer, close = false) {
    const { status, headers, body } = answer;
    const bytes = Buffer.byteLength(body);
    const empty = req.method === 'HEAD' || status === 304 || status === 204;
    headers.push('Content-Length', status === 304 || status === 204 ? '0' : String(bytes));
    if (closing || close) headers.push('Connection', 'close');
    // Before the write: Node reports an answer ended on a connection already gone as finished.
    if (answer.refund) refundUnlessWritten(res, answer.refund);
    res.writeHead(status, headers);
    if (empty) res.end();
    else res.end(body);
    guard.sent(req, res, empty ? 0 : bytes);
    if (log) {
      const target = { address: req.socket.remoteAddress, method: req.method, target: req.url ?? '', httpVersion: req.httpVersion };
      log(accessLogLine(target, status, empty ? '-' : bytes));
    }
  }

  function fail(req: IncomingMessage, res: ServerResponse, error: unknown) {
    process.stderr.write(`cpmx serve: ${(error as Error).stack ?? String(error)}\n`);
    if (!res.headersSent) send(req, res, serverAnswer(500, 'Error interno del servidor'));
    else res.destroy();
  }

  function answer(req: IncomingMessage, res: ServerResponse) {
    // Headers are read from the raw list: touching `req.headers` would make Node build the
    // whole headers object for every request.
    let ifNoneMatch: string | undefined;
    let authorization: string | undefined;
    let host = false;
    const raw = req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!;
      if (name === 'Host' || name === 'host' || (name.length === 4 && name.toLowerCase() === 'host')) host = true;
      else if (name.length === 13) {
        const lower = name.toLowerCase();
        if (lower === 'if-none-match') ifNoneMatch ??= raw[i + 1];
        else if (lower === 'authorization') authorization ??= raw[i + 1];
      }
    }
    // HTTP/1.1 requires Host (RFC 9112 section 3.2); Node's own refusal has an empty body.
    if (!host && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) return send(req, res, serverAnswer(400, 'Falta el encabezado Host'), true);
    const page = panel?.(req);
    if (page) return void page.then((final) => send(req, res, final, final.close), (error: unknown) => fail(req, res, error));
    try {
      const answer = respond({
        method: req.method ?? 'GET',
        target: req.url ?? '/',
        ifNoneMatch,
        authorization,
        requestHeaders: req.method === 'OPTIONS' ? req.headers['access-control-request-headers'] : undefined,
      });
      if (answer instanceof Promise) answer.then((final) => send(req, res, final), (error: unknown) => fail(req, res, error));
      else send(req, res, answer);
    } catch (error) {
      fail(req, res, error);
    }
  }

  const server = createServer({
    maxHeaderSize: MAX_HEADER_BYTES,
    requireHostHeader: false, // answered in `answer`, with an envelope
    headersTimeout: limits.headersTimeout,
    requestTimeout: limits.requestTimeout,
    // Node checks both timeouts only this often (30 s by default): so they fire when they say.
    connectionsCheckingInterval: checkInterval(limits),
  });
  server.keepAliveTimeout = limits.idleTimeout;
  // The guard holds the limit, and answers 503 past it; this only bounds the sockets that are
  // being closed after such an answer.
  server.maxConnections = 2 * limits.maxConnections;
  const guard = new ConnectionGuard(server, limits, {
    answer,
    overflow: (req, res) => send(req, res, serverAnswer(503, `Más de ${limits.maxPipelined} peticiones sin leer en esta conexión; se cierra`), true),
    refuse: (socket) => closeWith(socket, serverAnswer(503, 'Demasiadas conexiones abiertas; intente de nuevo', ['Retry-After', '1'])),
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => guard.request(req, res));

  // What never becomes a request (malformed, too large, timed out) is answered and closed here;
  // it never reaches, or crashes, the handler.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (socket.writableEnded) return; // already answered: more bytes of the same bad request
    closeWith(socket, guard.answering(socket) ? undefined : clientErrorAnswer(error));
  });
  // CONNECT (a proxy tunnel) is a method like any other here: 405.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    new Promise<HttpAnswer>((resolve) => resolve(respond({ method: req.method ?? 'CONNECT', target: req.url ?? '', ifNoneMatch: undefined }))).then(
      (answer) => closeWith(socket, answer),
      () => closeWith(socket, undefined),
    );
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
