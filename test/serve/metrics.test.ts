/**
 * GET /metrics of `cpmx serve --metrics`, as Prometheus reads it: a real two-worker server with
 * a SQLite registry, requests of several methods and statuses sent over real connections (each
 * its own, so both workers answer), and the exposition read by a Prometheus text-format parser
 * from npm. Every count must equal what the test sent, summed over the workers, whichever
 * worker answers the scrape.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyCounters } from '../../src/serve/metrics.js';
import { renderMetrics } from '../../src/serve/metrics-text.js';
import { buildInto, CLI, FIXTURE } from '../helpers.js';
import { exchange, pipelined, responses, type Exchange } from '../support/raw-http.js';
import { startServe, tokensOk, waitFor, type Served } from '../support/serve.js';

const dir = mkdtempSync(join(tmpdir(), 'cpmx-metrics-'));
chmodSync(dir, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let dataPath: string;

beforeAll(async () => {
  dataPath = await buildInto(FIXTURE, dir);
});

const METRICS_TOKEN = 'scrape-token-0123456789abcdef';

interface Family {
  name: string;
  help: string;
  type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
  metrics: { value?: string; labels?: Record<string, string>; buckets?: Record<string, string>; count?: string; sum?: string }[];
}

function portOf(served: Served): number {
  return Number(new URL(served.url).port);
}

/** One request on its own connection (so the kernel hands it to either worker). */
async function send(served: Served, method: string, target: string, headers: string[] = []): Promise<{ status: number; text: string }> {
  const request = `${method} ${target} HTTP/1.1\r\nHost: localhost\r\n${headers.map((h) => `${h}\r\n`).join('')}Connection: close\r\n\r\n`;
  const answer = await exchange(portOf(served), request);
  if (answer.status === undefined) throw new Error(`no answer to ${method} ${target}: ${answer.error ?? answer.text}`);
  return { status: answer.status, text: answer.text };
}

/** What the test sent, as the metric counts it: `METHOD STATUS` → answers. */
class Tally {
  readonly counts = new Map<string, number>();
  add(method: string, status: number): void {
    const key = `${method} ${status}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
  get total(): number {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }
}

async function scrape(served: Served, authorization = `Bearer ${METRICS_TOKEN}`): Promise<{ status: number; text: string; families: Map<string, Family> }> {
  const response = await fetch(`${served.url}/metrics`, { headers: { Authorization: authorization, Connection: 'close' } });
  const text = await response.text();
  if (response.status !== 200) return { status: response.status, text, families: new Map() };
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  const families = parsePrometheusTextFormat(text) as Family[];
  return { status: 200, text, families: new Map(families.map((family) => [family.name, family])) };
}

function family(families: Map<string, Family>, name: string, type: Family['type']): Family {
  const found = families.get(name);
  if (!found) throw new Error(`no ${name} in the exposition`);
  expect(found.type).toBe(type);
  expect(found.help.length).toBeGreaterThan(10);
  return found;
}

function value(families: Map<string, Family>, name: string, type: Family['type'], labels: Record<string, string> = {}): number {
  const sample = family(families, name, type).metrics.find((metric) => Object.entries(labels).every(([key, v]) => metric.labels?.[key] === v));
  if (!sample) throw new Error(`no ${name}${JSON.stringify(labels)}`);
  return Number(sample.value);
}

/** Requests by method and status as the exposition counts them. */
function requestCounts(families: Map<string, Family>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const metric of family(families, 'cpmx_http_requests_total', 'COUNTER').metrics) counts.set(`${metric.labels!.method} ${metric.labels!.status}`, Number(metric.value));
  return counts;
}

/** `cpmx_api_requests_total` by `api_method status`. */
function apiCounts(families: Map<string, Family>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const metric of family(families, 'cpmx_api_requests_total', 'COUNTER').metrics) counts.set(`${metric.labels!.api_method} ${metric.labels!.status}`, Number(metric.value));
  return counts;
}

const sum = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

function spentInRegistry(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT coalesce(sum(credits), 0) AS spent FROM usage').get() as { spent: number }).spent;
  } finally {
    db.close();
  }
}

describe('GET /metrics of cpmx serve --workers 2 --metrics', () => {
  let served: Served;
  let registry: string;
  let token: string;
  const tally = new Tally();

  beforeAll(async () => {
    registry = join(dir, 'metrics.db');
    token = (await tokensOk(['create', '--registry', registry, '--name', 'metrics', '--credits', '100'])).trim();
    served = await startServe(['--workers', '2', '--metrics', '--registry', registry, '--data', dataPath], { env: { ...process.env, CPMX_METRICS_TOKEN: METRICS_TOKEN } });
  });
  afterAll(() => served?.stop());

  it('counts every answer by method and status, summed over both workers, whichever worker answers', async () => {
    // Both workers answer some of what follows.
    const pids = new Set<number>();
    await waitFor(async () => {
      const answer = await send(served, 'GET', '/health');
      tally.add('GET', answer.status);
      pids.add((JSON.parse(answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4)) as { pid: number }).pid);
      return pids.size === 2;
    }, 'both workers to answer');

    const paid = `/query/info_cp/09810?token=${token}`;
    const requests: [string, string, string[]?][] = [
      ...Array.from({ length: 6 }, () => ['GET', paid] as [string, string]),
      ['GET', '/query/info_cp/09810?token=pruebas'],
      ['GET', '/query/info_cp/09810?token=pruebas'],
      ['HEAD', paid],
      ['HEAD', paid],
      ['GET', '/query/info_cp/09810?token=no-such-token'],
      ['GET', '/query/info_cp/00000?token=pruebas'],
      ['GET', '/no/such/path'],
      ['POST', '/query/info_cp/09810?token=pruebas'],
      ['DELETE', '/health'],
      ['OPTIONS', '/query/get_estados', ['Origin: https://ejemplo.mx', 'Access-Control-Request-Method: GET']],
      // Costs no credit, and takes no API token: the metrics token only.
      ['GET', `/metrics?token=${token}`],
      ['GET', '/metrics', ['Authorization: Bearer wrong-token-0123456789']],
      ['PUT', '/metrics', [`Authorization: Bearer ${METRICS_TOKEN}`]],
    ];
    const statuses: number[] = [];
    for (const [method, target, headers] of requests) {
      const { status } = await send(served, method, target, headers);
      statuses.push(status);
      tally.add(method, status);
    }
    expect(new Set(statuses).size).toBeGreaterThanOrEqual(5);
    expect(statuses.slice(-3)).toEqual([401, 401, 405]);
    // An ETag revalidated (304), and a request that never becomes one (400).
    const first = await fetch(served.url + paid, { headers: { Connection: 'close' } });
    tally.add('GET', first.status);
    const etag = first.headers.get('etag')!;
    const notModified = await send(served, 'GET', paid, [`If-None-Match: ${etag}`]);
    expect(notModified.status).toBe(304);
    tally.add('GET', 304);
    const malformed = await exchange(portOf(served), 'GET /health HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n');
    expect(malformed.status).toBe(400);
    tally.add('unparsed', 400);

    // Scraped again and again, the totals are the whole server's, each scrape counted by the next.
    for (let scrapeNumber = 0; scrapeNumber < 4; scrapeNumber++) {
      const { families } = await scrape(served);
      expect(requestCounts(families)).toEqual(tally.counts);
      tally.add('GET', 200);
      expect(value(families, 'cpmx_processes', 'GAUGE')).toBe(2);
    }
  });

  it('counts answers by the API method the target names (its COPOMEX name; other for none), every answer once', async () => {
    const before = apiCounts((await scrape(served)).families);
    tally.add('GET', 200);
    const sent: [string, string][] = [
      ['/query/info_cp/09810?token=pruebas', 'info_cp'],
      ['/query/info_cp/09810?type=simplified&token=pruebas', 'info_cp'],
      ['/query/info_cp/0981?token=pruebas', 'info_cp'],
      ['/query/get_estados?token=pruebas', 'get_estados'],
      ['/query/cuenta/consultas_disponibles?token=pruebas', 'cuenta/consultas_disponibles'],
      ['/query/info_localidad/09810?token=pruebas', 'info_localidad'],
      ['/query/no_such_method?token=pruebas', 'other'],
      ['/health', 'other'],
    ];
    // The first scrape's own answer is counted by the next one.
    const expected = new Map<string, number>([['other 200', 1]]);
    for (const [target, label] of sent) {
      const { status } = await send(served, 'GET', target);
      tally.add('GET', status);
      const key = `${label} ${status}`;
      expected.set(key, (expected.get(key) ?? 0) + 1);
    }
    expect([...expected.keys()]).toEqual(expect.arrayContaining(['info_cp 200', 'info_cp 400', 'info_localidad 501', 'other 404']));
    const { families } = await scrape(served);
    tally.add('GET', 200);
    const after = apiCounts(families);
    for (const [key, count] of expected) expect(`${key}: ${(after.get(key) ?? 0) - (before.get(key) ?? 0)}`).toBe(`${key}: ${count}`);
    // Every answer is in both families once: by HTTP method and by API method.
    expect(sum(after)).toBe(sum(requestCounts(families)));
  });

  it('has a latency histogram whose buckets are cumulative and whose count is every answer', async () => {
    const { families } = await scrape(served);
    const histogram = family(families, 'cpmx_http_request_duration_seconds', 'HISTOGRAM').metrics[0]!;
    // By bound (an object lists keys like "1" first); Number('+Inf') is Infinity.
    const bounds = Object.keys(histogram.buckets!).sort((a, b) => Number(a) - Number(b));
    expect(bounds.length).toBeGreaterThan(8);
    expect(bounds.at(-1)).toBe('+Inf');
    const counts = bounds.map((bound) => Number(histogram.buckets![bound]));
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThanOrEqual(counts[i - 1]!);
    // The answers from memory take well under a second.
    expect(counts[bounds.indexOf('1')]).toBeGreaterThan(0);
    expect(Number(histogram.count)).toBe(counts.at(-1));
    expect(Number(histogram.count)).toBe(tally.total);
    expect(Number(histogram.sum)).toBeGreaterThan(0);
    tally.add('GET', 200);
  });

  it('counts the credits the registry took (no credit for HEAD, 304, test mode or /metrics)', async () => {
    const { families } = await scrape(served);
    tally.add('GET', 200);
    const spent = value(families, 'cpmx_credits_spent_total', 'COUNTER');
    const refunded = value(families, 'cpmx_credits_refunded_total', 'COUNTER');
    expect(spent - refunded).toBe(spentInRegistry(registry));
    // Six paid GETs and the one that got the ETag.
    expect(spent).toBe(7);
  });

  it('reports the registry and the catalog', async () => {
    const { families } = await scrape(served);
    tally.add('GET', 200);
    expect(value(families, 'cpmx_registry_up', 'GAUGE', { store: 'sqlite' })).toBe(1);
    expect(value(families, 'cpmx_registry_unavailable_processes', 'GAUGE')).toBe(0);
    expect(value(families, 'cpmx_catalog_loaded', 'GAUGE')).toBe(1);
    const health = (await (await fetch(`${served.url}/health`, { headers: { Connection: 'close' } })).json()) as { catalogDate: string; buildId: string };
    tally.add('GET', 200);
    // Both workers serve the same build, the one /health names.
    expect(family(families, 'cpmx_catalog_build_info', 'GAUGE').metrics).toEqual([{ value: '2', labels: { build_id: health.buildId } }]);
    const date = Date.parse(/Z$|[+-]\d\d:\d\d$/.test(health.catalogDate) ? health.catalogDate : `${health.catalogDate}Z`) / 1000;
    expect(value(families, 'cpmx_catalog_timestamp_seconds', 'GAUGE')).toBe(date);
    const age = value(families, 'cpmx_catalog_age_seconds', 'GAUGE');
    expect(Math.abs(age - (Date.now() / 1000 - date))).toBeLessThan(120);
  });

  it('answers 401 without the metrics token (and HEAD with headers only)', async () => {
    expect((await scrape(served, '')).status).toBe(401);
    expect((await scrape(served, `Bearer ${METRICS_TOKEN}x`)).status).toBe(401);
    tally.add('GET', 401);
    tally.add('GET', 401);
    const head = await send(served, 'HEAD', '/metrics', [`Authorization: Bearer ${METRICS_TOKEN}`]);
    tally.add('HEAD', 200);
    expect(head.status).toBe(200);
    expect(head.text.endsWith('\r\n\r\n')).toBe(true);
    const { families } = await scrape(served);
    expect(requestCounts(families)).toEqual(tally.counts);
    tally.add('GET', 200);
  });

  it('keeps a dead worker’s counts: counters never go back when a worker is replaced', async () => {
    const before = requestCounts((await scrape(served)).families);
    tally.add('GET', 200);
    const pidOf = async () => {
      const answer = await send(served, 'GET', '/health');
      tally.add('GET', answer.status);
      return (JSON.parse(answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4)) as { pid: number }).pid;
    };
    const victim = await pidOf();
    process.kill(victim, 'SIGKILL');
    const pids = new Set<number>();
    await waitFor(async () => {
      pids.add(await pidOf());
      return pids.size === 2 && !pids.has(victim);
    }, 'the replacement worker to answer beside the other');
    const { families } = await scrape(served);
    const after = requestCounts(families);
    for (const [key, count] of before) expect(after.get(key)).toBeGreaterThanOrEqual(count);
    // What the dead worker answered after the last collection is lost with it: at most the
    // scrape `before` (counted once answered) and the /health that named it.
    let lost = 0;
    for (const [key, count] of tally.counts) {
      const seen = after.get(key) ?? 0;
      expect(seen).toBeLessThanOrEqual(count);
      lost += count - seen;
    }
    expect(lost).toBeLessThanOrEqual(2);
    expect(value(families, 'cpmx_processes', 'GAUGE')).toBe(2);
  });
});

describe('connections turned away and closed by limits', () => {
  it('counts a refused connection, a pipelining overflow and a silent connection, across both workers', async () => {
    const registry = join(dir, 'limits.db');
    const token = (await tokensOk(['create', '--registry', registry, '--name', 'limits', '--credits', '100'])).trim();
    const served = await startServe([
      '--workers', '2', '--metrics', '--registry', registry, '--data', dataPath,
      '--max-connections-per-address', '1', '--max-pipelined', '2', '--idle-timeout', '0.5', '--registry-timeout', '30000',
    ]);
    const port = portOf(served);
    try {
      // Paying requests wait while another process holds the registry's lock: their connections are busy.
      const holder = new Database(registry);
      holder.exec('BEGIN IMMEDIATE');
      const busy: Promise<Exchange>[] = [];
      let refused = 0;
      // The registry visits under way in both workers, read from /metrics (from another address than the paying client's).
      const waiting = async () => {
        const text = await (await fetch(`${served.url}/metrics`, { headers: { Connection: 'close' } })).text();
        return value(new Map((parsePrometheusTextFormat(text) as Family[]).map((f) => [f.name, f])), 'cpmx_registry_waiting', 'GAUGE');
      };
      // From 127.0.0.2, each worker holds one busy connection at most; a connection to a worker holding one is refused.
      while (refused === 0) {
        const attempt = exchange(port, `GET /query/info_cp/09810?token=${token} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`, { localAddress: '127.0.0.2', timeoutMs: 60_000 });
        let settled: Exchange | undefined;
        void attempt.then((answer) => (settled = answer));
        await waitFor(async () => settled !== undefined || (await waiting()) === busy.length + 1, 'the connection to be refused or to wait for the registry');
        if (settled) {
          expect(settled.status).toBe(503);
          expect(settled.text).toMatch(/conexiones/);
          refused++;
        } else busy.push(attempt);
        expect(busy.length).toBeLessThanOrEqual(2);
      }
      holder.exec('COMMIT');
      holder.close();
      for (const answer of await Promise.all(busy)) expect(answer.status).toBe(200);

      // Two requests may wait behind the one being read; the next is one too many: 503, and the connection closes.
      const overflow = await exchange(port, pipelined('/query/get_estados?token=pruebas', 4));
      expect(responses(overflow.bytes).map((answer) => answer.status)).toEqual([200, 200, 200, 503]);

      // A connection that never sends a byte is closed after the idle timeout.
      const silent: Socket = connect(port, '127.0.0.1');
      await new Promise<void>((resolve) => {
        silent.once('close', () => resolve());
      });

      const text = await (await fetch(`${served.url}/metrics`, { headers: { Connection: 'close' } })).text();
      const families = new Map((parsePrometheusTextFormat(text) as Family[]).map((f) => [f.name, f]));
      expect(value(families, 'cpmx_connections_refused_total', 'COUNTER', { limit: 'max_connections_per_address' })).toBe(refused);
      expect(value(families, 'cpmx_connections_refused_total', 'COUNTER', { limit: 'max_connections' })).toBe(0);
      expect(value(families, 'cpmx_connections_closed_total', 'COUNTER', { limit: 'max_pipelined' })).toBe(1);
      expect(value(families, 'cpmx_connections_closed_total', 'COUNTER', { limit: 'idle_timeout' })).toBe(1);
      expect(value(families, 'cpmx_credits_spent_total', 'COUNTER')).toBe(busy.length);
      expect(spentInRegistry(registry)).toBe(busy.length);
      // The registry was locked: the requests waited, not failed, so it never counted as down.
      expect(value(families, 'cpmx_registry_up', 'GAUGE', { store: 'sqlite' })).toBe(1);
    } finally {
      await served.stop();
    }
  });
});

describe('one process', () => {
  it('answers its own numbers, with no registry family, and says on stderr when /metrics is open beyond loopback', async () => {
    const served = await startServe(['--metrics', '--host', '0.0.0.0', '--data', dataPath]);
    try {
      await waitFor(() => /GET \/metrics is open to every client that reaches 0\.0\.0\.0/.test(served.output()), 'the warning on stderr');
      const port = portOf(served);
      const tally = new Tally();
      for (const target of ['/query/get_estados?token=pruebas', '/health', '/nowhere']) {
        const answer = await exchange(port, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
        tally.add('GET', answer.status!);
      }
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { Connection: 'close' } })).text();
      const families = new Map((parsePrometheusTextFormat(text) as Family[]).map((f) => [f.name, f]));
      expect(requestCounts(families)).toEqual(tally.counts);
      expect(value(families, 'cpmx_processes', 'GAUGE')).toBe(1);
      expect(value(families, 'cpmx_credits_spent_total', 'COUNTER')).toBe(0);
      expect(families.has('cpmx_registry_up')).toBe(false);
      // Every name is cpmx_, counters end in _total, and each family has its HELP and TYPE.
      for (const name of families.keys()) expect(name).toMatch(/^cpmx_[a-z_]+$/);
      for (const f of families.values()) if (f.type === 'COUNTER') expect(f.name).toMatch(/_total$/);
      expect(text.match(/^# HELP /gm)!.length).toBe(families.size);
      expect(text.match(/^# TYPE /gm)!.length).toBe(families.size);
    } finally {
      await served.stop();
    }
  });
});

describe('the exposition text', () => {
  it('escapes label values (backslash, double quote, line feed) so a parser reads them back whole', () => {
    const store = 'a\\b "c"\nd';
    const text = renderMetrics({
      counters: emptyCounters(),
      gauges: { processes: 1, connectionsOpen: 0, catalogsLoaded: 1, catalogAgeSeconds: 10, catalogTimestamp: 5, catalogBuilds: {}, catalogCorrections: null, registryStore: store, registryUnavailable: 0, registryWaiting: 0 },
    });
    expect(text).toContain('cpmx_registry_up{store="a\\\\b \\"c\\"\\nd"} 1');
    const families = new Map((parsePrometheusTextFormat(text) as Family[]).map((f) => [f.name, f]));
    expect(family(families, 'cpmx_registry_up', 'GAUGE').metrics[0]!.labels).toEqual({ store });
  });
});

describe('without --metrics', () => {
  it('answers /metrics as any path of no method: 404 with the contract’s envelope', async () => {
    const served = await startServe(['--data', dataPath]);
    try {
      const metrics = await fetch(`${served.url}/metrics`, { headers: { Connection: 'close' } });
      const other = await fetch(`${served.url}/no-such-path`, { headers: { Connection: 'close' } });
      expect(metrics.status).toBe(404);
      const body = (await metrics.json()) as { error: boolean; code_error: number };
      expect(body).toEqual(await other.json());
      expect(body.code_error).toBe(111);
    } finally {
      await served.stop();
    }
  });

  it('refuses --metrics-token without --metrics, and a short token', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number; stderr: string }>((resolve) =>
        execFile(process.execPath, [CLI, 'serve', '--port', '0', ...args], (error, _stdout, stderr) => resolve({ code: Number((error as { code?: number } | null)?.code ?? 0), stderr })),
      );
    const without = await run(['--metrics-token', METRICS_TOKEN]);
    expect(without.code).toBe(2);
    expect(without.stderr).toMatch(/--metrics-token is an option of \/metrics: add --metrics/);
    const short = await run(['--metrics', '--metrics-token', 'short']);
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/16 to 512 visible ASCII characters/);
  });
});
