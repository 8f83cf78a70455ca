/**
 * What one `cpmx serve` process allows each connection, and the defaults. Plain data, so the
 * command line can print the defaults in its help without loading the server.
 */

export interface ConnectionLimits {
  /** Connections held at once; at the limit a new one replaces the longest-waiting one, or gets 503. */
  maxConnections: number;
  /** The same, per client address (an IPv6 address counts by its /64 network). */
  maxConnectionsPerAddress: number;
  /** Requests a connection may have sent and not yet been answered; one more gets 503 and the connection closes. */
  maxPipelined: number;
  /**
   * Bytes of answers a connection may hold that its client has not read yet; past them, its
   * next requests wait (and its socket is not read) until the client reads.
   */
  maxUnsentBytes: number;
  /** Milliseconds a connection may stay silent: before its first byte, and between requests. */
  idleTimeout: number;
  /** Milliseconds from a request's first byte until its headers are complete. */
  headersTimeout: number;
  /** Milliseconds from a request's first byte until the whole request is received. */
  requestTimeout: number;
  /** Milliseconds a connection may hold unread answers without its client reading any. */
  sendTimeout: number;
}

export const DEFAULT_LIMITS: Readonly<ConnectionLimits> = {
  maxConnections: 1024,
  maxConnectionsPerAddress: 256,
  maxPipelined: 32,
  maxUnsentBytes: 64 * 1024,
  idleTimeout: 5_000,
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  sendTimeout: 30_000,
};

/**
 * Connections the kernel may hold for the server to accept (Node's default is 511; Linux caps
 * it at net.core.somaxconn). A burst of connections past it has the kernel drop handshakes,
 * and every client caught in it, however ordinary, waits a second for its SYN to be resent.
 */
export const LISTEN_BACKLOG = 4096;

/** A socket closed after an error answer is destroyed this long after, whatever its client does. */
export const LINGER_MS = 1_000;

/**
 * How often timeouts are checked: a twentieth of the shortest, so it fires within 5% of when it
 * says (Node's own check runs every 30 s by default), at least every second and at most every
 * 50 ms.
 */
export function checkInterval(limits: ConnectionLimits): number {
  const shortest = Math.min(limits.idleTimeout, limits.headersTimeout, limits.requestTimeout, limits.sendTimeout);
  return Math.max(50, Math.min(1_000, Math.floor(shortest / 20)));
}
