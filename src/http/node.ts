/**
 * The node:http side of the answer path, for `cpmx serve` and the middleware alike: a request
 * read for it, the headers it needs taken from the raw list in one pass (touching
 * `req.headers` would make Node build the whole headers object for every request), and its
 * answer written, a credit kept only for an answer that was written: every byte of it handed
 * to the operating system for the client's connection ('finish'). An answer whose connection
 * closed first (the client gave up, a timeout, the server cutting requests at shutdown) gets
 * its credit back.
 */
import { answerWith, envelope, type FailureReport, type WireAnswer } from './answer.js';
import type { NodeRequest as NodeRequestHead, NodeResponse } from './node-types.js';
import { SERVER_ANSWERS, type ServerAnswer } from '../wire/status.js';
import type { HttpRequest, Responder } from './respond.js';

/** A request as node:http gives it (the middleware's frameworks give the same); its version where known. */
type IncomingRequest = NodeRequestHead & { httpVersionMajor?: number; httpVersionMinor?: number };

export interface NodeRequest extends HttpRequest {
  /** Why it is answered with an error before it is read further, its connection closed after it. */
  refusal?: ServerAnswer | undefined;
}

/**
 * Whether a request's Transfer-Encoding frames a body Node can read: its last coding must be
 * `chunked` (RFC 9112 section 6.3); any other leaves the request's end unknown.
 */
function framed(transferEncoding: string): boolean {
  const last = transferEncoding.slice(transferEncoding.lastIndexOf(',') + 1).trim();
  return last.length === 7 && last.toLowerCase() === 'chunked';
}

/** Whether an Expect header asks only what Node does itself (`100-continue`, answered before the request). */
function expected(expect: string): boolean {
  return /(?:^|\W)100-continue(?:$|\W)/i.test(expect);
}

/**
 * Reads a request head for the answer path: its method, target (below a mount prefix), raw
 * header list and whether it is HTTP/1.1. With `requireHost`, an HTTP/1.1 request without
 * Host is refused (RFC 9112 section 3.2; Node's own refusal has an empty body).
 */
export function readRequestHead(method: string, target: string, raw: string[], http11: boolean, requireHost: boolean): NodeRequest {
  let ifNoneMatch: string | undefined;
  let authorization: string | undefined;
  let requestHeaders: string | undefined;
  let refusal: ServerAnswer | undefined;
  let host = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    switch (name.length) {
      case 4:
        if (name === 'Host' || name === 'host' || name.toLowerCase() === 'host') host = true;
        break;
      case 6:
        if (name.toLowerCase() === 'expect' && !expected(raw[i + 1]!)) refusal ??= SERVER_ANSWERS.unsupportedExpectation;
        break;
      case 13: {
        const lower = name.toLowerCase();
        if (lower === 'if-none-match') ifNoneMatch ??= raw[i + 1];
        else if (lower === 'authorization') authorization ??= raw[i + 1];
        break;
      }
      case 17:
        if (name.toLowerCase() === 'transfer-encoding' && !framed(raw[i + 1]!)) refusal = SERVER_ANSWERS.unframedBody;
        break;
      case 30:
        if (method === 'OPTIONS' && name.toLowerCase() === 'access-control-request-headers') requestHeaders ??= raw[i + 1];
        break;
    }
  }
  if (requireHost && !host && http11) refusal ??= SERVER_ANSWERS.noHost;
  return { method, target, ifNoneMatch, authorization, requestHeaders, refusal };
}

/** Reads `req` for the answer path, its target given (below a mount prefix). */
export function readNodeRequest(req: IncomingRequest, target: string, requireHost: boolean): NodeRequest {
  return readRequestHead(req.method ?? 'GET', target, req.rawHeaders, req.httpVersionMajor === 1 && req.httpVersionMinor === 1, requireHost);
}

/** Writes `answer` on `res` (ending its connection after it when `close`), refunding its credit if it is never written. */
export function writeNodeAnswer(res: NodeResponse, answer: WireAnswer, close = answer.close): void {
  // Before the write: Node reports an answer ended on a connection already gone as finished.
  if (answer.refund) refundUnlessWritten(res, answer.refund, answer.delivered);
  // A copy: the headers of an answer kept whole are shared by every request for it.
  res.writeHead(answer.status, close ? [...answer.headers, 'Connection', 'close'] : answer.headers);
  // The same bytes: a string body leaves in one write with the header block (body-cache.ts).
  if (answer.latin1 !== undefined) res.end(answer.latin1, 'latin1');
  else if (answer.body) res.end(answer.body);
  else res.end();
}

/**
 * Call before writing an answer that spent a credit. The connection is looked at first: once
 * the client has closed its side, Node ends ours (no longer writable) before it is destroyed,
 * and an answer ended on it would still be reported 'finish'ed.
 */
export function refundUnlessWritten(res: NodeResponse, refund: () => void, delivered?: () => void): void {
  const socket = res.socket;
  if (res.destroyed || !socket || socket.destroyed || !socket.writable) {
    refund();
    return;
  }
  let written = false;
  res.once('finish', () => {
    written = true;
    delivered?.();
  });
  res.once('close', () => {
    if (!written) refund();
  });
}

/**
 * The wire answer to `req` (its target given, below a mount prefix): a refused request's 400,
 * closing its connection, or what `respond` decides.
 */
export function answerNode(respond: Responder, req: IncomingRequest, target: string, requireHost: boolean, report: FailureReport): WireAnswer | Promise<WireAnswer> {
  return answerHead(respond, readNodeRequest(req, target, requireHost), report);
}

/** The wire answer to a request read by `readRequestHead`: its refusal, closing the connection, or what `respond` decides. */
export function answerHead(respond: Responder, request: NodeRequest, report: FailureReport): WireAnswer | Promise<WireAnswer> {
  if (request.refusal === undefined) return answerWith(respond, request, report);
  const refused = envelope(request.refusal, request.method);
  refused.close = true;
  return refused;
}
