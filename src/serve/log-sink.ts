/**
 * Where `serve --log` writes its lines: a file descriptor (stdout), written asynchronously and
 * never more than a bounded amount held. What it guarantees, whatever the reader does:
 * - serving never waits for the log, nor ends because of it;
 * - a reader that stalls makes lines be dropped past `maxHeldBytes` (counted, and said on
 *   stderr once it reads again), never memory that grows;
 * - a reader that goes away (EPIPE), a full disk (ENOSPC) or any other write error stops the
 *   log with one message on stderr; serving goes on.
 * Lines are written whole, at most PIPE_BUF bytes of whole lines per write, so the workers
 * sharing one pipe never interleave within a line.
 */
import { write as writeFd } from 'node:fs';

/** Lines held for a slow reader: past this, lines are dropped. */
export const MAX_HELD_BYTES = 1024 * 1024;
/** Bytes a pipe writes atomically on Linux (PIPE_BUF). */
const ATOMIC_BYTES = 4096;
/** How long to wait before writing again to a descriptor that is full (non-blocking). */
const RETRY_MS = 20;

/** Queues one line (without its newline). */
export type LogSink = (line: string) => void;

/** A log sink on descriptor `fd`; `warn` says on stderr what happened to the log. */
export function createLogSink(fd: number, warn: (message: string) => void, maxHeldBytes = MAX_HELD_BYTES): LogSink {
  const held: Buffer[] = [];
  let heldBytes = 0;
  let writing = false;
  let stopped = false;
  let dropped = 0;

  function stop(error: NodeJS.ErrnoException) {
    stopped = true;
    held.length = 0;
    heldBytes = 0;
    const why = error.code === 'EPIPE' ? 'its reader closed the pipe (EPIPE)' : `writing it failed (${error.code ?? error.message}${error.code === 'ENOSPC' ? ': no space left on the device' : ''})`;
    warn(`access log stopped: ${why}; still serving, without a log`);
  }

  function next() {
    if (stopped) return;
    if (held.length === 0) {
      writing = false;
      if (dropped > 0) {
        warn(`${dropped} access log lines were dropped: the log's reader was not reading`);
        dropped = 0;
      }
      return;
    }
    // Whole lines, up to PIPE_BUF bytes (one line longer than that goes alone).
    let count = 1;
    let bytes = held[0]!.length;
    while (count < held.length && bytes + held[count]!.length <= ATOMIC_BYTES) bytes += held[count++]!.length;
    const chunk = count === 1 ? held[0]! : Buffer.concat(held.slice(0, count), bytes);
    held.splice(0, count);
    heldBytes -= bytes;
    send(chunk, 0);
  }

  function send(chunk: Buffer, from: number) {
    writeFd(fd, chunk, from, chunk.length - from, null, (error, written) => {
      if (error?.code === 'EAGAIN') return void setTimeout(() => send(chunk, from), RETRY_MS).unref();
      if (error) return stop(error);
      if (from + written < chunk.length) return send(chunk, from + written);
      next();
    });
  }

  return function log(line: string) {
    if (stopped) return;
    const bytes = Buffer.from(`${line}\n`);
    if (heldBytes + bytes.length > maxHeldBytes) {
      if (dropped++ === 0) warn(`access log lines are being dropped: its reader is not reading (${heldBytes} bytes held)`);
      return;
    }
    held.push(bytes);
    heldBytes += bytes.length;
    if (!writing) {
      writing = true;
      next();
    }
  };
}
