/**
 * `createFetchHandler` and `createMiddleware` as every library bundle exports them: made at once
 * (the prefix checked, the artifact opened and loaded now when it can be, so a mistake in the
 * options throws here), their request side (http-side.ts: dist/cpmx-http.js, .cjs, and
 * cpmx-http.web.js in the web build) loaded at their first request (http-side-file.ts), so
 * that importing cpmx for its lookups, in Node or in a page, parses none of it.
 */
import { openSource } from '../client/open-source.js';
import { isArtifactError } from '../core/catalog.js';
import { deferredMiddleware } from './deferred-middleware.js';
import type { FetchHandler } from './fetch.js';
import { mountPrefix, type HandlerOptions } from './handler.js';
import { loadHttpSide } from './http-side-file.js';
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
    const side = await loadHttpSide();
    return { side, respond: side.responderOver(source, options), prefix };
  };
}

/**
 * Creates the handler. Options as for `createClient` (`data` or `dataPath`, `registry`), and
 * `prefix`: the path it is mounted under; a request outside it answers 404 (error 111), as a
 * path `cpmx serve` does not know. Its first answer is a promise (the request side loading).
 */
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

/**
 * Creates the middleware. Options as for `createFetchHandler`. A request outside `prefix` is
 * passed to `next` (answered 404, error 111, when there is none). An unexpected failure goes
 * to `next(error)`, the framework's error handling, or, with no `next`, is answered with the
 * cpmx 500 envelope, as `cpmx serve` answers it, and reported on stderr.
 */
export function createMiddleware(options: HandlerOptions = {}): Middleware {
  const made = deferredResponder(options);
  return deferredMiddleware(() => made().then(({ side, respond, prefix }) => side.middlewareOver(respond, prefix)));
}
