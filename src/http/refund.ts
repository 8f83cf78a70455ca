/**
 * A credit is kept only for an answer that was written: every byte of it handed to the
 * operating system for the client's connection ('finish'). An answer whose connection closed
 * first (the client gave up, a timeout, the server cutting requests at shutdown) gets its
 * credit back.
 */
import type { ServerResponse } from 'node:http';

/** Call after `res.end(...)` of an answer that spent a credit. */
export function refundUnlessWritten(res: ServerResponse, refund: () => void): void {
  if (res.writableFinished) return;
  if (res.destroyed) {
    refund();
    return;
  }
  res.once('close', () => {
    if (!res.writableFinished) refund();
  });
}
