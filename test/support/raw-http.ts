/** HTTP/1.1 spoken by hand over a socket, for what fetch cannot send or would correct. */
import { connect, type Socket } from 'node:net';

/** The answer to one raw HTTP exchange on its own connection. */
export interface Exchange {
  /** What the server sent until it closed the connection (or until the exchange gave up). */
  text: string;
  bytes: Buffer;
  /** The status of the first response, or undefined when none came. */
  status: number | undefined;
  /** Milliseconds from connecting to the close. */
  ms: number;
  /** A socket error, if one ended it. */
  error?: string;
}

/**
 * Connects (from `localAddress`), writes `request`, and reads until the server closes, or until
 * `timeoutMs` (then the socket is destroyed and what came so far is returned).
 */
export function exchange(port: number, request: string | Buffer, options: { localAddress?: string; timeoutMs?: number } = {}): Promise<Exchange> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: options.localAddress ?? '127.0.0.1' }, () => socket.write(request));
    const chunks: Buffer[] = [];
    let error: string | undefined;
    const timer = setTimeout(() => {
      error = 'timeout';
      socket.destroy();
    }, options.timeoutMs ?? 10_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on('close', () => {
      clearTimeout(timer);
      const bytes = Buffer.concat(chunks);
      const text = bytes.toString();
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
      resolve({ text, bytes, status: status === undefined ? undefined : Number(status), ms: performance.now() - started, ...(error ? { error } : {}) });
    });
  });
}

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/** The responses in what a connection received, one after another (each must carry Content-Length). */
export function responses(bytes: Buffer): RawResponse[] {
  const found: RawResponse[] = [];
  let at = 0;
  while (at < bytes.length) {
    const headEnd = bytes.indexOf('\r\n\r\n', at);
    if (headEnd < 0) throw new Error(`an unfinished response at byte ${at}: ${bytes.subarray(at, at + 80).toString()}`);
    const [statusLine = '', ...lines] = bytes.subarray(at, headEnd).toString().split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length']);
    found.push({ status: Number(statusLine.split(' ')[1]), headers, body: bytes.subarray(headEnd + 4, headEnd + 4 + length).toString() });
    at = headEnd + 4 + length;
  }
  return found;
}

/** The first JSON body in a raw HTTP response. */
export function bodyOf(text: string): unknown {
  const start = text.indexOf('\r\n\r\n');
  const length = Number(/\r\ncontent-length: (\d+)/i.exec(text)?.[1] ?? Number.NaN);
  return JSON.parse(text.slice(start + 4, start + 4 + length));
}

/** `count` pipelined GETs of `path`, as one string. */
export function pipelined(path: string, count: number): string {
  return `GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`.repeat(count);
}

/**
 * One keep-alive connection that sends batches of pipelined GETs and reads their answers back
 * in order (each answer must carry Content-Length, as cpmx's do).
 */
export class PipelinedConnection {
  readonly #socket: Socket;
  readonly #connected: Promise<void>;
  #buffer: Buffer = Buffer.alloc(0);
  #waiting: { count: number; found: RawResponse[]; resolve: (answers: RawResponse[]) => void; reject: (error: Error) => void } | undefined;

  constructor(port: number) {
    this.#socket = connect(port, '127.0.0.1');
    this.#connected = new Promise((resolve, reject) => {
      this.#socket.once('connect', resolve);
      this.#socket.once('error', reject);
    });
    this.#socket.on('data', (chunk: Buffer) => {
      this.#buffer = this.#buffer.length ? Buffer.concat([this.#buffer, chunk]) : chunk;
      this.#parse();
    });
    this.#socket.on('close', () => this.#waiting?.reject(new Error(`the server closed the connection with ${this.#waiting.count - this.#waiting.found.length} answers missing`)));
  }

  /** Sends GETs of `targets` in one write; resolves with their answers, in order. */
  async get(targets: string[]): Promise<RawResponse[]> {
    await this.#connected;
    return new Promise((resolve, reject) => {
      this.#waiting = { count: targets.length, found: [], resolve, reject };
      this.#socket.write(targets.map((target) => `GET ${target} HTTP/1.1\r\nHost: localhost\r\n\r\n`).join(''));
    });
  }

  #parse(): void {
    const waiting = this.#waiting;
    while (waiting) {
      const headEnd = this.#buffer.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(this.#buffer.subarray(0, headEnd).toString())?.[1]);
      if (this.#buffer.length < headEnd + 4 + length) return;
      const [answer] = responses(this.#buffer.subarray(0, headEnd + 4 + length));
      this.#buffer = this.#buffer.subarray(headEnd + 4 + length);
      waiting.found.push(answer!);
      if (waiting.found.length === waiting.count) {
        this.#waiting = undefined;
        waiting.resolve(waiting.found);
        return;
      }
    }
  }

  close(): void {
    this.#socket.end();
  }
}
