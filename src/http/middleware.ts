/**
 * The HTTP API as a Node middleware, `(req, res, next?)`, for Express, Connect, Fastify (on
 * its raw request and reply) or a plain `http.createServer`. It converts the request for the
 * answer path and writes what it returns, as `cpmx serve` does: the same status, headers and
 * bytes, credits refunded alike.
 */
import { isPromise } from '../core/credits.js';
import { belowPrefix, handlerResponder, mountPrefix, OUTSIDE, type HandlerOptions } from './handler.js';
import { answerNode, writeNodeAnswer } from './node.js';
import type { NodeRequest, NodeResponse } from './node-types.js';

export type Next = (error?: unknown) => void;

const reportOnStderr = (error: unknown) => console.error('cpmx:', error);
export type Middleware = (req: NodeRequest, res: NodeResponse, next?: Next) => void;

/**
 * Creates the middleware. Options as for `createFetchHandler`. A request outside `prefix` is
 * passed to `next` (answered 404, error 111, when there is none). An unexpected failure goes
 * to `next(error)`, the framework's error handling, or, with no `next`, is answered with the
 * cpmx 500 envelope, as `cpmx serve` answers it, and reported on stderr.
 */
export function createMiddleware(options: HandlerOptions = {}): Middleware {
  const respond = handlerResponder(options);
  const prefix = mountPrefix(options.prefix);

  return function cpmx(req: NodeRequest, res: NodeResponse, next?: Next): void {
    let target = belowPrefix(req.url ?? '/', prefix);
    if (target === undefined) {
      if (next) {
        next();
        return;
      }
      target = OUTSIDE;
    }
    if (!next) {
      const answer = answerNode(respond, req, target, false, reportOnStderr);
      if (isPromise(answer)) answer.then((final) => writeNodeAnswer(res, final));
      else writeNodeAnswer(res, answer);
      return;
    }
    // The framework answers a failure handed to it: the 500 envelope is then not written.
    let handedOn = false;
    const answer = answerNode(respond, req, target, false, (error) => {
      handedOn = true;
      next(error);
    });
    if (isPromise(answer)) answer.then((final) => handedOn || writeNodeAnswer(res, final));
    else if (!handedOn) writeNodeAnswer(res, answer);
  };
}
