/**
 * `cpmx serve --metrics`: what one server process counts, as plain numbers. The request path
 * pays a counter increment and a bucket step per answer, and only when metrics are on (the
 * server holds no instance otherwise). A snapshot is plain data: several processes' snapshots
 * are summed into the whole server's (metrics-cluster.ts), then written as Prometheus text
 * (metrics-text.ts).
 */
import { isPromise, type Consumption } from '../core/credits.js';
import { recordedTime } from '../core/format.js';
import { METHODS as API_METHOD_TABLE, UNAVAILABLE_METHODS } from '../core/methods.js';
import { parseRequestPath } from '../core/request.js';
import type { CatalogStatus } from '../http/catalog-status.js';
import type { ResponderRegistry } from '../http/respond.js';

/** Upper bounds (seconds) of the latency histogram: an answer from memory takes tens of microseconds, one that waits for a registry milliseconds. */
export const LATENCY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** The method label's values: the methods HTTP defines, `other` for any other, `unparsed` for what never became a request (400, 408, 413, 414, 431). */
export const METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH', 'CONNECT', 'TRACE', 'other', 'unparsed'] as const;
export type MethodLabel = (typeof METHODS)[number];

/** The connection limits (connection-limits.ts) as the `limit` label names them. */
export const LIMITS = ['max_connections', 'max_connections_per_address', 'max_pipelined', 'idle_timeout', 'send_timeout', 'request_timeout'] as const;
export type LimitLabel = (typeof LIMITS)[number];
/** The limits that turn a new connection away (the rest close one already held). */
export const ADMISSION_LIMITS = ['max_connections', 'max_connections_per_address'] as const satisfies readonly LimitLabel[];

/**
 * The API method label's values: each method of the contract by its COPOMEX name (the 113 ones
 * too), `other` for a target that names none (an unknown method, /health, /openapi.json, the panel).
 */
export const API_METHODS: readonly string[] = [...Object.keys(API_METHOD_TABLE), ...UNAVAILABLE_METHODS, 'other'];
const API_INDEX: ReadonlyMap<string, number> = new Map(API_METHODS.map((name, i) => [name, i]));
const API_OTHER = API_METHODS.length - 1;

/** The API method a request target names, read by the one path parser the router reads it with. */
function apiMethodIndex(target: string | undefined): number {
  if (target === undefined) return API_OTHER;
  const request = parseRequestPath(target);
  return request === undefined ? API_OTHER : (API_INDEX.get(request.method) ?? API_OTHER);
}

const STATUSES = 600;
const UNPARSED = METHODS.indexOf('unparsed');

function methodIndex(method: string | undefined): number {
  switch (method) {
    case 'GET':
      return 0;
    case 'HEAD':
      return 1;
    default: {
      const index = METHODS.indexOf(method as MethodLabel);
      return index < 0 || index >= UNPARSED ? METHODS.indexOf('other') : index;
    }
  }
}

/** The counters: they only grow, and the whole server's are the sum of its processes'. */
export interface MetricCounters {
  /** Answers by `METHOD STATUS`. */
  requests: Record<string, number>;
  /** Answers by `api_method STATUS` (the contract's method the target names; `other` for none). */
  apiRequests: Record<string, number>;
  /** Answers per latency bucket, not cumulative; the last is past the largest bound. */
  buckets: number[];
  /** Seconds spent answering, all answers together. */
  latencySum: number;
  creditsSpent: number;
  creditsRefunded: number;
  /** New connections turned away, by the limit that did it. */
  refused: Record<string, number>;
  /** Connections held and then closed by a limit. */
  closed: Record<string, number>;
}

/** What the server holds now, from each process's view. */
export interface MetricGauges {
  /** Processes that answered. */
  processes: number;
  connectionsOpen: number;
  /** Processes with a catalog loaded. */
  catalogsLoaded: number;
  /** The oldest catalog's age, and its date (epoch seconds); null when no date is known. */
  catalogAgeSeconds: number | null;
  catalogTimestamp: number | null;
  /** Processes serving each catalog build (by build id): more than one while workers differ. */
  catalogBuilds: Record<string, number>;
  /** The corrections the catalog served applies and those refreshes dropped (the most any process reports); null when built without. */
  catalogCorrections: { applied: number; dropped: number } | null;
  /** The registry's store (null without one), how many processes see it unavailable, and visits waiting. */
  registryStore: string | null;
  registryUnavailable: number;
  registryWaiting: number;
}

export interface MetricsSnapshot {
  counters: MetricCounters;
  gauges: MetricGauges;
}

/** What the server lets the metrics read: its catalog's status (as /health tells it) and its connections. */
export interface ServerView {
  catalog(): Pick<CatalogStatus, 'loaded' | 'catalogDate' | 'buildId' | 'corrections'>;
  connections(): number;
}

/** The catalog's date (as catalogStatus gives it) as epoch seconds, and its age in seconds at `now` (ms); null where no readable date is recorded. */
export function catalogAgeSeconds(date: string | null, now: number): { timestamp: number; age: number } | null {
  const time = date === null ? Number.NaN : recordedTime(date);
  if (Number.isNaN(time)) return null;
  return { timestamp: time / 1000, age: Math.max(0, (now - time) / 1000) };
}

export function emptyCounters(): MetricCounters {
  return { requests: {}, apiRequests: {}, buckets: new Array<number>(LATENCY_BUCKETS.length + 1).fill(0), latencySum: 0, creditsSpent: 0, creditsRefunded: 0, refused: {}, closed: {} };
}

function addCounts(into: Record<string, number>, from: Record<string, number>): void {
  for (const key in from) into[key] = (into[key] ?? 0) + from[key]!;
}

/** Adds `from`'s counters into `into`. */
export function addCounters(into: MetricCounters, from: MetricCounters): void {
  addCounts(into.requests, from.requests);
  addCounts(into.apiRequests, from.apiRequests ?? {});
  for (let i = 0; i < into.buckets.length; i++) into.buckets[i]! += from.buckets[i] ?? 0;
  into.latencySum += from.latencySum;
  into.creditsSpent += from.creditsSpent;
  into.creditsRefunded += from.creditsRefunded;
  addCounts(into.refused, from.refused);
  addCounts(into.closed, from.closed);
}

/** The whole server's snapshot from its processes' (counters summed; the oldest catalog; registry problems counted). */
export function mergeSnapshots(parts: readonly MetricsSnapshot[], retired?: MetricCounters): MetricsSnapshot {
  const counters = emptyCounters();
  if (retired) addCounters(counters, retired);
  const gauges: MetricGauges = { processes: 0, connectionsOpen: 0, catalogsLoaded: 0, catalogAgeSeconds: null, catalogTimestamp: null, catalogBuilds: {}, catalogCorrections: null, registryStore: null, registryUnavailable: 0, registryWaiting: 0 };
  for (const part of parts) {
    addCounters(counters, part.counters);
    const g = part.gauges;
    gauges.processes += g.processes;
    gauges.connectionsOpen += g.connectionsOpen;
    gauges.catalogsLoaded += g.catalogsLoaded;
    if (g.catalogAgeSeconds !== null && (gauges.catalogAgeSeconds === null || g.catalogAgeSeconds > gauges.catalogAgeSeconds)) {
      gauges.catalogAgeSeconds = g.catalogAgeSeconds;
      gauges.catalogTimestamp = g.catalogTimestamp;
    }
    addCounts(gauges.catalogBuilds, g.catalogBuilds);
    const corrections = g.catalogCorrections ?? null;
    if (corrections) {
      const most = (gauges.catalogCorrections ??= { applied: 0, dropped: 0 });
      most.applied = Math.max(most.applied, corrections.applied);
      most.dropped = Math.max(most.dropped, corrections.dropped);
    }
    gauges.registryStore ??= g.registryStore;
    gauges.registryUnavailable += g.registryUnavailable;
    gauges.registryWaiting += g.registryWaiting;
  }
  return { counters, gauges };
}

/** One process's counters. */
export class ServerMetrics {
  /** Answers by method index × STATUSES + status. */
  readonly #requests = new Float64Array(METHODS.length * STATUSES);
  /** Answers by API method index × STATUSES + status. */
  readonly #apiRequests = new Float64Array(API_METHODS.length * STATUSES);
  readonly #buckets = new Float64Array(LATENCY_BUCKETS.length + 1);
  #latencySum = 0;
  #creditsSpent = 0;
  #creditsRefunded = 0;
  readonly #refused: Record<string, number> = {};
  readonly #closed: Record<string, number> = {};
  #view: ServerView | undefined;
  #registry: ResponderRegistry | undefined;

  /** The server whose catalog and connections the gauges read. */
  attach(view: ServerView): void {
    this.#view = view;
  }

  /**
   * An answer of `status` to a request of `method` (undefined: it never became a request) for
   * `target` (its request target, when there was one), begun at `started` (performance.now()).
   */
  answered(method: string | undefined, status: number, started: number, target?: string): void {
    const row = method === undefined ? UNPARSED : methodIndex(method);
    const column = status < STATUSES ? status : 0;
    this.#requests[row * STATUSES + column]!++;
    this.#apiRequests[(method === undefined ? API_OTHER : apiMethodIndex(target)) * STATUSES + column]!++;
    const seconds = (performance.now() - started) / 1000;
    this.#latencySum += seconds;
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket++;
    this.#buckets[bucket]!++;
  }

  /** A new connection turned away at an admission limit. */
  refused(limit: LimitLabel): void {
    this.#refused[limit] = (this.#refused[limit] ?? 0) + 1;
  }

  /** A connection held and closed because of `limit`. */
  closed(limit: LimitLabel): void {
    this.#closed[limit] = (this.#closed[limit] ?? 0) + 1;
  }

  /**
   * `registry`, counting the credits it takes and gives back (an answer that never reached its
   * client), and read for its state. A consume that fails (the registry unavailable) spent nothing.
   */
  countRegistry(registry: ResponderRegistry): ResponderRegistry {
    this.#registry = registry;
    const spent = (outcome: Consumption) => {
      if (outcome === 'spent') this.#creditsSpent++;
      return outcome;
    };
    return {
      credits: (token) => registry.credits(token),
      consume: (token) => {
        const outcome = registry.consume(token);
        return isPromise(outcome) ? outcome.then(spent) : spent(outcome);
      },
      refund: registry.refund
        ? (token) => {
            this.#creditsRefunded++;
            registry.refund!(token);
          }
        : undefined,
      delivered: registry.delivered ? (token) => registry.delivered!(token) : undefined,
      health: registry.health ? () => registry.health!() : undefined,
    };
  }

  /** This process's numbers now. */
  snapshot(now = Date.now()): MetricsSnapshot {
    const requests: Record<string, number> = {};
    for (let i = 0; i < this.#requests.length; i++) {
      const count = this.#requests[i]!;
      if (count > 0) requests[`${METHODS[Math.floor(i / STATUSES)]} ${i % STATUSES}`] = count;
    }
    const apiRequests: Record<string, number> = {};
    for (let i = 0; i < this.#apiRequests.length; i++) {
      const count = this.#apiRequests[i]!;
      if (count > 0) apiRequests[`${API_METHODS[Math.floor(i / STATUSES)]} ${i % STATUSES}`] = count;
    }
    const catalog = this.#view?.catalog();
    const age = catalog?.loaded ? catalogAgeSeconds(catalog.catalogDate, now) : null;
    const health = this.#registry?.health?.();
    return {
      counters: {
        requests,
        apiRequests,
        buckets: Array.from(this.#buckets),
        latencySum: this.#latencySum,
        creditsSpent: this.#creditsSpent,
        creditsRefunded: this.#creditsRefunded,
        refused: { ...this.#refused },
        closed: { ...this.#closed },
      },
      gauges: {
        processes: 1,
        connectionsOpen: this.#view?.connections() ?? 0,
        catalogsLoaded: catalog?.loaded ? 1 : 0,
        catalogAgeSeconds: age?.age ?? null,
        catalogTimestamp: age?.timestamp ?? null,
        catalogBuilds: catalog?.loaded && catalog.buildId ? { [catalog.buildId]: 1 } : {},
        catalogCorrections: catalog?.loaded ? catalog.corrections : null,
        registryStore: this.#registry ? (health?.store ?? 'custom') : null,
        registryUnavailable: health && health.state !== 'ok' ? 1 : 0,
        registryWaiting: health?.waiting ?? 0,
      },
    };
  }
}
