/**
 * A credit is kept only for an answer that was written: every byte of it handed to the
 * operating system for the client's connection ('finish'). An answer whose connection closed
 * first (the client gave up, a timeout, the server cutting requests at shutdown) gets its
 * credit back.
 */
import type { NodeResponse } from './node-types.js';

/**
 * Call before writing an answer that spent a credit. The connection is looked at first: once
 * the client has closed its side, Node ends ours (no longer writable) before it is destroyed,
 * and an answer ended on it would still be reported 'finish'ed.
 */
export function refundUnlessWritten(res: NodeResponse, refund: () => void): void {
  const socket = res.socket;
  if (res.destroyed || !socket || socket.destroyed || !socket.writable) {
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
