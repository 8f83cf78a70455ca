/**
 * A credit is kept only for an answer that was written: every byte of it handed to the
 * operating system for the client's connection ('finish'). An answer whose connection closed
 * first (the client gave up, a timeout, the server cutting requests at shutdown) gets its
 * credit back.
 */
import type { ServerResponse } from 'node:http';

/**
 * Call before writing an answer that spent a credit. (After `end()`, Node reports a response
 * whose connection was already gone as finished, so the check must come first.)
 */
export function refundUnlessWritten(res: ServerResponse, refund: () => void): void {
  if (res.destroyed) {
    refund();
    return;
  }
  let written = false;
  res.once('finish', () => {
    written = true;
  });
  res.once('close', () => {
    if (!written) refund();
  });
}
