/**
 * The HTTP API as a Node middleware, `(req, res, next?)`, for Express, Connect, Fastify (on
 * its raw request and reply) or a plain `http.createServer`. It converts the request for the
 * answer path and writes what it returns, as `cpmx serve` does: the same status, headers and
 * bytes, credits refunded alike.
 */
import { handlerResponder, mountPrefix, type HandlerOptions } from './handler.js';
import { middlewareOver, type Middleware } from './node-middleware.js';

export type { Middleware, Next } from './node-middleware.js';

/**
 * Creates the middleware. Options as for `createFetchHandler`. A request outside `prefix` is
 * passed to `next` (answered 404, error 111, when there is none). An unexpected failure goes
 * to `next(error)`, the framework's error handling, or, with no `next`, is answered with the
 * cpmx 500 envelope, as `cpmx serve` answers it, and reported on stderr.
 */
export function createMiddleware(options: HandlerOptions = {}): Middleware {
  return middlewareOver(handlerResponder(options), mountPrefix(options.prefix));
}
