/**
 * The HTTP API as a Node middleware, `(req, res, next?)`, for Express, Connect, Fastify (on
 * its raw request and reply) or a plain `http.createServer`. It carries what respond.ts
 * decides, as `cpmx serve` does, writing the same status, headers and bytes.
 */
import { serverError } from '../core/contract.js';
import { isPromise } from '../core/credits.js';
import { belowPrefix, bodiless, handlerResponder, mountPrefix, OUTSIDE, type HandlerOptions } from './handler.js';
import type { NodeRequest, NodeResponse } from './node-types.js';
import { refundUnlessWritten } from './refund.js';
import type { HttpAnswer, HttpRequest } from './respond.js';

export type Next = (error?: unknown) => void;
export type Middleware = (req: NodeRequest, res: NodeResponse, next?: Next) => void;

const JSON_TYPE = 'application/json; charset=utf-8';

/** The request as respond() reads it, from the raw header list (Node builds `req.headers` only when asked). */
function httpRequest(req: NodeRequest, target: string): HttpRequest & { authorization?: string | undefined } {
  let ifNoneMatch: string | undefined;
  let authorization: string | undefined;
  let requestHeaders: string | undefined;
  const method = req.method ?? 'GET';
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 13) {
      const lower = name.toLowerCase();
      if (lower === 'if-none-match') ifNoneMatch ??= raw[i + 1];
      else if (lower === 'authorization') authorization ??= raw[i + 1];
    } else if (name.length === 30 && method === 'OPTIONS' && name.toLowerCase() === 'access-control-request-headers') {
      requestHeaders ??= raw[i + 1];
    }
  }
  return { method, target, ifNoneMatch, requestHeaders, authorization };
}

function send(res: NodeResponse, method: string, answer: HttpAnswer): void {
  const { status, headers, body } = answer;
  // As in `cpmx serve`: a credit is kept only for an answer that reaches the client's connection.
  if (answer.refund) refundUnlessWritten(res, answer.refund);
  // The string itself, as cpmx serve writes it: Node encodes it straight into the socket's
  // buffer, where a Buffer made first was one more copy (about 3% of requests per second).
  headers.push('Content-Length', status === 304 || status === 204 ? '0' : String(Buffer.byteLength(body)));
  res.writeHead(status, headers);
  if (bodiless(method, status)) res.end();
  else res.end(body);
}

/**
 * Creates the middleware. Options as for `createFetchHandler`. A request outside `prefix` is
 * passed to `next` (answered 404, error 111, when there is none); an error respond() throws
 * goes to `next(error)`, or answers 500 as `cpmx serve` does.
 */
export function createMiddleware(options: HandlerOptions = {}): Middleware {
  const respond = handlerResponder(options);
  const prefix = mountPrefix(options.prefix);

  function fail(res: NodeResponse, method: string, error: unknown, next: Next | undefined): void {
    if (next) {
      next(error);
      return;
    }
    console.error('cpmx:', error);
    if (res.headersSent) res.destroy();
    else send(res, method, { status: 500, headers: ['Content-Type', JSON_TYPE, 'Access-Control-Allow-Origin', '*'], body: JSON.stringify(serverError(500, 'Error interno del servidor')) });
  }

  return function cpmx(req: NodeRequest, res: NodeResponse, next?: Next): void {
    let target = belowPrefix(req.url ?? '/', prefix);
    if (target === undefined) {
      if (next) {
        next();
        return;
      }
      target = OUTSIDE;
    }
    const request = httpRequest(req, target);
    const method = request.method;
    try {
      const answer = respond(request);
      if (isPromise(answer)) answer.then((final) => send(res, method, final), (error: unknown) => fail(res, method, error, next));
      else send(res, method, answer);
    } catch (error) {
      fail(res, method, error, next);
    }
  };
}
