/**
 * Answers the server writes on a bare socket, outside Node's request/response objects: to a
 * malformed or timed-out request, a refused connection, a CONNECT. Each is the envelope with the
 * HTTP status as `code_error`, and the socket is closed after it, for certain.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { serverError } from '../core/contract.js';
import { LINGER_MS } from './connection-limits.js';
import type { HttpAnswer } from './respond.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** An answer the server makes itself (outside the contract's table): the envelope, JSON, CORS. */
export function serverAnswer(status: number, message: string, extraHeaders: string[] = []): HttpAnswer {
  return {
    status,
    headers: ['Content-Type', JSON_TYPE, 'Access-Control-Allow-Origin', '*', ...extraHeaders],
    body: JSON.stringify(serverError(status, message)),
  };
}

/** The bytes of an HTTP/1.1 response that closes its connection. */
export function rawResponse(answer: HttpAnswer): string {
  let head = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n`;
  for (let i = 0; i < answer.headers.length; i += 2) head += `${answer.headers[i]}: ${answer.headers[i + 1]}\r\n`;
  return `${head}Content-Length: ${Buffer.byteLength(answer.body)}\r\nConnection: close\r\n\r\n${answer.body}`;
}

/**
 * Writes `answer` (when given) and closes the socket: its client gets a moment to read the
 * answer and close first, and the socket is destroyed after LINGER_MS whatever it does, so a
 * client that never closes cannot keep the connection slot (as a bare `end()` would).
 */
export function closeWith(socket: Socket, answer: HttpAnswer | undefined): void {
  if (socket.destroyed) return;
  if (!answer || !socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(rawResponse(answer));
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
}
