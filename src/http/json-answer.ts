/**
 * The JSON answers the HTTP side makes itself: their headers, and the server's own envelope
 * (status.ts). Apart from respond.ts so that what only answers a failure (a handler whose request
 * side could not be loaded, deferred-middleware.ts, in the bundle a lookup loads) carries none of
 * the answer path.
 */
import { serverError } from '../core/contract.js';
import type { HttpAnswer } from '../wire/http-answer.js';
import type { ServerAnswer } from '../wire/statuses.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** A JSON answer: its type and CORS header, then `extra`. */
export function json(status: number, body: string, extra?: readonly string[]): HttpAnswer {
  const headers = ['Content-Type', JSON_TYPE, 'Access-Control-Allow-Origin', '*'];
  if (extra) headers.push(...extra);
  return { status, headers, body };
}

/** An answer the server makes itself (outside the contract's table, status.ts): the envelope with the HTTP status as `code_error`. */
export function serverAnswer(answer: ServerAnswer): HttpAnswer {
  return json(answer.status, JSON.stringify(serverError(answer.status, answer.message)), answer.headers);
}
