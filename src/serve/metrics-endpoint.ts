/**
 * `GET /metrics` of `cpmx serve --metrics`: the whole server's numbers as Prometheus text. It
 * costs no credit and takes no API token; with a metrics token it answers only requests that
 * carry `Authorization: Bearer <token>` (401 otherwise). Not served with CORS headers: a page
 * of another origin has no business reading it.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { envelope, toWire, type WireAnswer } from '../http/answer.js';
import type { MetricsSnapshot, ServerMetrics } from './metrics.js';
import { METRICS_CONTENT_TYPE, renderMetrics } from './metrics-text.js';
import { bearerToken } from '../http/respond.js';

export const METRICS_PATH = '/metrics';

/** Whether `target` is /metrics (with a query or none). */
export function isMetricsTarget(target: string | undefined): boolean {
  return target?.startsWith(METRICS_PATH) === true && (target.length === METRICS_PATH.length || target.charAt(METRICS_PATH.length) === '?');
}

export interface MetricsEndpointOptions {
  /** Required as a Bearer token when given. */
  token?: string | undefined;
  /** The whole server's numbers (a cluster's workers summed); this process's alone by default. */
  collect?: (() => Promise<MetricsSnapshot>) | undefined;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function authorizationOf(req: IncomingMessage): string | undefined {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'authorization') return raw[i + 1];
  return undefined;
}

/** The counters a server keeps and the answer of its /metrics. */
export class MetricsEndpoint {
  readonly #token: Buffer | undefined;
  readonly #collect: (() => Promise<MetricsSnapshot>) | undefined;

  constructor(
    readonly counters: ServerMetrics,
    options: MetricsEndpointOptions = {},
  ) {
    this.#token = options.token === undefined ? undefined : digest(options.token);
    this.#collect = options.collect;
  }

  /** The answer to a request for /metrics. */
  answer(req: IncomingMessage): WireAnswer | Promise<WireAnswer> {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') return envelope(405, `Método HTTP ${method} no permitido en ${METRICS_PATH}; use GET, HEAD`, ['Allow', 'GET, HEAD'], method);
    if (this.#token) {
      const given = bearerToken(authorizationOf(req));
      // Compared as digests: equal lengths, and in constant time.
      if (given === undefined || !timingSafeEqual(digest(given), this.#token)) {
        return envelope(401, `${METRICS_PATH} requiere el token de métricas: Authorization: Bearer <token>`, ['WWW-Authenticate', 'Bearer realm="cpmx metrics"'], method);
      }
    }
    const text = (snapshot: MetricsSnapshot) =>
      toWire({ status: 200, headers: ['Content-Type', METRICS_CONTENT_TYPE, 'Cache-Control', 'no-store'], body: renderMetrics(snapshot) }, method);
    if (!this.#collect) return text(this.counters.snapshot());
    return this.#collect().then(text, (error: Error) => envelope(503, `Las métricas de los procesos no llegaron: ${error.message}`, ['Retry-After', '1'], method));
  }
}
