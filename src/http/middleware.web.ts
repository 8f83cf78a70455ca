/**
 * middleware.ts in the web build (cpmx.web.js; scripts/bundle.mjs swaps it in): browsers have
 * no node:http, so what reads its requests and writes their answers (node-middleware.ts) is a
 * file of its own there, `cpmx-middleware.js`, loaded at a middleware's first request, as the
 * OpenAPI document's builder is. The middleware is made as in Node (the artifact loaded, the
 * prefix checked, at once); requests that come while the file loads are answered once it has,
 * in their order, then every request as in Node.
 */
import { internalError } from './answer.js';
import { handlerResponder, mountPrefix, type HandlerOptions } from './handler.js';
import type { Middleware } from './node-middleware.js';

export type { Middleware, Next } from './node-middleware.js';

export function createMiddleware(options: HandlerOptions = {}): Middleware {
  const respond = handlerResponder(options);
  const prefix = mountPrefix(options.prefix);
  let middleware: Middleware | undefined;
  let loading: Promise<Middleware> | undefined;
  return function cpmx(req, res, next): void {
    if (middleware) {
      middleware(req, res, next);
      return;
    }
    loading ??= import('./node-middleware.js').then(
      ({ middlewareOver }) => (middleware ??= middlewareOver(respond, prefix)),
      (error: unknown) => {
        // Tried again at the next request rather than failing every one after.
        loading = undefined;
        throw error;
      },
    );
    loading.then(
      (loaded) => loaded(req, res, next),
      (error: unknown) => {
        if (next) {
          next(error);
          return;
        }
        // As a failure while answering: reported, and the cpmx 500 envelope (no credit was spent).
        console.error('cpmx:', error);
        const answer = internalError(req.method ?? 'GET');
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
      },
    );
  };
}
