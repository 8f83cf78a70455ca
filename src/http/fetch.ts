/**
 * The HTTP API as a web-standard handler, `(request: Request) => Response`, for every runtime
 * that speaks fetch: Cloudflare Workers, Deno, Bun, Vercel and Next.js route handlers, Hono,
 * or Node through an adapter. It converts the request for the answer path and makes a Response
 * of what it returns, as `cpmx serve` writes it: the same status, headers and bytes, the 500
 * envelope for a failure, and a credit given back when the client has gone before its answer
 * is ready (the request's signal aborted).
 */
import { isPromise } from '../core/credits.js';
import { answerWith, type WireAnswer } from './answer.js';
import { OUTSIDE, belowPrefix } from './handler.js';
import type { HttpRequest, Responder } from './respond.js';

export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** The request target of an absolute URL: its path and query (a Request's URL has no fragment). */
function targetOf(url: string): string {
  const path = url.indexOf('/', url.indexOf('//') + 2);
  return path < 0 ? '/' : url.slice(path);
}

const reportOnConsole = (error: unknown) => console.error('cpmx:', error);

function toResponse(answer: WireAnswer, request: Request): Response {
  // Handed to the platform, the answer is taken as delivered unless its client is already gone.
  if (answer.refund && request.signal?.aborted) answer.refund();
  else answer.delivered?.();
  const flat = answer.headers;
  // A plain record: what adapters such as @hono/node-server write without building Headers.
  const headers: Record<string, string> = {};
  for (let i = 0; i < flat.length; i += 2) headers[flat[i]!] = flat[i + 1]!;
  return new Response(answer.body ?? null, { status: answer.status, headers });
}

/** The handler answering with `respond` under `prefix` (as mountPrefix makes it). */
export function fetchHandlerOver(respond: Responder, prefix: string): FetchHandler {
  return function handle(request: Request): Response | Promise<Response> {
    const method = request.method;
    const headers = request.headers;
    const httpRequest: HttpRequest = {
      method,
      target: belowPrefix(targetOf(request.url), prefix) ?? OUTSIDE,
      ifNoneMatch: headers.get('if-none-match') ?? undefined,
      requestHeaders: method === 'OPTIONS' ? (headers.get('access-control-request-headers') ?? undefined) : undefined,
      authorization: headers.get('authorization') ?? undefined,
    };
    const answer = answerWith(respond, httpRequest, reportOnConsole);
    return isPromise(answer) ? answer.then((final) => toResponse(final, request)) : toResponse(answer, request);
  };
}
