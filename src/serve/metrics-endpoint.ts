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
import { readNodeRequest } from '../http/node.js';
import { bearerToken, isRead, targetIs } from '../wire/request-checks.js';
import { methodNotAllowed, metricsUnavailable, STATUS, tokenRequired } from '../wire/status.js';

export const METRICS_PATH = '/metrics';

/** Whether `target` is /metrics (with a query or none). */
export function isMetricsTarget(target: string | undefined): boolean {
  return target !== undefined && targetIs(target, METRICS_PATH);
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
    if (!isRead(method)) return envelope(methodNotAllowed(method, METRICS_PATH), method);
    if (this.#token) {
      // The Authorization header as the answer path reads it (the first of that name).
      const given = bearerToken(readNodeRequest(req, METRICS_PATH, false).authorization);
      // Compared as digests: equal lengths, and in constant time.
      if (given === undefined || !timingSafeEqual(digest(given), this.#token)) {
        return envelope(tokenRequired(METRICS_PATH, 'cpmx metrics'), method);
      }
    }
    const text = (snapshot: MetricsSnapshot) =>
      toWire({ status: STATUS.ok, headers: ['Content-Type', METRICS_CONTENT_TYPE, 'Cache-Control', 'no-store'], body: renderMetrics(snapshot) }, method);
    if (!this.#collect) return text(this.counters.snapshot());
    return this.#collect().then(text, (error: Error) => envelope(metricsUnavailable(error.message), method));
  }
}
