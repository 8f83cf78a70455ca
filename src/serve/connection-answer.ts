/**
 * Answers the server writes on a bare socket, outside Node's request/response objects: to a
 * malformed or timed-out request, a refused connection, a CONNECT. What they say comes from
 * the answer path (answer.ts), as every answer's does; here they are framed by hand, and the
 * socket is closed after them, for certain.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { WireAnswer } from '../http/answer.js';
import { LINGER_MS } from './connection-limits.js';

/** The bytes of an HTTP/1.1 response that closes its connection. */
export function rawResponse(answer: WireAnswer): Buffer {
  let head = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n`;
  for (let i = 0; i < answer.headers.length; i += 2) head += `${answer.headers[i]}: ${answer.headers[i + 1]}\r\n`;
  head += 'Connection: close\r\n\r\n';
  return answer.body ? Buffer.concat([Buffer.from(head, 'latin1'), answer.body]) : Buffer.from(head, 'latin1');
}

/**
 * Writes `answer` (when given) and closes the socket: its client gets a moment to read the
 * answer and close first, and the socket is destroyed after LINGER_MS whatever it does, so a
 * client that never closes cannot keep the connection slot (as a bare `end()` would). A credit
 * spent for the answer is given back unless all of it reached the kernel.
 */
export function closeWith(socket: Socket, answer: WireAnswer | undefined): void {
  if (socket.destroyed || !answer || !socket.writable) {
    answer?.refund?.();
    socket.destroy();
    return;
  }
  const refund = answer.refund;
  let written = false;
  socket.end(rawResponse(answer), () => {
    written = true;
    answer.delivered?.();
  });
  linger(socket);
  if (refund) socket.once('close', () => written || refund());
}

/** Destroys `socket` LINGER_MS from now unless it closes first. */
function linger(socket: Socket): void {
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/**
 * Ends `socket` after what is already written to it (an answer that closes its connection),
 * and destroys it LINGER_MS later whatever its client does.
 */
export function endSoon(socket: Socket): void {
  if (socket.destroyed) return;
  socket.end();
  linger(socket);
}
