/**
 * Keeps any one client from taking the server from the others: how many connections it may
 * hold, how long a connection may sit silent or leave its answers unread, and how many of its
 * answers the server holds for it. What Node's http module does per request stays as it is;
 * this sees each connection come, each request arrive and each answer leave.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { checkInterval, type ConnectionLimits } from './connection-limits.js';
import type { LimitLabel } from './metrics.js';

/** One accepted connection, as the guard follows it. */
interface Connection {
  readonly socket: Socket;
  /** The client's address as limits count it. */
  readonly address: string;
  readonly opened: number;
  /**
   * When its client last sent a request or took an answer (ms since the epoch), as the guard
   * last looked (`noteProgress`): no clock is read per request.
   */
  lastProgress: number;
  /** `received + finished` when `lastProgress` was last brought up to date: any other sum is progress since. */
  progressSeen: number;
  /** Requests received on it. */
  received: number;
  /** Answers handed to the kernel, to be read by the client. */
  finished: number;
  /** Answers being computed (an asynchronous token registry): such a connection is busy, never evicted. */
  computing: number;
  /** Bytes of answers given to Node and not yet handed to the kernel. */
  unsentBytes: number;
  /** Requests that wait until the client reads earlier answers. */
  waiting: (() => void)[];
  /** Told that it closes (too many requests pipelined): later requests on it are not answered. */
  closing: boolean;
  /** Requests received after that. */
  dropped: number;
  /** The limit's value, here for `answerWritten`. */
  readonly maxUnsentBytes: number;
}

/** What `onIncoming` returns to make Node's parser stop where it is (its value for an upgrade). */
const STOP_PARSING = 2;

/** The part of Node's HTTP parser (internal to node:http) that hands each parsed request on. */
interface RequestParser {
  onIncoming?: (req: IncomingMessage, keepAlive: boolean) => number;
}

function parserOf(socket: Socket): RequestParser | undefined {
  return (socket as Socket & { parser?: RequestParser }).parser;
}

/** How the server answers what the guard decides. Every answer started must come back through `sent`. */
export interface GuardedServer {
  /** Answers a request. */
  answer(req: IncomingMessage, res: ServerResponse): void;
  /** Answers 503 and closes the connection: its client pipelined more requests than allowed. */
  overflow(req: IncomingMessage, res: ServerResponse): void;
  /** Answers a connection refused at a connection limit and closes it. */
  refuse(socket: Socket, limit: LimitLabel): void;
  /** Told when a connection held is closed because of `limit` (for metrics). */
  closed?: ((limit: LimitLabel) => void) | undefined;
}

/**
 * The key a client's connections are counted under: its IPv4 address (also when IPv4-mapped),
 * or the /64 network of its IPv6 address, as one host usually holds a whole /64.
 */
export function addressKey(address: string | undefined): string {
  if (address === undefined) return '';
  if (address.startsWith('::ffff:') && address.includes('.')) return address.slice(7);
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = address.includes('::') && tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...headGroups, ...Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0'), ...tailGroups] : headGroups;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, '').toLowerCase())
    .join(':')}::/64`;
}

const kConnection = Symbol('cpmx.connection');
const kBytes = Symbol('cpmx.bytes');
type TrackedResponse = ServerResponse & { [kConnection]: Connection; [kBytes]: number };
/** A socket carries its connection while the guard holds it: cheaper to read than a map. */
type TrackedSocket = Socket & { [kConnection]?: Connection | undefined };

function connectionOf(socket: Socket): Connection | undefined {
  return (socket as TrackedSocket)[kConnection];
}

/**
 * Brings `lastProgress` up to `now` when the client sent a request or took an answer since it
 * was last looked at. Requests only count; the clock is read where progress is weighed (each
 * sweep, an eviction), so `lastProgress` may be later than the progress by up to a sweep's
 * interval, never earlier: a timeout never fires early.
 */
function noteProgress(connection: Connection, now: number): void {
  const progress = connection.received + connection.finished;
  if (progress === connection.progressSeen) return;
  connection.progressSeen = progress;
  connection.lastProgress = now;
}

/**
 * An answer was handed to the kernel (its `finish`): the client is reading, so the requests
 * that waited for it are answered, while the unread answers stay within the bound.
 */
function answerWritten(this: TrackedResponse): void {
  const connection = this[kConnection];
  connection.finished++;
  connection.unsentBytes -= this[kBytes];
  connection.lastProgress = Date.now();
  const waiting = connection.waiting;
  while (waiting.length > 0 && connection.unsentBytes <= connection.maxUnsentBytes) waiting.shift()!();
}

export class ConnectionGuard {
  /** Every connection held. */
  readonly #connections = new Map<Socket, Connection>();
  readonly #byAddress = new Map<string, Set<Connection>>();
  readonly #limits: ConnectionLimits;
  readonly #server: GuardedServer;

  constructor(server: Server, limits: ConnectionLimits, handlers: GuardedServer) {
    this.#limits = limits;
    this.#server = handlers;
    server.on('connection', (socket: Socket) => this.#admit(socket));
    // Twice per check interval: progress is stamped by the sweep that sees it (`noteProgress`),
    // so a send timeout fires within one check interval of when it says, as Node's own do.
    const sweeper = setInterval(() => this.#sweep(), checkInterval(limits) / 2);
    sweeper.unref();
    server.once('close', () => clearInterval(sweeper));
  }

  /**
   * A new connection: held; at a limit, held in place of the connection that has waited
   * longest for its client among those of the address holding the most connections (its own
   * address, at the per-address limit), so that whoever holds many slots gives one up, never
   * a client holding few; refused when all of those are busy being answered.
   */
  #admit(socket: Socket): void {
    const address = addressKey(socket.remoteAddress);
    let peers = this.#byAddress.get(address);
    const atAddressLimit = peers !== undefined && peers.size >= this.#limits.maxConnectionsPerAddress;
    if (atAddressLimit || this.#connections.size >= this.#limits.maxConnections) {
      const limit = atAddressLimit ? 'max_connections_per_address' : 'max_connections';
      const evicted = this.#evictFrom(atAddressLimit ? peers! : this.#largestAddress());
      if (!evicted) {
        // Whatever its client sends is not parsed into requests that would wait for the close.
        const parser = parserOf(socket);
        if (typeof parser?.onIncoming === 'function') parser.onIncoming = () => STOP_PARSING;
        this.#server.refuse(socket, limit);
        return;
      }
      this.#server.closed?.(limit);
    }
    const now = Date.now();
    const connection: Connection = { socket, address, opened: now, lastProgress: now, progressSeen: 0, received: 0, finished: 0, computing: 0, unsentBytes: 0, waiting: [], closing: false, dropped: 0, maxUnsentBytes: this.#limits.maxUnsentBytes };
    this.#connections.set(socket, connection);
    (socket as TrackedSocket)[kConnection] = connection;
    if (!peers) this.#byAddress.set(address, (peers = new Set()));
    peers.add(connection);
    socket.once('close', () => this.#forget(connection));
  }

  /** The connections of the address that holds the most. */
  #largestAddress(): Set<Connection> {
    let largest = new Set<Connection>();
    for (const peers of this.#byAddress.values()) if (peers.size > largest.size) largest = peers;
    return largest;
  }

  /** Closes the connection of `peers` that has waited longest for its client; false when all are busy being answered. */
  #evictFrom(peers: Set<Connection>): boolean {
    let oldest: Connection | undefined;
    const now = Date.now();
    for (const connection of peers) {
      noteProgress(connection, now);
      if (connection.computing === 0 && (!oldest || connection.lastProgress < oldest.lastProgress)) oldest = connection;
    }
    if (!oldest) return false;
    this.#drop(oldest);
    return true;
  }

  /**
   * Requests on a closing connection never reach Node's request and response objects: those
   * would be held, with the connection, until it closes, and one read can carry thousands of
   * pipelined requests. Node's parser hands each parsed request to its `onIncoming`, which is
   * wrapped here once the connection is told it closes (the parser looks it up for each request,
   * so the rest of a read already being parsed is dropped too; until then requests go straight
   * to Node's, with no call in between); where that internal is missing, `request` drops them
   * instead (the same answers, more memory held for a moment).
   */
  #interceptRequests(connection: Connection): void {
    const parser = parserOf(connection.socket);
    // Installed once the connection closes, and it never reopens: every request after is dropped.
    if (typeof parser?.onIncoming === 'function') parser.onIncoming = () => this.#dropRequest(connection);
  }

  /**
   * A request sent after the connection was told it closes: dropped unanswered (the client
   * resends it on another connection, as HTTP pipelining requires). Past as many again as the
   * cap, its client is not reading at all, and the connection goes at once. The answer is for
   * Node's parser: 0 parses on, 2 stops parsing what it has read (as for a protocol upgrade;
   * the socket is destroyed, so nothing is left to parse).
   */
  #dropRequest(connection: Connection): number {
    if (++connection.dropped <= this.#limits.maxPipelined) return 0;
    this.#drop(connection);
    return STOP_PARSING;
  }

  /** A request arrived: answered now, once the client has read enough, or (past the pipelining cap) not at all. */
  request(req: IncomingMessage, res: ServerResponse): void {
    const connection = connectionOf(req.socket);
    if (!connection) return; // refused or evicted: its socket is being closed
    if (connection.closing) {
      // Only where Node's parser could not be intercepted (#interceptRequests); rare.
      connection.lastProgress = Date.now();
      this.#dropRequest(connection);
      return;
    }
    if (++connection.received - connection.finished > this.#limits.maxPipelined) {
      connection.closing = true;
      this.#interceptRequests(connection);
      connection.computing++;
      this.#server.closed?.('max_pipelined');
      this.#server.overflow(req, res);
      return;
    }
    if (connection.waiting.length > 0 || connection.unsentBytes > this.#limits.maxUnsentBytes) {
      connection.waiting.push(() => this.#answer(connection, req, res));
      return;
    }
    this.#answer(connection, req, res);
  }

  #answer(connection: Connection, req: IncomingMessage, res: ServerResponse): void {
    if (connection.socket.destroyed) return;
    connection.computing++;
    this.#server.answer(req, res);
  }

  /** An answer was given to Node: `bytes` more to send on the request's connection. */
  sent(req: IncomingMessage, res: ServerResponse, bytes: number): void {
    const connection = connectionOf(req.socket);
    if (!connection) return;
    connection.computing--;
    // Usually the answer went on its socket and straight into the kernel: it is as good as
    // written, and needs no listener.
    if (res.socket !== null && req.socket.writableLength === 0) {
      connection.finished++;
      return;
    }
    connection.unsentBytes += bytes;
    // One shared listener and two fields rather than a closure and a `once` wrapper per answer.
    const tracked = res as TrackedResponse;
    tracked[kConnection] = connection;
    tracked[kBytes] = bytes;
    res.on('finish', answerWritten);
  }

  /** Connections held now. */
  get held(): number {
    return this.#connections.size;
  }

  /** Whether answers on this socket are still to be written (an error answer written now would come before them). */
  answering(socket: Socket): boolean {
    const connection = connectionOf(socket);
    return connection !== undefined && connection.received > connection.finished;
  }

  /**
   * Closes connections that never sent a byte within the idle timeout, and connections whose
   * client has not read any of their answers within the send timeout. (Headers and request
   * timeouts are Node's, checked at the same pace; idle time between requests is its keep-alive
   * timeout.)
   */
  #sweep(): void {
    const now = Date.now();
    const { idleTimeout, sendTimeout } = this.#limits;
    for (const connection of this.#connections.values()) {
      noteProgress(connection, now);
      if (connection.socket.bytesRead === 0) {
        if (now - connection.opened >= idleTimeout) this.#drop(connection, 'idle_timeout');
      } else if (connection.computing === 0 && connection.received > connection.finished && now - connection.lastProgress >= sendTimeout) {
        this.#drop(connection, 'send_timeout');
      }
    }
  }

  #drop(connection: Connection, limit?: LimitLabel): void {
    if (limit) this.#server.closed?.(limit);
    this.#forget(connection);
    connection.socket.destroy();
  }

  #forget(connection: Connection): void {
    if (this.#connections.get(connection.socket) !== connection) return;
    this.#connections.delete(connection.socket);
    (connection.socket as TrackedSocket)[kConnection] = undefined;
    connection.waiting.length = 0;
    const peers = this.#byAddress.get(connection.address);
    peers?.delete(connection);
    if (peers?.size === 0) this.#byAddress.delete(connection.address);
  }
}
