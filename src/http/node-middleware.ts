/**
 * The middleware's request side over a responder: what a `(req, res, next?)` call does. Part of
 * the request side every library bundle loads at a handler's first request (http-side.ts).
 */
import { isPromise } from '../core/credits.js';
import { belowPrefix, OUTSIDE } from './handler.js';
import { answerNode, writeNodeAnswer } from './node.js';
import type { NodeRequest, NodeResponse } from './node-types.js';
import type { Responder } from './respond.js';

export type Next = (error?: unknown) => void;
export type Middleware = (req: NodeRequest, res: NodeResponse, next?: Next) => void;

const reportOnStderr = (error: unknown) => console.error('cpmx:', error);

/** The middleware answering with `respond` under `prefix` (as mountPrefix makes it). */
export function middlewareOver(respond: Responder, prefix: string): Middleware {
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
