/**
 * The stdio transport of `cpmx mcp`: JSON-RPC messages one a line on stdin and stdout, as the
 * SDK's own StdioServerTransport carries them, with what that one lacks across the SDK
 * versions cpmx's peer range allows (from 1.24.0):
 * - Each incoming message is bounded (MAX_MESSAGE_BYTES). A longer one is not kept: it is
 *   answered with a JSON-RPC error under its id when the id can be read (message-id.ts), a
 *   parse error otherwise, a line on stderr says so, and the session goes on. (1.24.0 keeps
 *   any size; 1.32 ends the whole session silently past 10 MiB.)
 * - Reading is linear: the pieces of a message are kept as they come and joined once, when
 *   its line ends (the SDK joins the whole buffer again at every chunk).
 * - One 'drain' listener however many answers wait for a slow reader (the SDK adds one per
 *   answer, and Node warns past ten). Requests are still read meanwhile, as by the SDK: a
 *   client that sends everything before it reads anything must not find its own writes
 *   blocked by a server waiting for it to read.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MessageIdReader } from './message-id.js';

/** The largest message read, in bytes of its line: 4 MiB, far above any tool call cpmx takes. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** JSON-RPC's error codes for a message that could not be read, and for one that is not a valid request. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

const NEWLINE = 0x0a;

export interface LineTransportOptions {
  /** A line as a message (the SDK's schema checks it); throws when it is not one. */
  parse: (line: string) => JSONRPCMessage;
  /** Says something on stderr. */
  say: (line: string) => void;
  stdin?: NodeJS.ReadableStream | undefined;
  stdout?: NodeJS.WritableStream | undefined;
  /** The bound of a message; MAX_MESSAGE_BYTES by default. */
  maxMessageBytes?: number | undefined;
}

export class LineTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;

  readonly #stdin: NodeJS.ReadableStream;
  readonly #stdout: NodeJS.WritableStream;
  readonly #parse: (line: string) => JSONRPCMessage;
  readonly #say: (line: string) => void;
  readonly #max: number;
  /** The pieces of the message being read, and their length. */
  #pieces: Uint8Array[] = [];
  #length = 0;
  /** Set while the message being read is over the bound: its bytes pass through it and are not kept. */
  #oversized: MessageIdReader | undefined;
  /** Set while stdout is full: every answer sent meanwhile waits for the same 'drain'. */
  #drained: Promise<void> | undefined;
  #closed = false;

  constructor(options: LineTransportOptions) {
    this.#stdin = options.stdin ?? process.stdin;
    this.#stdout = options.stdout ?? process.stdout;
    this.#parse = options.parse;
    this.#say = options.say;
    this.#max = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  }

  async start(): Promise<void> {
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('error', this.#onError);
    // A client gone while answers wait (EPIPE) ends the session rather than the process.
    this.#stdout.on('error', this.#onStdoutError);
  }

  readonly #onError = (error: Error) => this.onerror?.(error);

  readonly #onStdoutError = (error: Error) => {
    this.onerror?.(error);
    void this.close();
  };

  readonly #onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    while (start < bytes.length && !this.#closed) {
      const newline = bytes.indexOf(NEWLINE, start);
      const end = newline < 0 ? bytes.length : newline;
      this.#take(bytes.subarray(start, end));
      if (newline < 0) return;
      this.#endMessage();
      start = newline + 1;
    }
  };

  /** Keeps a piece of the message being read, or passes it to the id reader once the message is over the bound. */
  #take(piece: Uint8Array): void {
    this.#length += piece.length;
    if (this.#oversized) {
      this.#oversized.feed(piece);
      return;
    }
    if (this.#length <= this.#max) {
      if (piece.length > 0) this.#pieces.push(piece);
      return;
    }
    this.#oversized = new MessageIdReader();
    for (const kept of this.#pieces) this.#oversized.feed(kept);
    this.#oversized.feed(piece);
    this.#pieces = [];
  }

  #endMessage(): void {
    const length = this.#length;
    const oversized = this.#oversized;
    const pieces = this.#pieces;
    this.#pieces = [];
    this.#length = 0;
    this.#oversized = undefined;
    if (oversized) {
      this.#refuse(oversized.id, length);
      return;
    }
    const line = (pieces.length === 1 ? Buffer.from(pieces[0]!) : Buffer.concat(pieces)).toString('utf8').replace(/\r$/, '');
    try {
      this.onmessage?.(this.#parse(line));
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  /** Answers a message over the bound, and says so on stderr. */
  #refuse(id: string | number | null, bytes: number): void {
    const limit = `${this.#max} bytes (${formatMiB(this.#max)})`;
    this.#say(`a message of ${bytes} bytes was refused (${id === null ? 'its id could not be read' : `id ${JSON.stringify(id)}`}): the limit is ${limit}; the session goes on`);
    const error =
      id === null
        ? { code: PARSE_ERROR, message: `Parse error: the message is larger than ${limit} and was not read` }
        : { code: INVALID_REQUEST, message: `Invalid request: the message has ${bytes} bytes, more than the limit of ${limit}` };
    // Not a JSONRPCMessage to the SDK's types when its id is null, as JSON-RPC says a parse error's is.
    void this.#write({ jsonrpc: '2.0', id, error });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.#write(message);
  }

  #write(message: object): Promise<void> {
    if (this.#stdout.write(`${JSON.stringify(message)}\n`) && this.#drained === undefined) return Promise.resolve();
    this.#drained ??= new Promise<void>((resolve) => {
      this.#stdout.once('drain', () => {
        this.#drained = undefined;
        resolve();
      });
    });
    return this.#drained;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('error', this.#onError);
    this.#stdout.off('error', this.#onStdoutError);
    // Paused only when nothing else reads stdin, as the SDK's transport does.
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause();
    this.#pieces = [];
    this.#oversized = undefined;
    this.onclose?.();
  }
}

function formatMiB(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 2)} MiB`;
}
