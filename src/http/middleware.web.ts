/**
 * middleware.ts in the web build (cpmx.web.js; scripts/bundle.mjs swaps it in): browsers have
 * no node:http, so what reads its requests and writes their answers (node-middleware.ts) is a
 * file of its own there, `cpmx-middleware.js`, loaded at a middleware's first request, as the
 * OpenAPI document's builder is. The middleware is made as in Node (the artifact loaded, the
 * prefix checked, at once); requests that come while the file loads are answered once it has,
 * in their order, then every request as in Node.
 */
import { deferredMiddleware } from './deferred-middleware.js';
import { handlerResponder, mountPrefix, type HandlerOptions } from './handler.js';
import type { Middleware } from './node-middleware.js';

export type { Middleware, Next } from './node-middleware.js';

export function createMiddleware(options: HandlerOptions = {}): Middleware {
  const respond = handlerResponder(options);
  const prefix = mountPrefix(options.prefix);
  return deferredMiddleware(() => import('./node-middleware.js').then(({ middlewareOver }) => middlewareOver(respond, prefix)));
}
