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
import { isPromise, type TokenRegistry } from '../core/credits.js';
import { artifactPath, packageVersion } from '../paths.js';
import { accessLogLine } from './access-log.js';
import { answerWith, envelope, wireOf, type WireAnswer } from '../http/answer.js';
import { closeWith, endSoon } from './connection-answer.js';
import { catalogStatus } from '../http/catalog-status.js';
import { ConnectionGuard } from './connection-guard.js';
import { checkInterval, DEFAULT_LIMITS, type ConnectionLimits } from './connection-limits.js';
import type { MetricsEndpoint } from './metrics-endpoint.js';
import { isMetricsTarget } from './metrics-endpoint.js';
import { answerHead, answerNode, readRequestHead, writeNodeAnswer } from '../http/node.js';
import { repairedHead, type RawHead } from './raw-request.js';
import { createResponder, type HttpAnswer } from '../http/respond.js';
import { MAX_URL_LENGTH, SERVER_ANSWERS, tooManyPipelined } from '../wire/status.js';
import { ServedCatalog } from './served-catalog.js';

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
  /** `--metrics`: GET /metrics, and the counters every answer adds to (none kept without it). */
  metrics?: MetricsEndpoint | undefined;
}

export interface CpmxServer {
  server: Server;
  /** Whether the artifact is loaded (test mode is served either way). */
  loaded: boolean;
  /** The catalog answered from, which reloads swap (reload.ts). */
  catalog: ServedCatalog;
  /** Stops accepting, lets requests in flight finish (idle connections are closed), then resolves. */
  close(graceMs?: number): Promise<void>;
}

/** The largest request headers read; more answer 431 (or 414 when it is the request line). */
const MAX_HEADER_BYTES = 16 * 1024;

/** What a malformed, oversized or timed-out request is answered; undefined: close without a word. */
function clientErrorAnswer(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): WireAnswer | undefined {
  switch (error.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return undefined;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return envelope(SERVER_ANSWERS.requestTimeout);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return envelope(SERVER_ANSWERS.tooLarge);
    case 'HPE_HEADER_OVERFLOW': {
      // The request line alone past the headers' limit: the URL is what is too long.
      const lineEnd = error.rawPacket?.indexOf(10) ?? -1;
      if (lineEnd < 0 || lineEnd > MAX_URL_LENGTH) return envelope(SERVER_ANSWERS.urlTooLong);
      return envelope(SERVER_ANSWERS.headersTooLarge);
    }
    default:
      return envelope(SERVER_ANSWERS.malformed);
  }
}

/**
 * Keeps Node's server from ending `socket` until the returned function is called. Node never
 * learns of a request its parser refused, so when that request's client half-closes (FIN, as
 * `nc -q` does) Node ends the socket as an idle one (its socketOnEnd), before an answer that
 * waits for the registry can be written: the client got nothing. A repaired request
 * (raw-request.ts) is in flight on it, and its answer ends it (closeWith).
 */
function holdEnd(socket: Socket): () => void {
  const end = socket.end;
  socket.end = function heldEnd(this: Socket) {
    return this;
  } as Socket['end'];
  return () => {
    socket.end = end;
  };
}

/** Creates the HTTP server (not yet listening). */
export function createCpmxServer(options: ServeOptions = {}): CpmxServer {
  const limits: ConnectionLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const source = new ServedCatalog(artifactPath(options.dataPath));
  const respond = createResponder({ source, registry: options.registry, version: packageVersion(), defaultToken: options.defaultToken });
  const log = options.log;
  const panel = options.panel;
  const metrics = options.metrics;
  const counters = metrics?.counters;
  /** Set once closing: answers then end their connection instead of keeping it alive. */
  let closing = false;

  /** Sockets whose last answer closes them: a parse error of what follows gets no answer of its own. */
  const ending = new WeakSet<Socket>();

  /** Writes `answer` (a wire answer) and hands it to the guard, the log and the metrics (`started`: when it began, with metrics on). */
  function send(req: IncomingMessage, res: ServerResponse, answer: WireAnswer, close = answer.close, started = 0) {
    if (close) ending.add(req.socket);
    writeNodeAnswer(res, answer, closing || close);
    guard.sent(req, res, answer.bytes === '-' ? 0 : answer.bytes);
    if (counters) counters.answered(req.method, answer.status, started || performance.now(), req.url);
    if (log) log(accessLogLine({ address: req.socket.remoteAddress, method: req.method, target: req.url ?? '', httpVersion: req.httpVersion }, answer.status, answer.bytes));
  }

  const report = (error: unknown) => process.stderr.write(`cpmx serve: ${(error as Error)?.stack ?? String(error)}\n`);

  function write(req: IncomingMessage, res: ServerResponse, answer: WireAnswer | Promise<WireAnswer>, started: number) {
    if (!isPromise(answer)) return send(req, res, answer, answer.close, started);
    answer.then((final) => send(req, res, final, final.close, started));
  }

  function answer(req: IncomingMessage, res: ServerResponse) {
    const started = counters ? performance.now() : 0;
    if (metrics && isMetricsTarget(req.url)) return write(req, res, metrics.answer(req), started);
    const page = panel?.(req);
    if (page) return write(req, res, wireOf(page, req.method ?? 'GET', report), started);
    write(req, res, answerNode(respond, req, req.url ?? '/', true, report), started);
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
    overflow: (req, res) => send(req, res, envelope(tooManyPipelined(limits.maxPipelined), req.method), true),
    refuse: (socket, limit) => {
      counters?.refused(limit);
      closeWith(socket, envelope(SERVER_ANSWERS.tooManyConnections));
    },
    closed: counters && ((limit) => counters.closed(limit)),
  });
  counters?.attach({ catalog: () => catalogStatus(source), connections: () => guard.held });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => guard.request(req, res));
  // An Expect other than 100-continue: answered 417 by the answer path, with the envelope.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => guard.request(req, res));
  // A client that half-closes after its request (FIN, as `nc -q` and minimal clients do) still
  // reads the answer: Node would otherwise end the connection before an answer that waits for
  // the registry is written. (A property of Node's http.Server since its first versions, not in its types.)
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;

  /** A request whose target carried raw UTF-8 bytes, read again (raw-request.ts): answered, and its connection closed. */
  function answerRepaired(socket: Socket, head: RawHead) {
    const request = readRequestHead(head.method, head.target, head.rawHeaders, head.http11, true);
    const started = counters ? performance.now() : 0;
    const release = holdEnd(socket);
    const done = (answer: WireAnswer) => {
      release();
      closeWith(socket, answer);
      counters?.answered(head.method, answer.status, started, head.target);
      if (log) log(accessLogLine({ address: socket.remoteAddress, method: head.method, target: head.target, httpVersion: head.http11 ? '1.1' : '1.0' }, answer.status, answer.bytes));
    };
    const answer = answerHead(respond, request, report);
    if (isPromise(answer)) answer.then(done);
    else done(answer);
  }

  // What never becomes a request (malformed, too large, timed out) is answered and closed here;
  // it never reaches, or crashes, the handler.
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    if (socket.writableEnded) return; // already answered: more bytes of the same bad request
    if (ending.has(socket)) return endSoon(socket); // its last answer is on its way
    if (guard.answering(socket)) return closeWith(socket, undefined);
    const head = error.code === 'HPE_INVALID_URL' && error.rawPacket ? repairedHead(error.rawPacket) : undefined;
    if (head) return answerRepaired(socket, head);
    const answer = clientErrorAnswer(error);
    if (counters && answer) {
      if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') counters.closed('request_timeout');
      counters.answered(undefined, answer.status, performance.now());
    }
    closeWith(socket, answer);
  });
  // CONNECT (a proxy tunnel) is a method like any other here: 405.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    const started = counters ? performance.now() : 0;
    void Promise.resolve(answerWith(respond, { method: req.method ?? 'CONNECT', target: req.url ?? '', ifNoneMatch: undefined }, report)).then((answer) => {
      counters?.answered(req.method, answer.status, started, req.url);
      closeWith(socket, answer);
    });
  });

  return {
    server,
    catalog: source,
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
