/**
 * One HTTP exchange with node:http/https, bounded three ways: a connect timeout, an idle timeout
 * (no byte for that long), and the caller's signal (which carries the total timeout). Every
 * failure comes out as a DownloadError saying which of them it was; a body that stops short of
 * its Content-Length, or whose socket closes mid-body, is a cut connection, never a short file.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { DownloadError } from './errors.js';

export interface Timeouts {
  connectMs: number;
  idleMs: number;
}

export interface ExchangeRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: string;
  timeouts: Timeouts;
  /** Aborting it ends the exchange at once; its reason (a DownloadError) is what is thrown. */
  signal: AbortSignal;
  /** Larger answers are refused as `too-large`, by Content-Length before reading when it is given. */
  maxBytes: number;
  onProgress?: (bytesReceived: number, totalBytes: number | undefined) => void;
}

export interface ExchangeResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Codes that say nothing answered at that address: no network, no name, nothing listening. */
const UNREACHABLE = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EHOSTDOWN', 'ETIMEDOUT', 'EADDRNOTAVAIL']);

export function exchange(request: ExchangeRequest): Promise<ExchangeResponse> {
  const { url, timeouts, signal, maxBytes } = request;
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    let settled = false;
    // agent: false, a fresh connection per exchange: nothing idles in a pool after the download.
    const client = transport.request(url, {
      method: request.method,
      headers: request.body === undefined ? request.headers : { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
      agent: false,
    });
    const connectTimer = setTimeout(
      () => fail(new DownloadError('unreachable', `no connection to ${url.host} within ${timeouts.connectMs} ms`, { transient: true })),
      timeouts.connectMs,
    );
    const onAbort = () => fail(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });

    function settle() {
      settled = true;
      clearTimeout(connectTimer);
      signal.removeEventListener('abort', onAbort);
    }
    function fail(error: unknown) {
      if (settled) return;
      settle();
      client.destroy();
      reject(error);
    }

    client.on('socket', (socket) => socket.once('connect', () => clearTimeout(connectTimer)));
    client.setTimeout(timeouts.idleMs, () =>
      fail(new DownloadError('timeout', `${url.host} sent nothing for ${timeouts.idleMs} ms`, { transient: true })),
    );
    client.on('error', (error: NodeJS.ErrnoException) => fail(classify(error, url)));
    client.on('response', (response) => {
      clearTimeout(connectTimer);
      const declared = contentLength(response.headers['content-length']);
      if (declared !== undefined && declared > maxBytes) return fail(tooLarge(url, declared, maxBytes));
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxBytes) return fail(tooLarge(url, received, maxBytes));
        chunks.push(chunk);
        try {
          request.onProgress?.(received, declared);
        } catch (error) {
          fail(error);
        }
      });
      response.on('error', () => fail(cut(url, received, declared)));
      response.on('close', () => {
        if (!response.complete) fail(cut(url, received, declared));
      });
      response.on('end', () => {
        if (settled) return;
        if (declared !== undefined && received !== declared) return fail(cut(url, received, declared));
        settle();
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks, received) });
      });
    });
    client.end(request.body);
  });
}

function classify(error: NodeJS.ErrnoException, url: URL): DownloadError {
  const code = error.code ?? '';
  if (UNREACHABLE.has(code)) {
    const why = code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? `the name ${url.hostname} cannot be resolved (no network or no DNS)` : describe(error);
    return new DownloadError('unreachable', `cannot reach ${url.host}: ${why}`, { transient: true, cause: error });
  }
  if (code === 'ECONNRESET' || code === 'EPIPE') {
    return new DownloadError('cut-connection', `${url.host} closed the connection before answering (${describe(error)})`, { transient: true, cause: error });
  }
  if (/CERT|^UNABLE_TO_|^ERR_TLS|^ERR_SSL|^EPROTO$/.test(code)) {
    // Not worth retrying, and never worked around by turning verification off.
    return new DownloadError('unreachable', `cannot reach ${url.host} securely: ${describe(error)} (a missing certificate authority can be added with NODE_EXTRA_CA_CERTS)`, { cause: error });
  }
  return new DownloadError('unreachable', `cannot reach ${url.host}: ${describe(error)}`, { transient: true, cause: error });
}

function cut(url: URL, received: number, declared: number | undefined): DownloadError {
  const expected = declared === undefined ? '' : ` of the ${declared} announced`;
  return new DownloadError('cut-connection', `the connection to ${url.host} was cut after ${received} bytes${expected}`, { transient: true });
}

function tooLarge(url: URL, bytes: number, maxBytes: number): DownloadError {
  return new DownloadError('too-large', `${url.host} sent ${bytes} bytes or more, over the limit of ${maxBytes}`);
}

function contentLength(header: string | undefined): number | undefined {
  return header !== undefined && /^\d+$/.test(header.trim()) ? Number(header) : undefined;
}

function describe(error: NodeJS.ErrnoException): string {
  return error.code && !error.message.includes(error.code) ? `${error.code}, ${error.message}` : error.message;
}
