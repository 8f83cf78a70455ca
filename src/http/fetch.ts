/**
 * The HTTP API as a web-standard handler, `(request: Request) => Response`, for every runtime
 * that speaks fetch: Cloudflare Workers, Deno, Bun, Vercel and Next.js route handlers, Hono,
 * or Node through an adapter. It carries what respond.ts decides, as `cpmx serve` does.
 */
import { isPromise } from '../core/credits.js';
import { OUTSIDE, belowPrefix, bodiless, handlerResponder, mountPrefix, type HandlerOptions } from './handler.js';
import type { HttpAnswer, HttpRequest } from './respond.js';

export type FetchHandler = (request: Request) => Response | Promise<Response>;

const encoder = new TextEncoder();

/** The request target of an absolute URL: its path and query (a Request's URL has no fragment). */
function targetOf(url: string): string {
  const path = url.indexOf('/', url.indexOf('//') + 2);
  return path < 0 ? '/' : url.slice(path);
}

function toResponse(answer: HttpAnswer, method: string): Response {
  const { status, headers: flat, body } = answer;
  const headers = new Headers();
  for (let i = 0; i < flat.length; i += 2) headers.append(flat[i]!, flat[i + 1]!);
  const bytes = encoder.encode(body);
  // As `cpmx serve`: a HEAD announces the GET's length; 204 and 304 have none.
  headers.set('Content-Length', status === 304 || status === 204 ? '0' : String(bytes.length));
  return new Response(bodiless(method, status) ? null : bytes, { status, headers });
}

/**
 * Creates the handler. Options as for `createClient` (`data` or `dataPath`, `registry`), and
 * `prefix`: the path it is mounted under; a request outside it answers 404 (error 111), as a
 * path `cpmx serve` does not know.
 */
export function createFetchHandler(options: HandlerOptions = {}): FetchHandler {
  const respond = handlerResponder(options);
  const prefix = mountPrefix(options.prefix);
  return function handle(request: Request): Response | Promise<Response> {
    const method = request.method;
    const headers = request.headers;
    const httpRequest: HttpRequest & { authorization?: string | undefined } = {
      method,
      target: belowPrefix(targetOf(request.url), prefix) ?? OUTSIDE,
      ifNoneMatch: headers.get('if-none-match') ?? undefined,
      requestHeaders: method === 'OPTIONS' ? (headers.get('access-control-request-headers') ?? undefined) : undefined,
      authorization: headers.get('authorization') ?? undefined,
    };
    const answer = respond(httpRequest);
    return isPromise(answer) ? answer.then((final) => toResponse(final, method)) : toResponse(answer, method);
  };
}
