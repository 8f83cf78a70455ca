/**
 * A middleware whose request side is loaded at its first request (a file of its own in the
 * bundles): requests that come while it loads are answered once it has, in their order, then
 * every request as the loaded one answers. A failed load is tried again at the next request;
 * the request it failed is handed to `next`, or, with none, answered with the cpmx 500 envelope
 * (no credit was spent) and reported on stderr.
 */
import { internalError } from './answer.js';
import type { Middleware } from './node-middleware.js';

export function deferredMiddleware(load: () => Promise<Middleware>): Middleware {
  let middleware: Middleware | undefined;
  let loading: Promise<Middleware> | undefined;
  return function cpmx(req, res, next): void {
    if (middleware) {
      middleware(req, res, next);
      return;
    }
    loading ??= load().then(
      (loaded) => (middleware ??= loaded),
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
        console.error('cpmx:', error);
        const answer = internalError(req.method ?? 'GET');
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
      },
    );
  };
}
