/**
 * `createFetchHandler` and `createMiddleware` as the Node library's bundles export them: made
 * at once as in http/fetch.ts and http/middleware.ts (the prefix checked, the artifact opened
 * and loaded now when it can be, so a mistake in the options throws here), their request side
 * (http-side.ts, dist/cpmx-http.js) loaded at their first request, so that importing cpmx for
 * its lookups parses none of it. The web build exports fetch.ts and middleware.ts directly
 * (scripts/bundle.mjs swaps in handlers.web.ts).
 */
import { openSource } from '../client/open-source.js';
import { isArtifactError } from '../core/catalog.js';
import { deferredMiddleware } from './deferred-middleware.js';
import type { FetchHandler } from './fetch.js';
import { mountPrefix, type HandlerOptions } from './handler.js';
import type { Middleware } from './node-middleware.js';

export type { FetchHandler } from './fetch.js';
export type { Middleware, Next } from './node-middleware.js';

/** The options checked and the artifact loaded now; the responder over them made at first need, once. */
function deferredResponder(options: HandlerOptions) {
  const prefix = mountPrefix(options.prefix);
  const source = openSource(options);
  try {
    source.get();
  } catch (error) {
    // As the responder does: a missing artifact is answered 500 until it is there.
    if (!isArtifactError(error)) throw error;
  }
  return async () => {
    const side = await import('./http-side.js');
    return { side, respond: side.responderOver(source, options), prefix };
  };
}

export function createFetchHandler(options: HandlerOptions = {}): FetchHandler {
  const made = deferredResponder(options);
  let handler: FetchHandler | undefined;
  let loading: Promise<FetchHandler> | undefined;
  return (request) => {
    if (handler) return handler(request);
    loading ??= made().then(
      ({ side, respond, prefix }) => (handler ??= side.fetchHandlerOver(respond, prefix)),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading.then((loaded) => loaded(request));
  };
}

export function createMiddleware(options: HandlerOptions = {}): Middleware {
  const made = deferredResponder(options);
  return deferredMiddleware(() => made().then(({ side, respond, prefix }) => side.middlewareOver(respond, prefix)));
}
