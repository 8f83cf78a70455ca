/**
 * The one HTTP answer path (as hono's `app.fetch` is to its adapters): a request, read from
 * whatever the transport has, goes in; what goes on the wire comes out: status, headers with
 * Content-Length, the body bytes or none (HEAD, 204, 304), and a failure of any kind as the
 * cpmx 500 envelope. `cpmx serve`, `createMiddleware` and `createFetchHandler` only convert
 * their request to an `HttpRequest` and write the `WireAnswer`; respond.ts decides what the
 * answer is.
 */
import { isPromise } from '../core/credits.js';
import { utf8, type PreparedAnswer } from './body-cache.js';
import { INTERNAL_ERROR, STATUS, type ServerAnswer } from '../wire/statuses.js';
import { serverAnswer } from './json-answer.js';
import type { HttpAnswer, HttpRequest, Responder } from './respond.js';

/**
 * What a transport writes: every header it sends but its own framing (Date, Connection). May be
 * shared by many requests (an answer kept whole): read it, never change it.
 */
export interface WireAnswer {
  status: number;
  /** Flat [name, value, ...], Content-Length last; may be shared by many answers: copy it to add to it. */
  headers: string[];
  /** The body's bytes; undefined when none is sent (HEAD, 204, 304). */
  body: Uint8Array | undefined;
  /** Bytes of the body sent, for the access log ('-' when none). */
  bytes: number | '-';
  /** Set when a credit was spent for it: the transport calls it when the answer never reaches its client. */
  refund?: (() => void) | undefined;
  /** Set with `refund`: the transport calls it once all of the answer reached the kernel. */
  delivered?: (() => void) | undefined;
  /** The connection must end after it. */
  close: boolean;
  /** The body's bytes as a Latin-1 string, for writers that send strings faster (an answer kept whole, body-cache.ts). */
  latin1?: string | undefined;
}


/** The answer as sent to a request of `method`: a HEAD announces the GET's length; 204 and 304 have none. */
export function toWire(answer: HttpAnswer & { close?: boolean | undefined }, method: string): WireAnswer {
  const { status, headers } = answer;
  // Kept whole (body-cache.ts): its headers are complete, and shared, so never pushed to; a
  // GET is sent the kept answer itself.
  if (answer.prepared) {
    if (method !== 'HEAD') return answer as PreparedAnswer;
    return { status, headers, body: undefined, bytes: '-', refund: undefined, close: false };
  }
  const noLength = status === STATUS.notModified || status === STATUS.noContent;
  const body = noLength ? undefined : typeof answer.body === 'string' ? utf8(answer.body) : answer.body;
  headers.push('Content-Length', body ? String(body.length) : '0');
  const sent = method === 'HEAD' || !body ? undefined : body;
  return { status, headers, body: sent, bytes: sent ? sent.length : '-', refund: answer.refund, delivered: answer.delivered, close: answer.close === true };
}

/** The server's own envelope answer (status.ts; `code_error` the HTTP status), as sent to a request of `method`. */
export function envelope(answer: ServerAnswer, method = 'GET'): WireAnswer {
  return toWire(serverAnswer(answer), method);
}

/** The 500 envelope: what any failure while answering becomes. */
export function internalError(method: string): WireAnswer {
  return envelope(INTERNAL_ERROR, method);
}

/** Reports an unexpected failure (the transport's choice: stderr, its framework's `next`). */
export type FailureReport = (error: unknown) => void;

/** The wire answer to a request of `method` for what was decided: the 500 envelope if that rejects. */
export function wireOf(answer: (HttpAnswer & { close?: boolean | undefined }) | Promise<HttpAnswer & { close?: boolean | undefined }>, method: string, report: FailureReport): WireAnswer | Promise<WireAnswer> {
  if (!isPromise(answer)) return toWire(answer, method);
  return answer.then(
    (final) => toWire(final, method),
    (error: unknown) => {
      report(error);
      return internalError(method);
    },
  );
}

/**
 * Answers `request` with `respond`: what it decides, or the 500 envelope when it throws or
 * rejects (after `report`ing the error).
 */
export function answerWith(respond: Responder, request: HttpRequest, report: FailureReport): WireAnswer | Promise<WireAnswer> {
  try {
    return wireOf(respond(request), request.method, report);
  } catch (error) {
    report(error);
    return internalError(request.method);
  }
}
