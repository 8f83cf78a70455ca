/**
 * A metrics snapshot as the Prometheus text exposition format (version 0.0.4): a HELP and a
 * TYPE line per family, `cpmx_` names, `_total` counters, seconds as the unit, every known
 * label set written from the start (a rate needs its zero), label values escaped.
 */
import { ADMISSION_LIMITS, LATENCY_BUCKETS, LIMITS, type MetricsSnapshot } from './metrics.js';

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** A label value as the format quotes it: backslash, double quote and line feed escaped. */
export function labelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

function labels(pairs: Record<string, string>): string {
  const text = Object.entries(pairs)
    .map(([name, value]) => `${name}="${labelValue(value)}"`)
    .join(',');
  return text ? `{${text}}` : '';
}

class Exposition {
  text = '';

  family(name: string, type: 'counter' | 'gauge' | 'histogram', help: string): this {
    this.text += `# HELP ${name} ${help.replace(/[\\\n]/g, (c) => (c === '\n' ? '\\n' : '\\\\'))}\n# TYPE ${name} ${type}\n`;
    return this;
  }

  sample(name: string, value: number, pairs: Record<string, string> = {}): this {
    this.text += `${name}${labels(pairs)} ${Number.isFinite(value) ? String(value) : value > 0 ? '+Inf' : 'NaN'}\n`;
    return this;
  }
}

/** The snapshot as Prometheus text. */
export function renderMetrics(snapshot: MetricsSnapshot): string {
  const { counters, gauges } = snapshot;
  const out = new Exposition();

  out.family('cpmx_http_requests_total', 'counter', 'HTTP answers written, by request method and status (method "unparsed": what never became a request; /metrics itself included)');
  const requests = Object.entries(counters.requests).sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [key, count] of requests) {
    const [method = '', status = ''] = key.split(' ');
    out.sample('cpmx_http_requests_total', count, { method, status });
  }

  out.family('cpmx_api_requests_total', 'counter', 'HTTP answers written, by the API method the request target names (its COPOMEX name; "other" for none: an unknown method, /health, /openapi.json, /metrics, the panel, what never became a request) and status');
  const apiRequests = Object.entries(counters.apiRequests).sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [key, count] of apiRequests) {
    const space = key.lastIndexOf(' ');
    out.sample('cpmx_api_requests_total', count, { api_method: key.slice(0, space), status: key.slice(space + 1) });
  }

  out.family('cpmx_http_request_duration_seconds', 'histogram', 'Seconds from a request reaching the answer path to its answer given to the connection');
  let cumulative = 0;
  LATENCY_BUCKETS.forEach((bound, i) => {
    cumulative += counters.buckets[i] ?? 0;
    out.sample('cpmx_http_request_duration_seconds_bucket', cumulative, { le: String(bound) });
  });
  cumulative += counters.buckets[LATENCY_BUCKETS.length] ?? 0;
  out.sample('cpmx_http_request_duration_seconds_bucket', cumulative, { le: '+Inf' });
  out.sample('cpmx_http_request_duration_seconds_sum', counters.latencySum);
  out.sample('cpmx_http_request_duration_seconds_count', cumulative);

  out.family('cpmx_credits_spent_total', 'counter', 'Credits taken from the token registry for answers with data');
  out.sample('cpmx_credits_spent_total', counters.creditsSpent);
  out.family('cpmx_credits_refunded_total', 'counter', 'Credits given back because their answer never reached the client (spent minus refunded is what the registry keeps)');
  out.sample('cpmx_credits_refunded_total', counters.creditsRefunded);

  out.family('cpmx_connections_refused_total', 'counter', 'New connections answered 503 and closed at a connection limit');
  for (const limit of ADMISSION_LIMITS) out.sample('cpmx_connections_refused_total', counters.refused[limit] ?? 0, { limit });
  out.family('cpmx_connections_closed_total', 'counter', 'Connections held and then closed by the server because of a limit (made room for a new one, pipelined too much, silent, answers unread, request too slow)');
  for (const limit of LIMITS) out.sample('cpmx_connections_closed_total', counters.closed[limit] ?? 0, { limit });
  out.family('cpmx_connections_open', 'gauge', 'Connections held now');
  out.sample('cpmx_connections_open', gauges.connectionsOpen);

  out.family('cpmx_processes', 'gauge', 'Server processes (workers) whose numbers this answer sums');
  out.sample('cpmx_processes', gauges.processes);

  out.family('cpmx_catalog_loaded', 'gauge', '1 when every process has a catalog loaded, else 0 (test mode only)');
  out.sample('cpmx_catalog_loaded', gauges.processes > 0 && gauges.catalogsLoaded === gauges.processes ? 1 : 0);
  if (gauges.catalogAgeSeconds !== null && gauges.catalogTimestamp !== null) {
    out.family('cpmx_catalog_age_seconds', 'gauge', "Age of the catalog served (the oldest, when processes differ): now minus the catalog's date");
    out.sample('cpmx_catalog_age_seconds', Math.round(gauges.catalogAgeSeconds));
    out.family('cpmx_catalog_timestamp_seconds', 'gauge', "The catalog's date (the oldest served), as Unix time");
    out.sample('cpmx_catalog_timestamp_seconds', gauges.catalogTimestamp);
  }

  const builds = Object.entries(gauges.catalogBuilds).sort(([a], [b]) => (a < b ? -1 : 1));
  if (builds.length > 0) {
    out.family('cpmx_catalog_build_info', 'gauge', "Processes serving each catalog build (the artifact's build id, as /health shows it); two while a reload spreads across workers");
    for (const [buildId, count] of builds) out.sample('cpmx_catalog_build_info', count, { build_id: buildId });
  }

  if (gauges.catalogCorrections) {
    out.family('cpmx_catalog_corrections', 'gauge', "The operator's corrections (cpmx build --corrections) the catalog served applies, and those scheduled refreshes dropped because they no longer apply (cpmx status lists them)");
    out.sample('cpmx_catalog_corrections', gauges.catalogCorrections.applied, { state: 'applied' });
    out.sample('cpmx_catalog_corrections', gauges.catalogCorrections.dropped, { state: 'dropped' });
  }

  if (gauges.registryStore !== null) {
    out.family('cpmx_registry_up', 'gauge', '1 when every process reaches the token registry, 0 while any answers paying requests 503');
    out.sample('cpmx_registry_up', gauges.registryUnavailable === 0 ? 1 : 0, { store: gauges.registryStore });
    out.family('cpmx_registry_unavailable_processes', 'gauge', 'Processes that cannot reach the token registry now');
    out.sample('cpmx_registry_unavailable_processes', gauges.registryUnavailable);
    out.family('cpmx_registry_waiting', 'gauge', 'Registry visits (paying requests, refunds) waiting or under way now');
    out.sample('cpmx_registry_waiting', gauges.registryWaiting);
  }
  return out.text;
}
