/** HTTP/1.1 spoken by hand over a socket, for what fetch cannot send or would correct. */
import { connect } from 'node:net';

/** The answer to one raw HTTP exchange on its own connection. */
export interface Exchange {
  /** What the server sent until it closed the connection (or until the exchange gave up). */
  text: string;
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
export function exchange(port: number, request: string, options: { localAddress?: string; timeoutMs?: number } = {}): Promise<Exchange> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: options.localAddress ?? '127.0.0.1' }, () => socket.write(request));
    let text = '';
    let error: string | undefined;
    const timer = setTimeout(() => {
      error = 'timeout';
      socket.destroy();
    }, options.timeoutMs ?? 10_000);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on('close', () => {
      clearTimeout(timer);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
      resolve({ text, status: status === undefined ? undefined : Number(status), ms: performance.now() - started, ...(error ? { error } : {}) });
    });
  });
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
